"""Demo frames as a camera would take them: vision's synthetic faces on a table surface.

The demo's layouts are in 1000 × 750 table coordinates; frames are rendered ``scale`` times
larger so tiles and card corners are as big as the recogniser expects, then read by the real
vision pipeline. Identical layouts are rendered and read once (a camera looking at an
unchanged table sees the same thing).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

from host.camera_feed import VisionGame
from host.demo.layout import HEIGHT, WIDTH, Obj
from host.table.reads import FrameRead

Reader = Callable[[Any], FrameRead]


def vision_decks() -> dict[str, VisionGame]:
    """Decks vision can render and read here: the referee's deck → vision's game name."""
    try:
        from vision.reader import TableReader  # noqa: F401
        from vision.recognise import MODELS
        from vision.synth import render_card, render_tile  # noqa: F401
    except ImportError:
        return {}
    shipped: dict[VisionGame, str] = {"rummikub": "tiles", "allin": "cards"}
    return {deck: deck for deck, model in shipped.items() if (MODELS / f"{model}.onnx").is_file()}


class Renderer:
    def __init__(self, deck: str, seed: int = 0, scale: float = 1.0) -> None:
        from vision.synth import render_surface

        self.deck = deck
        self.game = vision_decks()[deck]
        self.scale = scale
        self.rng = np.random.default_rng(seed)
        w, h = round(WIDTH * scale), round(HEIGHT * scale)
        self.surface = render_surface("wood", w, h, self.rng)
        self.faces: dict[str, Any] = {}

    def face(self, label: str) -> Any:
        if label not in self.faces:
            from vision.synth import render_card, render_tile

            if self.game == "rummikub":
                self.faces[label] = render_tile(label, self.rng, 96)
            else:
                self.faces[label] = render_card(label, self.game, self.rng, 200)[0]
        return self.faces[label]

    def render(self, objects: list[Obj]) -> Any:
        image = self.surface.copy()
        for obj in objects:
            face = self.face(obj["label"])
            fh, fw = face.shape[:2]
            src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
            dst = np.array(obj["quad"], np.float32) * self.scale
            m = cv2.getPerspectiveTransform(src, dst)
            size = (image.shape[1], image.shape[0])
            warped = cv2.warpPerspective(face, m, size)
            mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), m, size)
            image[mask > 0] = warped[mask > 0]
        return image


@dataclass
class ReadStats:
    """How vision did on the demo's frames (each distinct layout counted once)."""

    objects: int = 0
    right: int = 0
    confirmed: int = 0  # read right but unsure (flagged): confirmed as a person would
    relabelled: int = 0  # read as something else: corrected as a person would
    missed: int = 0  # not found: entered as a person would
    spurious: int = 0  # found where nothing lies: removed

    def to_json(self) -> dict[str, Any]:
        share = round(self.right / self.objects, 4) if self.objects else None
        return {**asdict(self), "right_share": share}


class SceneReader:
    """Renders a layout, reads it with vision, and fixes what vision got wrong.

    The fixes stand for the person at the dashboard (a correction for a misread, an entry for
    a missed object); :attr:`stats` counts them, so the demo reports vision's own accuracy.
    """

    def __init__(self, deck: str, seed: int = 0, min_confidence: float = 0.6) -> None:
        from host.camera_feed import reader_for

        self.min_confidence = min_confidence
        self.renderer = Renderer(deck, seed)
        self.read: Reader = reader_for(deck)
        self.cache: dict[str, tuple[FrameRead, Any]] = {}
        self.stats = ReadStats()

    def __call__(self, objects: list[Obj]) -> tuple[FrameRead, Any]:
        key = json.dumps([(o["label"], o["quad"]) for o in objects])
        if key not in self.cache:
            image = self.renderer.render(objects)
            self.cache = {key: (self._fixed(self.read(image), objects), image)}
        return self.cache[key]

    def _fixed(self, read: FrameRead, truth: list[Obj]) -> FrameRead:
        scale = self.renderer.scale
        found = list(read.objects)
        used: set[int] = set()
        out: list[dict[str, Any]] = []
        for obj in truth:
            cx = sum(p[0] for p in obj["quad"]) / 4 * scale
            cy = sum(p[1] for p in obj["quad"]) / 4 * scale
            size = max(abs(obj["quad"][2][0] - obj["quad"][0][0]), 1.0) * scale
            best = min(
                (i for i in range(len(found)) if i not in used),
                key=lambda i: math.dist(found[i].center, (cx, cy)),
                default=None,
            )
            self.stats.objects += 1
            quad = [[x * scale, y * scale] for x, y in obj["quad"]]
            if best is not None and math.dist(found[best].center, (cx, cy)) <= size:
                used.add(best)
                # vision's label and confidence; the layout's outline, so the demo's sets are
                # grouped as laid (vision's localisation is measured by bench/vision.py)
                seen = {**found[best].model_dump(), "quad": quad}
                if seen["label"] == obj["label"]:
                    self.stats.right += 1
                    if seen["confidence"] < self.min_confidence:
                        self.stats.confirmed += 1
                        seen["confidence"] = 1.0
                else:
                    self.stats.relabelled += 1
                    seen = {**seen, "label": obj["label"], "confidence": 1.0}
                out.append(seen)
            else:
                self.stats.missed += 1
                out.append({**obj, "quad": quad})
        self.stats.spurious += len(found) - len(used)
        return FrameRead.model_validate(
            {"objects": out, "width": read.width, "height": read.height}
        )
