"""One image in, the objects on the table out: detect → crop → recognise → resolve overlaps.

:class:`TableReader` is what the CLI, the benchmark and later the live referee use. It keeps
its ONNX sessions warm (one inference at start-up) and times each stage of every read.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision import detect
from vision.crops import crops
from vision.grouping import group_sets
from vision.labels import NONE
from vision.recognise import LOW_CONFIDENCE, MODELS, Recogniser

Game = Literal["rummikub", "cards", "allin"]
GAMES: tuple[Game, ...] = ("rummikub", "cards", "allin")
Image = npt.NDArray[Any]


class ImageError(ValueError):
    """A file that is missing or is not a readable image."""


@dataclass(frozen=True)
class Found:
    label: str
    confidence: float
    quad: npt.NDArray[np.float32]
    alternatives: list[tuple[str, float]]

    def to_json(self) -> dict[str, Any]:
        alts = self.alternatives if self.confidence < LOW_CONFIDENCE else []
        return {
            "label": self.label,
            "confidence": round(self.confidence, 4),
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
            "alternatives": [{"label": a, "confidence": round(c, 4)} for a, c in alts],
        }


@dataclass
class Reading:
    objects: list[Found]
    sets: list[list[str]] | None = None
    timings: dict[str, float] = field(default_factory=dict)  # milliseconds per stage

    def to_json(self, image: str) -> dict[str, Any]:
        out: dict[str, Any] = {"image": image, "objects": [o.to_json() for o in self.objects]}
        if self.sets is not None:
            out["sets"] = [" ".join(s) for s in self.sets]
        return out


def load_image(path: Path) -> Image:
    """Decode an image file; :class:`ImageError` names the file when it cannot."""
    if not path.exists():
        raise ImageError(f"image {path} does not exist")
    if not path.is_file():
        raise ImageError(f"{path} is not a file")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"{path} is not a readable image")
    return image


class TableReader:
    """Reads one game's objects; the recogniser is chosen by the game."""

    def __init__(self, game: Game, models: Path = MODELS, min_confidence: float = 0.5) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
        self.game = game
        self.kind = "tiles" if game == "rummikub" else "cards"
        self.deck = "rummikub" if game == "rummikub" else game
        self.recogniser = Recogniser.named(self.kind, models)
        self.min_confidence = min_confidence
        w, h = self.recogniser.spec.crop
        # Warm-up: the first inference and OpenCV's first colour conversions are slow.
        self.recogniser.run(np.zeros((1, h, w, 3), np.uint8))
        detect.tile_candidates(np.full((64, 64, 3), 128, np.uint8))

    def read(self, image: Image) -> Reading:
        t0 = time.perf_counter()
        if self.kind == "tiles":
            quads = detect.tile_candidates(image)
        else:
            quads = detect.card_candidates(image)
        t1 = time.perf_counter()
        batch = crops(image, quads, self.recogniser.spec.crop)
        t2 = time.perf_counter()
        # Cards: both views of each index (a 6 over its suit is a 9 under it); measured on
        # the training photos and fresh synthetic scenes it reads more right, fewer spurious.
        reads = self.recogniser.classify(batch, self.deck, half_turn=self.kind == "cards")
        t3 = time.perf_counter()
        keep = [
            i
            for i, r in enumerate(reads)
            if r.label != NONE and r.confidence >= self.min_confidence
        ]
        chosen = detect.suppress([quads[i] for i in keep], [reads[i].confidence for i in keep])
        objects = [
            Found(
                reads[keep[j]].label,
                reads[keep[j]].confidence,
                quads[keep[j]],
                reads[keep[j]].alternatives,
            )
            for j in chosen
        ]
        objects.sort(key=lambda o: (float(o.quad[:, 1].mean()), float(o.quad[:, 0].mean())))
        t4 = time.perf_counter()
        sets = group_sets(objects) if self.kind == "tiles" else None
        t5 = time.perf_counter()
        ms = {
            "detect": t1 - t0,
            "crop": t2 - t1,
            "recognise": t3 - t2,
            "resolve": t4 - t3,
            "group": t5 - t4,
        }
        timings = {k: round(v * 1000, 2) for k, v in ms.items()}
        timings["candidates"] = float(len(quads))
        return Reading(objects, sets, timings)
