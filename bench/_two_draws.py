"""Judge a card recipe change by the two-draw rule of ``models/LIMITS.md`` (2026-12-07).

    python -m bench._two_draws --full0 DIR --full1 DIR --dev1 DIR --dev2 DIR

The four draws of a change: full draws of seeds 0 (with its own gate, ``tableref train
cards-gate --out DIR``) and 1, and dev-out draws of seeds 1 and 2 (``tableref train cards
--dev-out``; each with ``--recipe NAME=VALUE`` for the change). The last three are read with
the shipped proposals' gate (``--gate-from``, ``models/`` unless told). Each set is read as
the rule's baseline was, int8 where the CPU takes it, and summed over its two draws:

* the real dev fold, by the two dev-out draws;
* the development tables, standard deck 18 000 000+ and All In 18 100 000+, 400 each;
* the real training photos;
* the one-print decks (``vision.enrol_misses``: standard deck and All In, prints 201-206,
  layout 7, scenes 61 000+, 20 each);

the last three by the two full draws. One line of JSON a draw and set as it is read, then the
verdict: each set's sum against the baseline's and its margins, and whether the change ships
(every set within them; the exit status is 0 then, 1 if not). Some 15 minutes on two cores.
The baseline (:data:`BASELINE`) holds for the reader it was read with. Its draws went with a
wiped ``build/`` and cannot be read again, so every set is read with the reader's constants
as they stood then (:data:`BASELINE_READER`): a later reader change that takes reads away
would otherwise count in a change's favour. After a reader change that must be judged with,
draw the current recipe's four again, read them with this command and write their sums there.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from vision.recognise import MODELS


@dataclass(frozen=True)
class Bound:
    """A set's baseline (``right`` and ``spurious``, summed over two draws) and how far a
    change may move it: at least ``least_right`` more right (negative: that many fewer
    allowed), at most ``most_spurious`` more spurious."""

    right: int
    spurious: int
    least_right: int
    most_spurious: int

    def holds(self, right: int, spurious: int) -> bool:
        more_right, more_spurious = right - self.right, spurious - self.spurious
        return more_right >= self.least_right and more_spurious <= self.most_spurious


# The current recipe's four draws read with the reader of 2026-12-07 (models/LIMITS.md, "a
# two-draw rule"): right / spurious summed, and the rule's margins.
BASELINE = {
    "dev_fold": Bound(825, 25, 0, 4),
    "tables": Bound(10066, 80, -20, 10),
    "training_photos": Bound(3116, 74, -5, 10),
    "one_print_decks": Bound(2801, 49, -5, 10),
}
# vision.reader's constants as the baseline was read (2026-12-07, before commit f756913):
# since then a joker's word on a card's face art is dropped (reader.ART_WORDS), which took 3-4
# spurious reads off a draw's dev fold.
BASELINE_READER: dict[str, object] = {"ART_WORDS": False}
# Which draws read which set.
READ_BY = {
    "dev_fold": ("dev1", "dev2"),
    "tables": ("full0", "full1"),
    "training_photos": ("full0", "full1"),
    "one_print_decks": ("full0", "full1"),
}
DRAWS = ("full0", "full1", "dev1", "dev2")
TABLES = (("cards", 18_000_000), ("allin", 18_100_000))
TABLE_COUNT = 400
PRINTS = (201, 202, 203, 204, 205, 206)


class DrawError(ValueError):
    """A draw's folder the rule cannot read as asked."""


@contextmanager
def baseline_reader() -> Iterator[None]:
    """vision.reader as :data:`BASELINE` was read with it (:data:`BASELINE_READER`), for the
    block's length."""
    from vision import reader

    before = {name: getattr(reader, name) for name in BASELINE_READER}
    try:
        for name, value in BASELINE_READER.items():
            setattr(reader, name, value)
        yield
    finally:
        for name, value in before.items():
            setattr(reader, name, value)


def read_set(name: str, models: Path, gate_from: Path | None) -> tuple[int, int]:
    """Right and spurious reads of set ``name`` by the models in ``models``, with the reader
    the baseline was read with."""
    with baseline_reader():
        return _read_set(name, models, gate_from)


def _read_set(name: str, models: Path, gate_from: Path | None) -> tuple[int, int]:
    from bench import _sweep
    from vision import enrol_misses

    if name == "one_print_decks":
        right = spurious = 0
        for game in ("cards", "allin"):
            for p in PRINTS:
                out = enrol_misses.measure(game, 7, 61_000, 20, True, p, models, gate_from)
                right, spurious = right + out["right"], spurious + out["spurious"]
        return right, spurious
    if name == "tables":
        results = [
            _sweep.sweep(
                game,
                None,
                list(_sweep.tables(game, start, TABLE_COUNT)),
                models=models,
                gate_from=gate_from,
            )[0]
            for game, start in TABLES
        ]
        return sum(r.right for r in results), sum(r.spurious for r in results)
    which = "dev" if name == "dev_fold" else "train"
    result = _sweep.sweep(
        "cards", None, list(_sweep.photos("cards", which)), models=models, gate_from=gate_from
    )[0]
    return result.right, result.spurious


def check_draws(draws: dict[str, Path]) -> None:
    """Each folder holds a card recogniser, and the seed-0 full draw its own gate (it is the
    draw that ships, gate and all)."""
    for key, folder in draws.items():
        if not (folder / "cards.onnx").is_file():
            raise DrawError(f"--{key} {folder}: no cards.onnx there")
    if not (draws["full0"] / "cards.gate.json").is_file():
        raise DrawError(
            f"--full0 {draws['full0']}: no gate of its own (tableref train cards-gate --out it)"
        )


def judge(
    draws: dict[str, Path],
    gate_from: Path,
    read: Callable[[str, Path, Path | None], tuple[int, int]] = read_set,
    say: Callable[[str], None] = print,
) -> dict[str, object]:
    """Every set read by its two draws and summed; the verdict against :data:`BASELINE`."""
    check_draws(draws)
    sets: dict[str, object] = {}
    ships = True
    for name, bound in BASELINE.items():
        right = spurious = 0
        for key in READ_BY[name]:
            r, s = read(name, draws[key], None if key == "full0" else gate_from)
            say(json.dumps({"set": name, "draw": key, "right": r, "spurious": s}))
            right, spurious = right + r, spurious + s
        holds = bound.holds(right, spurious)
        ships = ships and holds
        sets[name] = {
            "right": right,
            "spurious": spurious,
            "baseline": [bound.right, bound.spurious],
            "holds": holds,
        }
    return {"sets": sets, "ships": ships}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench._two_draws", description=__doc__.splitlines()[0]
    )
    for key in DRAWS:
        ap.add_argument(f"--{key}", type=Path, required=True, help=f"the {key} draw's folder")
    ap.add_argument(
        "--gate-from",
        type=Path,
        default=MODELS,
        help="the gate every draw but full0 is read with (default: the shipped one)",
    )
    args = ap.parse_args(argv)
    draws = {key: getattr(args, key) for key in DRAWS}
    try:
        verdict = judge(draws, args.gate_from)
    except DrawError as exc:
        ap.error(str(exc))
    print(json.dumps(verdict, indent=1))
    return 0 if verdict["ships"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
