"""A model file that is missing, damaged or mismatched is named in a clear error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vision.reader import TableReader
from vision.recognise import MODELS, ModelError, Recogniser


def _models(tmp_path: Path) -> Path:
    for f in MODELS.glob("*.labels.json"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"cards\.onnx is missing: run `tableref train cards`"):
        TableReader("cards", models=_models(tmp_path))


@pytest.mark.parametrize("damage", ["truncated", "not a model"])
def test_a_damaged_model_file_is_named_not_left_to_onnxruntime(damage: str, tmp_path: Path) -> None:
    models = _models(tmp_path)
    model = models / "cards.onnx"
    whole = (MODELS / "cards.onnx").read_bytes()
    model.write_bytes(whole[:5000] if damage == "truncated" else b"<html>404</html>")
    with pytest.raises(ModelError) as err:
        TableReader("allin", models=models)
    message = str(err.value)
    assert str(model) in message and "damaged or not an ONNX model" in message
    assert "tableref train cards" in message


def test_a_model_that_does_not_fit_its_label_file_is_refused(tmp_path: Path) -> None:
    models = _models(tmp_path)
    shutil.copy(MODELS / "tiles.onnx", models / "cards.onnx")  # 57 outputs, 107 card labels
    with pytest.raises(ModelError, match=r"gives \d+ outputs, its label file \d+"):
        Recogniser.named("cards", models)


@pytest.mark.parametrize("text", ["{not json", '{"name": "cards"}'])
def test_a_damaged_label_file_is_named(text: str, tmp_path: Path) -> None:
    models = _models(tmp_path)
    shutil.copy(MODELS / "cards.onnx", models / "cards.onnx")
    (models / "cards.labels.json").write_text(text)
    with pytest.raises(ModelError, match=r"label file .*cards\.labels\.json cannot be read"):
        Recogniser.named("cards", models)


def test_a_damaged_pip_model_is_named(tmp_path: Path) -> None:
    models = _models(tmp_path)
    for f in MODELS.glob("cards.*"):
        shutil.copy(f, models / f.name)
    (models / "pips.onnx").write_bytes(b"<html>404</html>")
    with pytest.raises(ModelError) as err:
        TableReader("cards", models=models)
    assert str(models / "pips.onnx") in str(err.value)
    assert "tableref train pips" in str(err.value)
    TableReader("allin", models=models)  # the All In deck reads no pips
