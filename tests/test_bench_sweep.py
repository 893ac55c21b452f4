"""Choosing a read-time constant on fresh generated tables (`python -m bench._sweep`)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bench import _sweep
from bench._sweep import SweepError, check_seeds, parse_setting, sweep, tables
from vision import glyphs
from vision import reader as reader_module

FRESH = 18_300_000  # no benchmark or training table


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("reader.CARD_MIN_CONFIDENCE", "MODULE.NAME=V1,V2"),
        ("CARD_MIN_CONFIDENCE=0.5", "MODULE.NAME=V1,V2"),
        ("nowhere.CARD_MIN_CONFIDENCE=0.5", "no module vision.nowhere"),
        ("reader.NO_SUCH_THING=0.5", "vision.reader has no constant NO_SUCH_THING"),
        ("reader.CARD_MIN_CONFIDENCE=0.5,fast", "not Python literals"),
        # joker_faces imported it by name: setting it on enroll would change nothing there.
        ("enroll.TEMPERATURE=1.0", "vision.joker_faces imported TEMPERATURE by name"),
    ],
)
def test_a_setting_that_cannot_be_swept_is_refused_by_name(text: str, names: str) -> None:
    with pytest.raises(SweepError, match=names):
        parse_setting(text)


def test_a_copy_only_training_made_does_not_stop_a_sweep_whatever_was_imported() -> None:
    # vision.train copies CARD_REFRAMES by name, but no read runs it: the answer was once
    # "refused" after another test had imported training and "allowed" when run alone.
    import vision.train  # noqa: F401

    assert "vision.train" not in _sweep.reading_modules()
    assert {"vision.joker_faces", "vision.read_fcc", "vision.card_pips"} <= _sweep.reading_modules()
    assert parse_setting("reader.CARD_REFRAMES=()").name == "CARD_REFRAMES"


def test_a_setting_names_its_module_and_values() -> None:
    s = parse_setting("reader.CARD_REFRAMES=((0.5, 1.0, 0.0),),()")
    assert s.module is reader_module and s.name == "CARD_REFRAMES"
    assert s.values == [((0.5, 1.0, 0.0),), ()]
    assert parse_setting("vision.reader.FINE_BELOW=30,40").values == [30, 40]


@pytest.mark.parametrize(
    ("game", "start", "held_out", "owner"),
    [
        ("cards", 2_000_140, False, "bench.vision's 2000000-2000149"),
        ("rummikub", 1_999_990, False, "bench.vision's"),
        ("allin", 5, False, "training renders"),
        ("fourcolor", 700_050, False, "bench.vision_extra's 700000-700099"),
        ("fourcolor", 800_099, True, "bench.vision_extra's 800000-800099"),
        ("cactus", 700_149, False, "bench.vision_extra's 700000-700149"),
    ],
)
def test_seeds_the_benchmark_or_training_used_are_refused(
    game: str, start: int, held_out: bool, owner: str
) -> None:
    with pytest.raises(SweepError, match=owner):
        check_seeds(game, start, 20, held_out)


def test_fresh_seeds_pass() -> None:
    check_seeds("cards", FRESH, 200)
    check_seeds("fourcolor", 700_100, 50)  # held-in fonts' tables end at 700 099
    check_seeds("fourcolor", 700_050, 50, held_out=True)  # held-out ones start at 800 000


def test_each_value_is_read_on_the_same_tables_and_the_constant_put_back() -> None:
    floor = reader_module.CARD_MIN_CONFIDENCE
    drawn = list(tables("cards", FRESH, 2))
    setting = parse_setting(f"reader.CARD_MIN_CONFIDENCE={floor},1.01")
    low, unreachable = sweep("cards", setting, drawn, misses=True)
    assert floor == reader_module.CARD_MIN_CONFIDENCE
    assert low.objects == unreachable.objects > 0
    assert low.right >= low.objects - 2
    # No read is surer than 1.01: every index is missed, each with its reason.
    assert unreachable.right == 0 and unreachable.spurious == 0
    assert sum(unreachable.misses.values()) == unreachable.objects
    assert set(unreachable.misses) <= {"right_below_floor", "nothing", "lost_to_overlap"}


def test_the_constant_is_put_back_when_a_value_breaks_the_reader() -> None:
    setting = parse_setting("reader.CARD_REFRAMES=7")
    before = reader_module.CARD_REFRAMES
    with pytest.raises(TypeError):
        sweep("cards", setting, list(tables("cards", FRESH, 1)))
    assert before == reader_module.CARD_REFRAMES


def test_the_command_prints_one_line_a_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        _sweep.main(
            [
                "cactus",
                "--start",
                "900000",
                "--scenes",
                "2",
                "--set",
                "reader.CARD_MIN_CONFIDENCE=0.6,0.7",
            ]
        )
        == 0
    )
    fonts, *lines = capsys.readouterr().out.splitlines()
    assert fonts == f"tables drawn with {glyphs.font_signature()}"
    assert [line.split(":")[0] for line in lines] == [
        "vision.reader.CARD_MIN_CONFIDENCE=0.6",
        "vision.reader.CARD_MIN_CONFIDENCE=0.7",
    ]
    assert all("right " in line and "spurious " in line for line in lines)


def test_the_command_refuses_benchmark_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _sweep.main(["cards", "--start", "2000000", "--set", "reader.FINE_BELOW=30"])
    assert "overlap bench.vision's" in capsys.readouterr().err


def test_real_photos_are_the_training_split_or_its_dev_fold_never_held_out() -> None:
    from vision import datasets

    dev = list(_sweep.photos("cards", "dev"))
    names = [p.path.name for p in datasets.load("cards")]
    assert len(dev) == sum(datasets.in_dev_fold(n) for n in names) > 0
    assert all(t.photo and t.image is not None for t in dev)
    with pytest.raises(SweepError, match="held-out split is never read"):
        next(_sweep.photos("cards", "test"))
    with pytest.raises(SweepError, match="Rummikub tiles and cards only, not allin"):
        next(_sweep.photos("allin", "dev"))


def test_real_photos_are_scored_against_their_labels_as_reviewed() -> None:
    from collections import Counter

    from vision import datasets, label_review

    fixes = label_review.corrections("tiles", part="training")
    dev = {f.photo for f in fixes if datasets.in_dev_fold(f.photo)}
    assert dev, "a reviewed tile photo lies in the dev fold"
    published = Counter(
        t.label
        for p in datasets.load("tiles")
        if p.split == "train" and datasets.in_dev_fold(p.path.name)
        for t in p.truths
    )
    swept = Counter(t.label for table in _sweep.photos("rummikub", "dev") for t in table.truths)
    moved = Counter(f.label for f in fixes if f.photo in dev)
    assert swept == published - Counter(f.was for f in fixes if f.photo in dev) + moved
    assert swept != published


def test_a_photo_is_scored_as_the_benchmark_scores_it() -> None:
    photo = next(_sweep.photos("rummikub", "dev"))
    setting = parse_setting("reader.TILE_LOOK_FROM=0.3")
    (result,) = sweep("rummikub", setting, [photo])
    assert result.objects == len(photo.truths) > 0
    assert result.right >= result.objects - 1


def test_generated_tables_need_a_first_seed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _sweep.main(["cards", "--set", "reader.FINE_BELOW=30"])
    assert "--start is needed" in capsys.readouterr().err


def test_models_are_compared_on_the_same_tables_without_a_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A folder holding the shipped card model, and one holding a model that reads nothing
    # (its bias says "none" for every crop): each folder gets its own line.
    import shutil

    from vision.recognise import MODELS

    same, blind = tmp_path / "same", tmp_path / "blind"
    for folder in (same, blind):
        folder.mkdir()
        for f in MODELS.glob("cards.*"):
            shutil.copy(f, folder)
    # int8 or float: whichever this CPU reads (the proposals' gate, taught by the shipped
    # model, stands in front of neither blinded one).
    for model in (blind / "cards.onnx", blind / "cards.float.onnx"):
        _blind_model(model)
    argv = ["cards", "--start", str(FRESH), "--scenes", "2"]
    assert _sweep.main([*argv, "--models", str(same), "--models", str(blind)]) == 0
    _, *lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in lines] == [str(same), str(blind)]
    counts = [tuple(int(n) for n in re.findall(r"right (\d+) / (\d+)", line)[0]) for line in lines]
    assert counts[0][0] > 0 and counts[1] == (0, counts[0][1])
    assert _sweep.main([*argv, "--set", "reader.CARD_MIN_CONFIDENCE=0.6"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.split(": right")[0] == "vision.reader.CARD_MIN_CONFIDENCE=0.6"


def test_a_models_folder_without_models_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        _sweep.main(["cards", "--start", str(FRESH), "--models", str(tmp_path)])
    assert f"--models {tmp_path}: no .onnx models there" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _sweep.main(["cards", "--start", str(FRESH)])
    assert "--set MODULE.NAME=V1,V2,... is needed unless --models" in capsys.readouterr().err


def test_a_trial_draw_is_read_with_the_gate_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from vision.reader import TableReader
    from vision.recognise import MODELS

    for f in MODELS.glob("cards.*"):
        if ".gate." not in f.name:
            shutil.copy(f, tmp_path)
    gates: list[object] = []
    made = TableReader.__init__

    def noted(self: TableReader, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)  # type: ignore[arg-type]
        gates.append(self.gate)

    monkeypatch.setattr(TableReader, "__init__", noted)
    argv = ["cards", "--start", str(FRESH), "--scenes", "1", "--models", str(tmp_path)]
    assert _sweep.main(argv) == 0
    assert _sweep.main([*argv, "--gate-from", str(MODELS)]) == 0
    assert gates[0] is None and gates[1] is not None
    with pytest.raises(SystemExit):
        _sweep.main([*argv, "--gate-from", str(tmp_path)])
    assert f"--gate-from {tmp_path}: no proposals' gate there" in capsys.readouterr().err
    # A gate of another kind only: the tiles' reader finds none of its own there.
    (cards_only := tmp_path / "cards-only").mkdir()
    for f in MODELS.glob("cards.gate.*"):
        shutil.copy(f, cards_only)
    with pytest.raises(SystemExit):
        _sweep.main(
            [
                *("rummikub", "--start", str(FRESH), "--scenes", "1"),
                *("--models", str(MODELS), "--gate-from", str(cards_only)),
            ]
        )
    assert f"no tiles.gate files in {cards_only} to read with" in capsys.readouterr().err


def _blind_model(path: Path) -> None:
    """Rewrite ``path`` so its logits say ``none`` for every crop: a model that reads nothing."""
    import json

    import onnx
    from onnx import helper, numpy_helper

    labels = json.loads((path.parent / "cards.labels.json").read_text())["labels"]
    m = onnx.load(str(path))
    out = next(o for o in m.graph.output if o.name == "logits")
    bias = [-50.0] * len(labels)
    bias[labels.index("none")] = 50.0
    m.graph.initializer.append(numpy_helper.from_array(np.array(bias, np.float32), "blind"))
    for node in m.graph.node:
        node.output[:] = ["logits_raw" if o == "logits" else o for o in node.output]
    m.graph.node.append(helper.make_node("Mul", ["logits_raw", "zero"], ["logits_zero"]))
    m.graph.node.append(helper.make_node("Add", ["logits_zero", "blind"], [out.name]))
    m.graph.initializer.append(numpy_helper.from_array(np.array(0.0, np.float32), "zero"))
    onnx.save(m, str(path))


def _moved(table: _sweep.Table) -> _sweep.Table:
    """``table`` labelled far off its edge: each index is missed with nothing proposed over
    its label, and each right read of it is spurious."""
    from dataclasses import replace
    from functools import partial

    from vision.evaluate import score
    from vision.synth import Truth

    moved = [Truth(t.label, t.quad + 5000) for t in table.truths]
    return replace(table, truths=moved, score=partial(score, truths=moved), name="moved")


def test_the_list_names_each_missed_index_and_each_spurious_read() -> None:
    table = next(tables("cards", FRESH, 1))
    drawn = [_moved(table)]
    moved = drawn[0].truths
    (result,) = sweep("cards", None, drawn, listing=True)
    assert result.right == 0 and result.spurious == len(moved) == 4
    assert result.misses == {"no_proposal": 4}  # --list implies --misses
    first, *lines = result.line("").splitlines()
    assert first.startswith("right 0 / 4, spurious 4")
    assert sorted(line for line in lines if " missed " in line) == sorted(
        f"  moved: missed {t.label} at {_sweep._at(t.quad)} (no_proposal)" for t in moved
    )
    spurious = [line.split() for line in lines if " spurious " in line]
    assert sorted(words[2] for words in spurious) == sorted(t.label for t in moved)
    assert all(words[0] == "moved:" and 0.0 < float(words[3]) <= 1.0 for words in spurious)
    # Each where a right read of the table's own index lies: within 20 pixels of its centre.
    centres = [t.quad.mean(axis=0) for t in table.truths]
    for words in spurious:
        x, y = (float(v.strip("(),")) for v in words[5:7])
        assert min(np.hypot(x - c[0], y - c[1]) for c in centres) < 20
    assert len(lines) == 8


def test_a_wrong_read_is_listed_with_what_was_read() -> None:
    from vision.reader import Found, Reading

    table = next(tables("cards", FRESH, 1))
    truth = table.truths[0]
    line = _sweep._missed_line(
        "7", truth, "wrong_label", Reading([Found("XX", 0.5, truth.quad, [])])
    )
    x, y = truth.quad.mean(axis=0)
    assert line == f"  7: missed {truth.label} at ({x:.0f}, {y:.0f}) (wrong_label), read XX 0.50"


def test_the_list_is_for_card_games_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _sweep.main(
            ["rummikub", "--start", str(FRESH), "--scenes", "1", "--models", "models", "--list"]
        )
    assert "--list is for the card games (cards, allin), not rummikub" in capsys.readouterr().err


def test_float_sweeps_read_the_float_model_files(monkeypatch: pytest.MonkeyPatch) -> None:
    # On a CPU with VNNI the reader takes the int8 files; the scenario tests read the float
    # ones, and a change can gain on one and lose on the other (models/LIMITS.md, 2026-12-06).
    from vision import recognise

    seen: list[str] = []

    def fake_sweep(game: str, setting: object, drawn: object, *rest: object) -> list[object]:
        seen.append(recognise.Recogniser.named("cards", recognise.MODELS).path.name)
        return []

    monkeypatch.setattr(recognise, "int8_saturates", lambda: False)  # a CPU with VNNI
    monkeypatch.setattr(_sweep, "sweep", fake_sweep)
    monkeypatch.setattr(_sweep, "tables", lambda *args: iter([]))
    argv = ["cards", "--start", str(FRESH), "--scenes", "1", "--models", str(recognise.MODELS)]
    _sweep.main(argv)
    _sweep.main([*argv, "--float"])
    assert seen == ["cards.onnx", "cards.float.onnx"]
    assert recognise.int8_saturates() is False  # put back after the sweep


def test_float_sweeps_refuse_a_folder_without_float_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cards.onnx").write_bytes(b"")
    with pytest.raises(SystemExit):
        _sweep.main(["cards", "--start", str(FRESH), "--models", str(tmp_path), "--float"])
    assert f"--float: no float model files (*.float.onnx) in {tmp_path}" in capsys.readouterr().err


def test_each_listed_place_is_drawn_and_the_places_tiled_into_one_sheet() -> None:
    (result,) = sweep("cards", None, [_moved(next(tables("cards", FRESH, 1)))], drawing=True)
    listed = [line for line in result.line("").splitlines()[1:]]
    assert len(result.spots) == len(listed) == 8  # 4 missed, 4 spurious
    side = 2 * _sweep.SPOT_REACH * _sweep.SPOT_ZOOM
    # A missed index far off the photo is drawn too: black, the same size as any other.
    assert all(s.shape == (side, side, 3) for s in result.spots)
    assert _sweep.sheet(result.spots).shape == (2 * side, 4 * side, 3)
    assert _sweep.sheet(result.spots[:5]).shape == (2 * side, 4 * side, 3)


def test_a_place_shows_its_labelled_box_green_and_the_read_red() -> None:
    from vision.reader import Found

    table = next(tables("cards", FRESH, 1))
    truth = table.truths[0]
    beside = truth.quad + np.array([25.0, 0.0], np.float32)
    drawn = _sweep.spot(table, [Found("7H", 0.5, beside, [])], truth.quad, "")
    b, g, r = (drawn[..., i].astype(int) for i in range(3))
    green = (g > 150) & (r < 60) & (b < 60)
    red = (r > 200) & (g < 60) & (b < 60)
    centre = 2 * _sweep.SPOT_REACH * _sweep.SPOT_ZOOM // 2
    assert green.sum() > 100 and red.sum() > 100
    # The read lies 25 px right of the box: its red outline lies that far right of the green.
    assert np.nonzero(red)[1].mean() - np.nonzero(green)[1].mean() == pytest.approx(
        25 * _sweep.SPOT_ZOOM, abs=15
    )
    assert abs(np.nonzero(green)[1].mean() - centre) < 15


def test_a_sheet_is_written_numbered_when_there_are_several(tmp_path: Path) -> None:
    from collections import Counter

    spot = np.zeros((6, 6, 3), np.uint8)
    result = _sweep.Result(0.5, 1, 2, 1, 0.1, Counter(), ["  a line"], [spot, spot])
    line = _sweep._write_sheet(tmp_path / "out.png", 2, 3, None, result)
    assert (tmp_path / "out-2.png").exists() and not (tmp_path / "out.png").exists()
    assert line == f"  2 places drawn in {tmp_path / 'out-2.png'}"
    empty = _sweep.Result(0.5, 2, 2, 0, 0.1, Counter(), [])
    line = _sweep._write_sheet(tmp_path / "none.png", 1, 1, None, empty)
    assert "nothing missed or spurious to draw" in line and not (tmp_path / "none.png").exists()


def test_a_sheet_needs_the_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        _sweep.main(["cards", "--photos", "dev", "--models", "models", "--sheet", str(tmp_path)])
    assert "--sheet draws the listed places: give --list too" in capsys.readouterr().err
