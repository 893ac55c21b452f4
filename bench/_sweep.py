"""Try the values of one read-time constant on the same fresh generated tables.

    python -m bench._sweep GAME --start SEED --scenes N --set MODULE.NAME=V1,V2,...

Each value is set on the module (``vision.reader.REFRAME_NONE_BELOW``, a short name like
``reader.REFRAME_NONE_BELOW`` means the same), a new reader reads the tables, and one line a
value says right / objects, spurious reads and seconds; the constant is put back afterwards.
``--models DIR`` (given more than once to compare them) reads with the models in DIR instead
of the shipped ones, each with every value; ``--set`` may then be left out. ``--gate-from
DIR`` reads them with the proposals' gate in DIR (``models`` for the shipped one) whatever
recogniser taught it: a trial draw has none of its own until one is trained for it.
Games: ``rummikub``, ``cards``, ``allin`` (scored as ``bench.vision`` scores its generated
scenes), ``fourcolor`` and ``cactus`` (as ``bench.vision_extra`` does; ``--held-out`` draws
them in the held-out fonts). ``--misses`` adds, for card games, why each index was missed
(:mod:`vision.card_misses`); ``--list`` lists them, each with its table (seed or photo), label,
bucket and the kept reads over it, and every spurious read with its table. ``--sheet OUT.png``
(with ``--list``) also draws each listed place, the table around it enlarged with the labelled
boxes in green and the kept reads in red: a miss is seldom understood before it is seen.
``--float`` reads with the float model files (``<name>.float.onnx``) beside the int8 ones,
as the tests and CPUs without VNNI do (:func:`vision.recognise.int8_saturates`): on a CPU
with VNNI the reader takes the int8 files, whose reads differ a little.
``--photos train|dev`` reads real photos of ``../shared/datasets/`` instead (``rummikub`` or
``cards``): the training split, or its dev fold (:func:`vision.datasets.in_dev_fold`), scored
against their labels as reviewed (``*_training`` in ``vision/label_review.json``); the shipped
models trained on both, so they guard against harm rather than measure a gain.
The held-out split is never read.

A constant is chosen on tables the benchmark does not score and training never rendered, so
seeds the benchmark reads (:data:`bench.vision.SYNTH_SEED`,
:data:`bench.vision_extra.FCC_SEEDS`, :data:`~bench.vision_extra.CACTUS_SEEDS`) and the first
training renders are refused: a constant tuned on the tables that report it measures nothing.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from vision import glyphs
from vision.evaluate import score
from vision.recognise import MODELS, ModelError

CARD_GAMES = ("cards", "allin")
GAMES = ("rummikub", *CARD_GAMES, "fourcolor", "cactus")
# Training renders scenes seed * 1_000_003 + i (vision.train, vision.train_fcc) with seed 0
# by default and at most a few thousand scenes: these seeds are its own.
TRAINING_SEEDS = range(0, 10_000)


class SweepError(ValueError):
    """A sweep that cannot be run as asked; the message names what is wrong."""


@dataclass(frozen=True)
class Setting:
    module: ModuleType
    name: str
    values: list[Any]

    @property
    def label(self) -> str:
        return f"{self.module.__name__}.{self.name}"


def parse_setting(text: str) -> Setting:
    """``MODULE.NAME=V1,V2,...`` with each value a Python literal (a number, a tuple...)."""
    target, sep, values = text.partition("=")
    if not sep or "." not in target or not values:
        raise SweepError(f"--set wants MODULE.NAME=V1,V2,..., got {text!r}")
    path, name = target.rsplit(".", 1)
    if not path.startswith("vision."):
        path = f"vision.{path}"
    try:
        module = importlib.import_module(path)
    except ImportError as e:
        raise SweepError(f"no module {path} ({e})") from e
    if not hasattr(module, name):
        raise SweepError(f"{path} has no constant {name}")
    try:
        parsed = ast.literal_eval(f"[{values}]")
    except (ValueError, SyntaxError) as e:
        raise SweepError(f"the values {values!r} are not Python literals ({e})") from e
    _refuse_copies(module, name)
    return Setting(module, name, list(parsed))


READERS = ("vision.reader", "vision.read_fcc")  # where every read starts


def _source(module: str) -> ast.Module | None:
    path = Path(__file__).resolve().parent.parent.joinpath(*module.split(".")).with_suffix(".py")
    return ast.parse(path.read_text()) if path.is_file() else None


def _imports(tree: ast.Module) -> Iterator[tuple[str, ast.alias]]:
    """(module, alias) of every ``from vision... import`` and ``import vision...`` in a
    module, those inside functions too (the readers import some modules lazily)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.module, alias
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, alias


def reading_modules() -> set[str]:
    """The ``vision`` modules a read can run, from the readers' imports onwards (read from
    the source, so the answer does not hang on what else a process happened to import)."""
    seen: set[str] = set()
    todo = list(READERS)
    while todo:
        name = todo.pop()
        tree = None if name in seen else _source(name)
        if tree is None:
            continue
        seen.add(name)
        for module, alias in _imports(tree):
            if module == "vision":
                todo.append(f"vision.{alias.name}")
            elif module.startswith("vision."):
                todo.append(module)
    return seen


def _refuse_copies(module: ModuleType, name: str) -> None:
    """A constant that a module a read runs imported by name keeps its old value there, so
    setting it on ``module`` would sweep nothing that module reads: refused, naming where it
    is. (A copy made elsewhere, training's own, does not touch a read. A constant bound as a
    function's default argument cannot be seen so: sweep the names a function reads when it
    runs.)"""
    for other in sorted(reading_modules() - {module.__name__}):
        tree = _source(other)
        assert tree is not None
        for source, alias in _imports(tree):
            if source == module.__name__ and alias.name == name:
                raise SweepError(
                    f"{other} imported {name} by name: set it there "
                    f"({other}.{alias.asname or name}), or read it through the module"
                )


def check_seeds(game: str, start: int, scenes: int, held_out: bool = False) -> None:
    """Refuse seeds the benchmark scores ``game`` on, or that training rendered."""
    from bench import vision as bench_vision
    from bench import vision_extra

    wanted = range(start, start + scenes)
    taken: list[tuple[str, range]] = [("training renders", TRAINING_SEEDS)]
    if game in ("rummikub", *CARD_GAMES):
        first = bench_vision.SYNTH_SEED
        taken.append(("bench.vision", range(first, first + bench_vision.SYNTH_SCENES)))
    else:
        seeds = vision_extra.FCC_SEEDS if game == "fourcolor" else vision_extra.CACTUS_SEEDS
        first, count = seeds["held_out" if held_out else "held_in"]
        taken.append(("bench.vision_extra", range(first, first + count)))
    for owner, seeds_of in taken:
        if wanted.start < seeds_of.stop and seeds_of.start < wanted.stop:
            raise SweepError(
                f"seeds {wanted.start}-{wanted.stop - 1} overlap {owner}'s "
                f"{seeds_of.start}-{seeds_of.stop - 1}: choose fresh ones"
            )


@dataclass
class Table:
    """One table to read, with how its reads are scored (as the benchmark that reads such
    tables scores them)."""

    image: Any
    truths: Any
    score: Callable[[list[Any]], Any]
    ignore: Any = None
    photo: bool = False  # a real photo, not a generated table
    name: str = ""  # the seed or photo file, for --list


PHOTO_GAMES = {"rummikub": "tiles", "cards": "cards"}


def photos(game: str, which: str) -> Iterator[Table]:
    """The real photos of ``which`` (``train`` or ``dev``) for ``game``; never held-out ones."""
    import cv2

    from vision import datasets, label_review

    if game not in PHOTO_GAMES:
        raise SweepError(f"real photos are of Rummikub tiles and cards only, not {game}")
    if which not in ("train", "dev"):
        raise SweepError(
            f"--photos is train or dev (the held-out split is never read), not {which}"
        )
    kind = PHOTO_GAMES[game]
    # Scored against the training split's labels as reviewed (vision/label_review.json), as
    # training learns them: a label found wrong by eye would count a right read as missed.
    chosen = [
        p
        for p in datasets.load(kind)  # type: ignore[arg-type]
        if p.split == "train" and (which == "train" or datasets.in_dev_fold(p.path.name))
    ]
    for p in label_review.for_training(chosen, kind):  # type: ignore[arg-type]
        image = cv2.imread(str(p.path), cv2.IMREAD_COLOR)
        cards = game == "cards"  # a card's other, unlabelled corner, as bench.vision counts it
        yield Table(
            image,
            p.truths,
            partial(score, truths=p.truths, ignore=p.ignore, other_corners=cards),
            p.ignore,
            photo=True,
            name=p.path.name,
        )


def tables(game: str, start: int, scenes: int, held_out: bool = False) -> Iterator[Table]:
    from vision import evaluate_fcc, synth

    for seed in range(start, start + scenes):
        if game in ("fourcolor", "cactus"):
            from bench.vision_extra import _fcc_scene

            scene, truth, _ = _fcc_scene(game, seed, held_out)
            yield Table(
                scene.image, truth, partial(evaluate_fcc.score, truths=truth), name=str(seed)
            )
            continue
        rng = np.random.default_rng(seed)
        s = synth.tile_scene(rng) if game == "rummikub" else synth.card_scene(rng, game)  # type: ignore[arg-type]
        yield Table(
            s.image, s.truths, partial(score, truths=s.truths, partial=s.partial), name=str(seed)
        )


@dataclass
class Result:
    value: Any
    right: int
    objects: int
    spurious: int
    seconds: float
    misses: Counter[str]
    listed: list[str]  # --list: one line a missed index or spurious read
    spots: list[Any] = field(default_factory=list)  # --sheet: each listed place, drawn

    def line(self, label: str) -> str:
        """One line (``label``, the swept constant, left out when empty), then the listed
        misses and spurious reads, one a line."""
        text = (
            (f"{label}={self.value!r}: " if label else "")
            + f"right {self.right} / {self.objects}, "
            + f"spurious {self.spurious}, {self.seconds:.1f} s"
        )
        if self.misses:
            text += " | missed: " + ", ".join(f"{k} {v}" for k, v in sorted(self.misses.items()))
        return "\n".join([text, *self.listed])


def sweep(
    game: str,
    setting: Setting | None,
    drawn: list[Table],
    misses: bool = False,
    models: Path = MODELS,
    listing: bool = False,
    drawing: bool = False,
    gate_from: Path | None = None,
) -> list[Result]:
    """One :class:`Result` per value of ``setting`` (one, every constant as shipped, without
    one), each read by a new reader (with the models in ``models``) over the same ``drawn``
    tables; the constant is put back however the sweep ends. ``listing`` (card games): each
    missed index and spurious read is listed too, and ``misses`` implied; ``drawing`` draws
    each listed place as well (:func:`spot`). ``gate_from``: a folder whose proposals' gate
    every model folder is read with, whatever taught it (a trial draw without a gate of its
    own, read with the shipped one)."""
    listing = listing or drawing  # a place is drawn as it is listed
    if listing:
        check_listing(game)
    read = partial(
        _read,
        game,
        drawn,
        misses or listing,
        models,
        listing=listing,
        drawing=drawing,
        gate_from=gate_from,
    )
    if setting is None:
        return [read(None)]
    original = getattr(setting.module, setting.name)
    out = []
    try:
        for value in setting.values:
            setattr(setting.module, setting.name, value)
            out.append(read(value))
    finally:
        setattr(setting.module, setting.name, original)
    return out


def check_listing(game: str) -> None:
    """``--list`` needs :mod:`vision.card_misses`, which sorts card indices' misses only."""
    if game not in CARD_GAMES:
        raise SweepError(f"--list is for the card games ({', '.join(CARD_GAMES)}), not {game}")


def _read(
    game: str,
    drawn: list[Table],
    misses: bool,
    models: Path,
    value: Any,
    listing: bool = False,
    drawing: bool = False,
    gate_from: Path | None = None,
) -> Result:
    """Every table read by a new reader, with the constants as they stand now."""
    from vision import evaluate
    from vision.card_misses import missed
    from vision.reader import TableReader

    reader = TableReader(game, models=models, gate_from=gate_from)  # type: ignore[arg-type]
    total = evaluate.Score()
    why: Counter[str] = Counter()
    listed: list[str] = []
    spots: list[Any] = []
    started = time.perf_counter()
    for t in drawn:
        reading = reader.read(t.image)
        scored = t.score(reading.objects)
        total.add(scored)
        if misses and game in CARD_GAMES:
            lost = missed(reader, t.image, t.truths, t.ignore, reading)
            why.update(bucket for _, bucket in lost)
            if listing:
                listed += [_missed_line(t.name, truth, bucket, reading) for truth, bucket in lost]
                listed += [
                    f"  {t.name}: spurious {_said(r)} at {_at(r.quad)}" for r in scored.strays
                ]
            if drawing:
                spots += [
                    spot(t, reading.objects, truth.quad, f"{t.name} missed {truth.label} {bucket}")
                    for truth, bucket in lost
                ]
                spots += [
                    spot(t, reading.objects, r.quad, f"{t.name} spurious {_said(r)}")
                    for r in scored.strays
                ]
    seconds = time.perf_counter() - started
    return Result(value, total.right, total.objects, total.spurious, seconds, why, listed, spots)


SPOT_REACH = 60  # px of the table drawn either side of a listed place
SPOT_ZOOM = 3  # ...enlarged this many times (an index is 20-60 px tall)
SHEET_COLUMNS = 4


def spot(table: Table, reads: list[Any], quad: Any, caption: str) -> Any:
    """The table around ``quad``'s centre, enlarged: its labelled boxes green, the kept
    ``reads`` red with their label and confidence, ``caption`` on top. Always the same size
    (the photo's edge padded black), so that :func:`sheet` can tile them."""
    import cv2

    r, k = SPOT_REACH, SPOT_ZOOM
    x, y = (round(float(v)) for v in np.asarray(quad, np.float64).mean(axis=0))
    # A missed index may lie partly or wholly off the photo: what is off it stays black.
    x0, y0 = x - r, y - r
    h, w = table.image.shape[:2]
    view = np.zeros((2 * r, 2 * r, 3), np.uint8)
    left, top, right, bottom = max(x0, 0), max(y0, 0), min(x0 + 2 * r, w), min(y0 + 2 * r, h)
    if right > left and bottom > top:
        view[top - y0 : bottom - y0, left - x0 : right - x0] = table.image[top:bottom, left:right]
    out = cv2.resize(view, None, fx=k, fy=k)
    origin = np.array([x0, y0], np.float64)

    def drawn(q: Any) -> Any:
        return ((np.asarray(q, np.float64) - origin) * k).round().astype(np.int32)

    for t in table.truths:
        cv2.polylines(out, [drawn(t.quad)], True, (0, 200, 0), 2)
    for o in reads:
        q = drawn(o.quad)
        cv2.polylines(out, [q], True, (0, 0, 255), 2)
        cv2.putText(out, _said(o), tuple(int(v) for v in q[2]), 0, 0.5, (0, 0, 255), 1)
    cv2.putText(out, caption, (4, 16), 0, 0.45, (255, 0, 255), 1)
    return out


def sheet(spots: list[Any]) -> Any:
    """``spots`` tiled SHEET_COLUMNS a row (the last row filled with black)."""
    blank = np.zeros_like(spots[0])
    cells = spots + [blank] * (-len(spots) % SHEET_COLUMNS)
    rows = [np.hstack(cells[i : i + SHEET_COLUMNS]) for i in range(0, len(cells), SHEET_COLUMNS)]
    return np.vstack(rows)


def _said(read: Any) -> str:
    return f"{read.label} {read.confidence:.2f}"


def _at(quad: Any) -> str:
    """A quad's centre in whole pixels, to find it on the image."""
    x, y = np.asarray(quad, np.float64).mean(axis=0)
    return f"({x:.0f}, {y:.0f})"


def _missed_line(table: str, truth: Any, bucket: str, reading: Any) -> str:
    """One missed index: its table, label and bucket, and the kept reads over it."""
    from vision.matching import same_object

    over = [_said(o) for o in reading.objects if same_object(o.quad, truth.quad)]
    return f"  {table}: missed {truth.label} at {_at(truth.quad)} ({bucket})" + (
        f", read {', '.join(over)}" if over else ""
    )


@contextmanager
def float_files(on: bool = True) -> Iterator[None]:
    """Readers made inside take the float model files wherever they lie beside the int8 ones
    (``on``), as on a CPU whose int8 arithmetic saturates; put back however it ends."""
    from vision import recognise

    saved = recognise.int8_saturates
    if on:
        recognise.int8_saturates = lambda: True
    try:
        yield
    finally:
        recognise.int8_saturates = saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench._sweep", description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=GAMES)
    ap.add_argument("--start", type=int, help="first table's seed (generated tables)")
    ap.add_argument("--scenes", type=int, default=200, help="tables (default 200)")
    ap.add_argument("--set", dest="setting", help="MODULE.NAME=V1,V2,... (else as shipped)")
    ap.add_argument(
        "--models",
        type=Path,
        action="append",
        help="read with the models in this folder (repeat to compare; default models/)",
    )
    ap.add_argument(
        "--gate-from",
        type=Path,
        help="read every --models folder with the proposals' gate in this folder (models/ "
        "for the shipped one), whatever recogniser taught it",
    )
    ap.add_argument("--held-out", action="store_true", help="Four Color / Cactus: held-out fonts")
    ap.add_argument("--misses", action="store_true", help="card games: why indices were missed")
    ap.add_argument(
        "--list",
        dest="listing",
        action="store_true",
        help="card games: list each missed index (with why) and spurious read, by table",
    )
    ap.add_argument(
        "--sheet",
        type=Path,
        help="card games, with --list: draw each listed place into this PNG (one a model "
        "folder and value: -1, -2, ... before the suffix when there are more)",
    )
    ap.add_argument("--photos", choices=("train", "dev"), help="real photos, not generated tables")
    ap.add_argument(
        "--float",
        dest="floats",
        action="store_true",
        help="read with the float model files, as the tests and CPUs without VNNI do",
    )
    args = ap.parse_args(argv)
    try:
        if args.setting is None and not args.models:
            raise SweepError("--set MODULE.NAME=V1,V2,... is needed unless --models is given")
        setting = parse_setting(args.setting) if args.setting else None
        if args.listing:
            check_listing(args.game)
        if args.sheet is not None and not args.listing:
            raise SweepError("--sheet draws the listed places: give --list too")
        for folder in args.models or []:
            if not any(folder.glob("*.onnx")):
                raise SweepError(f"--models {folder}: no .onnx models there")
        if args.gate_from is not None and not any(args.gate_from.glob("*.gate.json")):
            raise SweepError(f"--gate-from {args.gate_from}: no proposals' gate there")
        for folder in args.models or [MODELS]:
            # Without them the readers would take the int8 files, under a float heading.
            if args.floats and not any(folder.glob("*.float.onnx")):
                raise SweepError(f"--float: no float model files (*.float.onnx) in {folder}")
        if args.photos:
            drawn = list(photos(args.game, args.photos))
        else:
            if args.start is None:
                raise SweepError("--start is needed for generated tables (or --photos)")
            if args.scenes < 1:
                raise SweepError("--scenes must be at least 1")
            check_seeds(args.game, args.start, args.scenes, args.held_out)
            drawn = list(tables(args.game, args.start, args.scenes, args.held_out))
    except SweepError as e:
        ap.error(str(e))
    if not args.photos:
        # Another font set draws other tables from the same seeds (vision.glyphs).
        print(f"tables drawn with {glyphs.font_signature()}", flush=True)
    if args.floats:
        print("read with the float model files", flush=True)
    drawings = 0
    for folder in args.models or [MODELS]:
        prefix = f"{folder}: " if args.models else ""
        label = setting.label if setting else ""
        with float_files(args.floats):
            try:
                results = sweep(
                    args.game,
                    setting,
                    drawn,
                    args.misses,
                    folder,
                    args.listing,
                    args.sheet is not None,
                    args.gate_from,
                )
            except ModelError as e:  # a folder without the game's model or gate
                ap.error(str(e))
        for result in results:
            print(prefix + result.line(label), flush=True)
            if args.sheet is not None:
                drawings += 1
                print(_write_sheet(args.sheet, drawings, len(results), args.models, result))
    return 0


def _write_sheet(
    path: Path, number: int, per_folder: int, folders: list[Path] | None, result: Result
) -> str:
    """``result``'s drawn places written to ``path`` (numbered when a sweep draws several
    sheets); what was written, as a line to print."""
    import cv2

    if per_folder > 1 or len(folders or []) > 1:
        path = path.with_name(f"{path.stem}-{number}{path.suffix}")
    if not result.spots:
        return f"  nothing missed or spurious to draw; {path} not written"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), sheet(result.spots)):
        raise SystemExit(f"--sheet: could not write {path}")
    return f"  {len(result.spots)} places drawn in {path}"


if __name__ == "__main__":
    sys.exit(main())
