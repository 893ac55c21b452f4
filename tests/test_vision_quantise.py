"""Int8 recognisers (vision.quantise): made by training, reproducible, reading as the float."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest

from tests.cli_helpers import run, tableref
from vision import datasets, detect_cards, quantise
from vision.crops import crops
from vision.labels import LabelSpec
from vision.reader import exposed
from vision.recognise import MODELS, Recogniser, float_path, load_spec


def _initialisers(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}


def _ops(model: Path) -> set[str]:
    return {n.op_type for n in onnx.load(str(model)).graph.node}


@pytest.mark.parametrize("kind", quantise.QUANTISED)
def test_the_shipped_int8_model_is_its_float_model_quantised(kind: str, tmp_path: Path) -> None:
    # The shipped file is exactly what `tableref quantise` (and so `tableref train`) makes
    # from the float model kept beside it: nobody has to take the int8 file on trust.
    for name in (f"{kind}.float.onnx", f"{kind}.labels.json"):
        shutil.copy(MODELS / name, tmp_path / name)
    model = tmp_path / f"{kind}.onnx"
    quantise.requantise(model, kind, LabelSpec.load(tmp_path / f"{kind}.labels.json"))
    made, shipped = onnx.load(str(model)), onnx.load(str(MODELS / f"{kind}.onnx"))
    assert [(n.op_type, list(n.input)) for n in made.graph.node] == [
        (n.op_type, list(n.input)) for n in shipped.graph.node
    ]
    # Calibration runs the float model, whose last bit differs between CPUs (AVX-512 or
    # AVX2 kernels): an activation scale may move by an ulp, so scales are compared to
    # float32 precision; the int8 weights and everything else must match exactly.
    ours, theirs = _initialisers(made), _initialisers(shipped)
    assert ours.keys() == theirs.keys()
    for name, value in theirs.items():
        if name.endswith("_scale") and value.dtype == np.float32:
            np.testing.assert_allclose(ours[name], value, rtol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(ours[name], value, err_msg=name)
    assert "QuantizeLinear" in _ops(model) and "QuantizeLinear" not in _ops(float_path(model))


@pytest.mark.slow
def test_the_int8_card_model_names_held_out_proposals_as_the_float_one_does() -> None:
    # Calibrated on training photos only. On held-out ones the two models name nearly every
    # proposal alike (here 32 of 8 890 crops differ; 161 of 38 419 over the whole held-out
    # split), and where they differ the float model was unsure too (at most 0.47 here).
    photos = [p for p in datasets.load("cards") if p.split == "test"][::6]
    spec = load_spec("cards")
    int8 = Recogniser(MODELS / "cards.onnx", spec)  # named() reads the float one on some CPUs
    floats = Recogniser(float_path(int8.path), spec)
    agree = total = 0
    for photo in photos:
        image = exposed(cv2.imread(str(photo.path), cv2.IMREAD_COLOR))
        batch = crops(image, detect_cards.card_candidates(image), spec.crop)
        a, b = int8.run(batch)[0], floats.run(batch)[0]
        same = a.argmax(1) == b.argmax(1)
        agree += int(same.sum())
        total += len(batch)
        p = np.exp(b - b.max(1, keepdims=True))
        assert (p.max(1) / p.sum(1))[~same].max(initial=0.0) < 0.6
    assert total > 8000
    assert agree / total >= 0.99


def test_a_failed_quantisation_leaves_the_float_model_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("tiles.float.onnx", "tiles.labels.json"):
        shutil.copy(MODELS / name, tmp_path / name)
    model = tmp_path / "tiles.onnx"
    shutil.copy(tmp_path / "tiles.float.onnx", model)
    spec = LabelSpec.load(tmp_path / "tiles.labels.json")
    monkeypatch.setattr(quantise, "calibration_batches", lambda *a: [])
    with pytest.raises(quantise.QuantiseError, match="no calibration crops"):
        quantise.quantise_shipped(model, "tiles", spec)
    assert model.read_bytes() == (tmp_path / "tiles.float.onnx").read_bytes()
    Recogniser(model, spec)


def test_calibration_photos_are_spread_over_the_training_split() -> None:
    train_split = [p.path.name for p in datasets.load("cards") if p.split == "train"]
    chosen = [p.path.name for p in quantise.calibration_photos("cards", 5)]
    assert len(chosen) == 5 and chosen[0] == train_split[0] and chosen[-1] == train_split[-1]
    assert all(datasets.split_of(name) == "train" for name in chosen)


def test_quantise_without_a_float_model_names_the_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(MODELS / "cards.labels.json", tmp_path / "cards.labels.json")
    result = tableref(capsys, monkeypatch, "quantise", "cards", "--models", str(tmp_path))
    assert result.code == 2
    assert "cards.float.onnx is missing" in result.err
    assert "tableref train cards" in result.err
    assert not (tmp_path / "cards.onnx").exists()


def test_quantise_takes_only_the_int8_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "quantise", "fourcolor")
    assert code == 2 and "fourcolor" in err


def test_training_without_calibration_photos_stops_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Even with --no-real the int8 step needs the training photos: a missing dataset is
    # named at once, not after the minutes of rendering and fitting, and nothing is written.
    monkeypatch.setenv("TABLEREF_DATASETS", str(tmp_path / "nowhere"))
    out = tmp_path / "models"
    args = ("train", "tiles", "--no-real", "--scenes", "1", "--epochs", "1", "--out", str(out))
    result = tableref(capsys, monkeypatch, *args)
    assert result.code == 2
    assert "nowhere/rummikub-photos is missing" in result.err
    assert not out.exists()


def test_a_damaged_float_model_is_named_and_the_int8_one_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(MODELS / "tiles.labels.json", tmp_path / "tiles.labels.json")
    shutil.copy(MODELS / "tiles.onnx", tmp_path / "tiles.onnx")
    (tmp_path / "tiles.float.onnx").write_bytes((MODELS / "tiles.float.onnx").read_bytes()[:9000])
    result = tableref(capsys, monkeypatch, "quantise", "tiles", "--models", str(tmp_path))
    assert result.code == 2
    assert "tiles.float.onnx cannot be read" in result.err and "damaged" in result.err
    assert (tmp_path / "tiles.onnx").read_bytes() == (MODELS / "tiles.onnx").read_bytes()


def test_quantise_with_a_damaged_label_file_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copy(MODELS / "cards.float.onnx", tmp_path / "cards.float.onnx")
    (tmp_path / "cards.labels.json").write_text("{not json")
    result = tableref(capsys, monkeypatch, "quantise", "cards", "--models", str(tmp_path))
    assert result.code == 2 and "cards.labels.json cannot be read" in result.err


@pytest.mark.parametrize(
    ("machine", "flags", "expected"),
    [
        ("x86_64", {"avx2", "fma"}, "tiles.float.onnx"),  # u8 x s8 pairs saturate in int16
        ("x86_64", {"avx2", "avx512_vnni"}, "tiles.onnx"),
        ("x86_64", {"avx2", "avx_vnni"}, "tiles.onnx"),
        ("aarch64", {"asimd"}, "tiles.onnx"),  # a Raspberry Pi: exact int8 sums
    ],
)
def test_the_int8_model_is_read_only_where_its_sums_are_exact(
    monkeypatch: pytest.MonkeyPatch, machine: str, flags: set[str], expected: str
) -> None:
    from vision import recognise

    monkeypatch.setattr(recognise.platform, "machine", lambda: machine)
    monkeypatch.setattr(recognise, "cpu_flags", lambda: frozenset(flags))
    assert Recogniser.named("tiles").path.name == expected


def test_without_its_float_model_the_int8_model_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from vision import recognise

    monkeypatch.setattr(recognise, "int8_saturates", lambda: True)
    for name in ("tiles.onnx", "tiles.labels.json"):
        shutil.copy(recognise.MODELS / name, tmp_path / name)
    assert Recogniser.named("tiles", tmp_path).path == tmp_path / "tiles.onnx"
