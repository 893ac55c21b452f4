"""A proposal added to the reader's own and read as the test says, for scenario tests of a rule
whose trigger turns on the model's last digits (which differ between CPUs and retrainings)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import reader as reader_module
from vision.crops import crops
from vision.reader import TableReader
from vision.recognise import Read


def inject_read(monkeypatch: pytest.MonkeyPatch, quad: np.ndarray, read: Read) -> None:
    """Every read of the card or tile reader from now on also proposes ``quad`` and reads it as
    ``read``; the reader's other proposals are read by the model as always. A found object
    framed by ``quad`` keeps that very array, so ``o.quad is quad`` tells it apart."""
    first_proposals = reader_module.first_proposals
    recognise = TableReader._recognise
    cropped: list[list[np.ndarray]] = []

    def proposals(
        kind: str,
        image: np.ndarray,
        ink_floor: float | None = None,
        faces: list[np.ndarray] | None = None,
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        image, quads = first_proposals(kind, image, ink_floor=ink_floor, faces=faces)
        return image, [*quads, quad]

    def crops_seen(image: np.ndarray, quads: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
        cropped.append(list(quads))
        return crops(image, quads, size)

    def injected(self: TableReader, batch: np.ndarray) -> list[Read]:
        reads = recognise(self, batch)
        return [read if q is quad else r for q, r in zip(cropped[-1], reads, strict=True)]

    monkeypatch.setattr(reader_module, "first_proposals", proposals)
    monkeypatch.setattr(reader_module, "crops", crops_seen)
    monkeypatch.setattr(TableReader, "_recognise", injected)
