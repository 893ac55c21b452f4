"""Int8 recognisers: the trained float model quantised after training, for speed.

onnxruntime's static quantisation (QDQ: int8 weights per output channel, uint8 activations
scaled by the range each tensor reaches on calibration crops). The reader spends over half of
a card photo's time in the recogniser, and int8 convolutions run faster on the AMD EPYC
(and on a Pi's NEON cores) than float ones with reads unchanged (measured in
``models/LIMITS.md``).

The calibration crops are the proposals the reader itself makes on real training photos,
spread evenly over the training split's sorted names (its photo sources differ in light and
camera): the inputs the model meets in use, never the held-out photos the benchmark reads.
The steps are deterministic, so the same float model always gives the same int8 file, and
the float model is kept beside it (``<name>.float.onnx``) to derive it again
(``tableref quantise KIND``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import datasets
from vision.crops import crops
from vision.labels import LabelSpec
from vision.reader import ImageError, first_proposals, load_image
from vision.recognise import float_path, model_input

# The kinds shipped as int8. Four Color and Cactus have no speed target and are read by their
# own readers: left in float.
QUANTISED = ("tiles", "cards")
CALIBRATION_PHOTOS = 40


class QuantiseError(RuntimeError):
    """A model cannot be quantised (no float model, no calibration photos)."""


def calibration_photos(kind: str, photos: int = CALIBRATION_PHOTOS) -> list[datasets.Photo]:
    """``photos`` of the training split, evenly spread over its sorted names."""
    train = [p for p in datasets.load(kind) if p.split == "train"]  # type: ignore[arg-type]
    if not train:
        raise QuantiseError(f"no training photos of {kind} to calibrate on")
    at = np.linspace(0, len(train) - 1, min(photos, len(train))).round().astype(int)
    return [train[i] for i in sorted(set(at.tolist()))]


def calibration_batches(
    kind: str, spec: LabelSpec, photos: int = CALIBRATION_PHOTOS
) -> list[npt.NDArray[np.float32]]:
    """One batch a calibration photo: the crops of the reader's first proposals there (the
    card cap ranked by the score alone, see below), as the model takes them (N x 3 x h x w
    float32)."""
    batches = []
    for photo in calibration_photos(kind, photos):
        try:
            # Without the bare-ground half of the card cap (2026-12-01), as the shipped int8
            # files were calibrated: on busy photos it changes which crops come.
            image, quads = first_proposals(kind, load_image(photo.path), bare=False)
        except ImageError as exc:
            raise QuantiseError(f"calibration photo: {exc}") from exc
        batch = crops(image, quads, spec.crop)
        if len(batch):
            batches.append(model_input(batch))
    return batches


def check_float(float_model: Path) -> None:
    """Raise a :class:`QuantiseError` naming ``float_model`` when it is not a sound model."""
    import onnx
    from google.protobuf.message import DecodeError

    try:
        onnx.checker.check_model(onnx.load(str(float_model)))
    except (DecodeError, onnx.checker.ValidationError, ValueError) as exc:
        raise QuantiseError(
            f"float model {float_model} cannot be read ({type(exc).__name__}): it is damaged "
            "or not an ONNX model; train it again or restore it from the repository"
        ) from exc


def quantise(float_model: Path, out: Path, batches: list[npt.NDArray[np.float32]]) -> Path:
    """Write the int8 form of ``float_model`` to ``out``, calibrated on ``batches``."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not batches:
        raise QuantiseError("no calibration crops: the photos gave no proposals")

    class Batches(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.left: Iterator[npt.NDArray[np.float32]] = iter(batches)

        def get_next(self) -> dict[str, Any] | None:
            batch = next(self.left, None)
            return None if batch is None else {"crops": batch}

    with tempfile.TemporaryDirectory() as tmp:
        # onnxruntime's advised first step (shape inference, constant folding); the shipped
        # files were made with it, so it stays part of what a rebuild must repeat.
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(float_model), str(prepared))
        written = Path(tmp) / "int8.onnx"
        quantize_static(
            str(prepared),
            str(written),
            Batches(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            weight_type=QuantType.QInt8,
            activation_type=QuantType.QUInt8,
        )
        shutil.copyfile(written, out)
    return out


def quantise_shipped(
    model: Path, kind: str, spec: LabelSpec, photos: int = CALIBRATION_PHOTOS
) -> Path:
    """``model`` (a float model just exported) kept as ``<name>.float.onnx`` and replaced by
    its int8 form."""
    source = float_path(model)
    shutil.copyfile(model, source)  # a failed quantisation leaves the float model in use
    return quantise(source, model, calibration_batches(kind, spec, photos))


def requantise(model: Path, kind: str, spec: LabelSpec, photos: int = CALIBRATION_PHOTOS) -> Path:
    """``model``'s int8 form made again from the float model kept beside it."""
    source = float_path(model)
    if not source.is_file():
        raise QuantiseError(f"{source} is missing: run `tableref train {kind}`")
    # The kept float file may be damaged; one just exported (quantise_shipped) is not. Checked
    # before the calibration photos are read.
    check_float(source)
    return quantise(source, model, calibration_batches(kind, spec, photos))
