"""A cheap first look at proposals: which ones the recogniser could name anything in.

A card photo gives the reader some 350 proposals, of which about 3 in 100 name a card at all
(the recogniser's ``none`` under a half); reading them all was most of a photo's time. The
gate is a network about an eighth of the recogniser's time a crop, taught by the recogniser
itself (:mod:`vision.train_gate`): it scores how likely the recogniser is to find an object
in a crop, and only crops scoring at least its threshold are read. A crop it turns away is
read as ``none``, looked at in no view. The threshold turns away about 1 in 100 of the crops
the recogniser finds any object in, nearly all of them objects it names too weakly to keep
(the reads of development tables and of the training photos were the same with and without
the gate: models/LIMITS.md).

The same holds for tiles, with a gate of their own. A gate belongs to the recogniser that
taught it: ``<models>/<kind>.gate.json`` names the model files (by content) it was taught by,
and a reader whose recogniser is another one reads every proposal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.recognise import MODELS, ModelError, model_id, model_input, session

KINDS = ("cards", "tiles")


def gate_name(kind: str) -> str:
    """The file stem of ``kind``'s gate: ``<kind>.gate``."""
    return f"{kind}.gate"


class Gate:
    """``<models>/<kind>.gate.onnx`` and its record ``<kind>.gate.json`` (threshold,
    teachers)."""

    def __init__(self, model: Path, threshold: float, teachers: list[str], kind: str) -> None:
        if not model.is_file():
            raise ModelError(f"gate model {model} is missing: run `tableref train {kind}-gate`")
        self.session = session(model, f"{kind}-gate")
        self.path = model
        self.threshold = threshold
        self.teachers = teachers

    @classmethod
    def named(cls, kind: str, models: Path = MODELS) -> Gate | None:
        """``kind``'s gate kept in ``models``, or ``None`` where the folder holds none."""
        record = models / f"{gate_name(kind)}.json"
        if not record.is_file():
            return None
        try:
            data = json.loads(record.read_text())
            threshold, teachers = float(data["threshold"]), [str(t) for t in data["teachers"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelError(
                f"gate record {record} cannot be read ({type(exc).__name__}: {exc}): restore "
                f"it from the repository or run `tableref train {kind}-gate`"
            ) from exc
        return cls(models / f"{gate_name(kind)}.onnx", threshold, teachers, kind)

    def taught(self, recogniser: Path) -> bool:
        """Whether ``recogniser`` is a model file this gate was taught by."""
        return model_id(recogniser) in self.teachers

    def scores(self, batch: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
        """How likely the recogniser is to find an object in each N × h × w × 3 uint8 crop (a
        logit; higher is likelier)."""
        if len(batch) == 0:
            return np.zeros(0, np.float32)
        out = self.session.run(None, {"crops": model_input(batch)})[0]
        return np.asarray(out, np.float32).reshape(-1)

    def worth_reading(self, batch: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """The indices of the crops to read: those scoring at least the threshold."""
        return np.nonzero(self.scores(batch) >= self.threshold)[0]
