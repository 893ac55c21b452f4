"""Demo frames as a camera would take them: vision's synthetic faces on a table surface.

The demo's layouts are in 1000 × 750 table coordinates; frames are rendered ``scale`` times
larger so tiles and card corners are as big as the recogniser expects, then read by the real
vision pipeline. Identical layouts are rendered and read once (a camera looking at an
unchanged table sees the same thing).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from host.demo.layout import HEIGHT, WIDTH, Obj
from host.table.reads import FrameRead

Reader = Callable[[Any], FrameRead]


def vision_decks() -> dict[str, str]:
    """Decks vision can render and read: the referee's deck → vision's game name."""
    try:
        from vision.reader import TableReader  # noqa: F401
        from vision.synth import render_card, render_tile  # noqa: F401
    except ImportError:
        return {}
    return {"rummikub": "rummikub", "allin": "allin"}


class Renderer:
    def __init__(self, deck: str, seed: int = 0, scale: float = 2.0) -> None:
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


class SceneReader:
    """Renders a layout and reads it with vision; remembers what it has read."""

    def __init__(self, deck: str, seed: int = 0) -> None:
        from host.camera_feed import reader_for

        self.renderer = Renderer(deck, seed)
        self.read: Reader = reader_for(deck)
        self.cache: dict[str, tuple[FrameRead, Any]] = {}
        self.reads = 0

    def __call__(self, objects: list[Obj]) -> tuple[FrameRead, Any]:
        key = json.dumps([(o["label"], o["quad"]) for o in objects])
        if key not in self.cache:
            image = self.renderer.render(objects)
            self.cache = {key: (self.read(image), image)}  # only the latest: tables move on
            self.reads += 1
        return self.cache[key]
