"""bench._two_draws: a card recipe change judged by the two-draw rule (models/LIMITS.md)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from bench import _two_draws
from vision.recognise import MODELS

Reader = Callable[[str, Path, Path | None], tuple[int, int]]
# The thinned-ranks draws of 2026-12-07 (models/LIMITS.md), set by set and draw by draw.
THIN = {
    ("dev_fold", "dev1"): (413, 13),
    ("dev_fold", "dev2"): (414, 12),
    ("tables", "full0"): (5036, 29),
    ("tables", "full1"): (5028, 41),
    ("training_photos", "full0"): (1556, 32),
    ("training_photos", "full1"): (1559, 23),
    ("one_print_decks", "full0"): (1405, 21),
    ("one_print_decks", "full1"): (1415, 41),
}


def _draws(tmp_path: Path) -> dict[str, Path]:
    draws = {key: tmp_path / key for key in _two_draws.DRAWS}
    for key, folder in draws.items():
        folder.mkdir()
        names = ["cards.onnx"] + (["cards.gate.json"] if key == "full0" else [])
        for name in names:
            shutil.copy(MODELS / name, folder / name)
    return draws


def _reads(
    figures: dict[tuple[str, str], tuple[int, int]], draws: dict[str, Path]
) -> tuple[Reader, list[tuple[str, str, Path | None]]]:
    """A stand-in for reading the sets, giving ``figures``, and what it was asked."""
    asked: list[tuple[str, str, Path | None]] = []
    key_of = {folder: key for key, folder in draws.items()}

    def read(name: str, models: Path, gate_from: Path | None) -> tuple[int, int]:
        asked.append((name, key_of[models], gate_from))
        return figures[name, key_of[models]]

    return read, asked


def test_thinned_ranks_pass_three_sets_and_fail_the_one_print_decks(tmp_path: Path) -> None:
    draws = _draws(tmp_path)
    read, asked = _reads(THIN, draws)
    lines: list[str] = []
    verdict = _two_draws.judge(draws, MODELS, read, lines.append)
    sets = verdict["sets"]
    assert isinstance(sets, dict)
    assert {name: (s["right"], s["spurious"], s["holds"]) for name, s in sets.items()} == {
        "dev_fold": (827, 25, True),
        "tables": (10064, 70, True),
        "training_photos": (3115, 55, True),
        "one_print_decks": (2820, 62, False),
    }
    assert verdict["ships"] is False
    # The seed-0 full draw is read with its own gate, every other with the shipped one.
    assert {(key, gate) for _, key, gate in asked} == {
        ("full0", None),
        ("full1", MODELS),
        ("dev1", MODELS),
        ("dev2", MODELS),
    }
    assert len(lines) == 8 and json.loads(lines[0])["set"] == "dev_fold"


@pytest.mark.parametrize(
    ("name", "moved", "holds"),
    [
        ("dev_fold", (0, 4), True),
        ("dev_fold", (-1, 0), False),
        ("dev_fold", (0, 5), False),
        ("tables", (-20, 10), True),
        ("tables", (-21, 0), False),
        ("training_photos", (-5, 11), False),
        ("one_print_decks", (-6, 0), False),
    ],
)
def test_each_set_holds_within_its_margins_only(
    tmp_path: Path, name: str, moved: tuple[int, int], holds: bool
) -> None:
    draws = _draws(tmp_path)
    # The baseline's sums split over the two draws, one draw moved.
    figures = {}
    for set_name, bound in _two_draws.BASELINE.items():
        first, second = _two_draws.READ_BY[set_name]
        figures[set_name, first] = (bound.right // 2, bound.spurious // 2)
        figures[set_name, second] = (
            bound.right - bound.right // 2,
            bound.spurious - bound.spurious // 2,
        )
    first = _two_draws.READ_BY[name][0]
    r, s = figures[name, first]
    figures[name, first] = (r + moved[0], s + moved[1])
    read, _ = _reads(figures, draws)
    verdict = _two_draws.judge(draws, MODELS, read, lambda line: None)
    sets = verdict["sets"]
    assert isinstance(sets, dict)
    assert sets[name]["holds"] is holds and verdict["ships"] is holds


def test_a_seed_zero_draw_without_its_own_gate_is_refused_before_any_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    draws = _draws(tmp_path)
    (draws["full0"] / "cards.gate.json").unlink()
    argv = [a for key, folder in draws.items() for a in (f"--{key}", str(folder))]
    with pytest.raises(SystemExit):
        _two_draws.main(argv)
    assert f"--full0 {draws['full0']}: no gate of its own" in capsys.readouterr().err
    (draws["dev2"] / "cards.onnx").unlink()
    with pytest.raises(_two_draws.DrawError, match=f"--dev2 {draws['dev2']}: no cards.onnx"):
        _two_draws.check_draws(draws)


def test_sets_are_read_with_the_reader_the_baseline_was_read_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The baseline's draws cannot be read again: a reader change since (a joker's word on a
    # card's art dropped) would count in a change's favour unless turned off while reading.
    from bench import _sweep
    from vision import reader

    seen: list[object] = []

    def sweep(*args: object, **kwargs: object) -> list[_sweep.Result]:
        seen.append(reader.ART_WORDS)
        raise RuntimeError("read stopped")

    monkeypatch.setattr(_sweep, "sweep", sweep)
    monkeypatch.setattr(_sweep, "photos", lambda game, which: iter(()))
    assert reader.ART_WORDS is True
    with pytest.raises(RuntimeError, match="read stopped"):
        _two_draws.read_set("dev_fold", MODELS, None)
    assert seen == [_two_draws.BASELINE_READER["ART_WORDS"]] == [False]
    assert reader.ART_WORDS is True  # restored, even though the read failed
