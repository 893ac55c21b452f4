"""Demo frames as a camera would take them, read by the real vision pipeline.

A layout (host/demo/layout.py, 1000 × 750 like vision's training scenes) is composed the way
vision's own scenes are (vision/synth.py): the faces vision's renderers draw for the deck (for
Four Color and Cactus cards one deck style per game, as one box is used all night; tiles and
playing cards vary face by face as in vision's scenes; each label keeps its face all game),
warped onto their places with a drop shadow on a table surface, then one room light, lens
blur, sensor noise and JPEG compression (the same each frame: the camera and the room do not
change during a game). A
hand over the table is painted as vision/synth_sequence.py paints one, and the camera's frame
gate (vision.stability.FrameGate) decides which frames to skip, not the script. A steady frame
step stands for a still moment of the table: the gate watches that image until it accepts it.

:class:`SceneReader` then stands in for the person at the dashboard: it compares vision's read
with the layout and fixes what vision got wrong (a correction for a misread, an entry for a
missed object, removal of something read where nothing lies), counting each in
:class:`ReadStats`, so the demo reports what vision read by itself. Identical layouts are
rendered and read once (a camera looking at an unchanged table sees the same thing).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import import_module
from typing import Any

import cv2
import numpy as np

from host.camera_feed import VISION_GAMES, reader_for, vision_reads
from host.demo.layout import HEIGHT, WIDTH, Obj
from host.table.reads import FrameRead

Reader = Callable[[Any], FrameRead]

# The room: lights a game night has (vision's scenes also draw dim light and glare spots).
LIGHTS = ("even", "warm", "bright", "gradient")
SURFACES = ("wood", "white", "marble", "cloth")  # vision/synth.py's tables for tiles and cards
FCC_SURFACES = ("wood", "felt", "plain")  # vision/synth_table.py's, for Four Color and Cactus
# Vision's renderer of each deck's faces (vision/synth_<deck>.py) where it has its own.
FACE_MODULES = {"fourcolor": "vision.synth_fourcolor", "cactus": "vision.synth_cactus"}


def vision_decks() -> dict[str, str]:
    """Decks vision can render and read here: the referee's deck → vision's game name.

    A deck counts once vision reads it (host.camera_feed.vision_reads: its model file is
    shipped and vision's TableReader takes the game) and vision can draw its faces."""
    out: dict[str, str] = {}
    for deck in vision_reads():
        try:
            import_module(FACE_MODULES.get(deck, "vision.synth"))
        except ImportError:
            continue
        out[deck] = VISION_GAMES[deck]
    return out


class Renderer:
    """Renders layouts of one deck on one table, in one room, through one camera."""

    def __init__(self, deck: str, seed: int = 0) -> None:
        from vision.synth import render_surface

        if deck not in VISION_GAMES:
            raise ValueError(f"vision draws no {deck} deck")
        self.deck = deck
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        if deck in FACE_MODULES:
            from vision.synth_table import table_texture

            kind = FCC_SURFACES[seed % len(FCC_SURFACES)]
            self.surface = table_texture(self.rng, HEIGHT, WIDTH, kind)
        else:
            self.surface = render_surface(SURFACES[seed % len(SURFACES)], WIDTH, HEIGHT, self.rng)
        self.light = LIGHTS[seed % len(LIGHTS)]
        self.style: Any = None
        if deck in FACE_MODULES:
            self.style = import_module(FACE_MODULES[deck]).random_style(self.rng)
        self.faces: dict[str, Any] = {}

    def face(self, label: str) -> Any:
        """One face per label: the same card looks the same every time it is seen."""
        if label not in self.faces:
            if self.deck in FACE_MODULES:
                face = import_module(FACE_MODULES[self.deck]).render_card(label, self.style, 260)
            elif self.deck == "rummikub":
                from vision.synth import render_tile

                face = render_tile(label, self.rng, 96)
            else:
                from vision.synth import render_card

                face = render_card(label, VISION_GAMES[self.deck], self.rng, 240)[0]  # type: ignore[arg-type]
            self.faces[label] = face
        return self.faces[label]

    def render(self, objects: list[Obj], hand: bool = False) -> Any:
        """The camera's frame of these objects (later ones lie on earlier ones)."""
        from vision.synth import _finish, _place  # vision's own scene composition

        image = self.surface.copy()
        for obj in objects:
            _place(image, self.face(obj["label"]), np.array(obj["quad"], np.float32), 0.3)
        if hand:
            self._hand(image, objects)
        # the same room light, blur, noise and JPEG quality for every frame of the game
        _finish(image, np.random.default_rng(self.seed), self.light)
        return image

    def _hand(self, image: Any, objects: list[Obj]) -> None:
        from vision.synth_sequence import SKIN_TONES_BGR, _hand_mask, _paint_hand

        rng = np.random.default_rng(self.seed + len(objects))
        if objects:  # the hand is over what it just laid
            last = np.array(objects[-1]["quad"], np.float64).mean(axis=0)
            palm = (float(last[0]), float(last[1]))
        else:
            palm = (WIDTH / 2, HEIGHT / 2)
        mask = _hand_mask((HEIGHT, WIDTH), palm, 1.6)
        shade = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 8)
        tone = SKIN_TONES_BGR[self.seed % len(SKIN_TONES_BGR)]
        _paint_hand(image, mask, tone, np.asarray(shade, np.float32))


@dataclass
class ReadStats:
    """How vision did on the demo's frames (each distinct layout counted once)."""

    objects: int = 0
    right: int = 0
    confirmed: int = 0  # read right but unsure (flagged): confirmed as a person would
    relabelled: int = 0  # read as something else: corrected as a person would
    missed: int = 0  # not found: entered as a person would
    spurious: int = 0  # found where nothing lies: removed
    hand_frames: int = 0  # frames with a hand over the table
    hand_passed: int = 0  # of those, frames the camera's gate did not skip

    def to_json(self) -> dict[str, Any]:
        share = round(self.right / self.objects, 4) if self.objects else None
        return {**asdict(self), "right_share": share}

    @property
    def corrections(self) -> int:
        """A person's interventions: confirmations, corrections, entries and removals."""
        return self.confirmed + self.relabelled + self.missed + self.spurious


class SceneReader:
    """Renders each frame of a table script, gates and reads it with vision, and fixes what
    vision got wrong as a person would (counted in :attr:`stats`)."""

    def __init__(self, deck: str, seed: int = 0, min_confidence: float = 0.6) -> None:
        from vision.stability import FrameGate

        self.min_confidence = min_confidence
        self.renderer = Renderer(deck, seed)
        self.read: Reader = reader_for(deck)
        self.gate = FrameGate()
        self.images: dict[str, Any] = {}
        self.reads: dict[str, FrameRead] = {}
        self.stats = ReadStats()

    def __call__(self, frame: dict[str, Any]) -> tuple[FrameRead, Any]:
        objects: list[Obj] = frame.get("objects", [])
        hand = bool(frame.get("hand"))
        key = json.dumps([hand, [(o["label"], o["quad"]) for o in objects]])
        if key not in self.images:
            self.images = {key: self.renderer.render(objects, hand), **self.images}
            self.images = dict(list(self.images.items())[:2])  # the hand frame and the table
        image = self.images[key]
        # A hand passing is one camera frame; a steady step stands for a still moment of the
        # table, the camera's many frames of it (at 15 fps, a second is 15), which the gate
        # watches until it accepts one (after motion, or a skin-coloured table's settling).
        for _ in range(1 if hand else self.gate.config.settle_frames + 1):
            verdict = self.gate.check(image)
            if verdict.usable:
                break
        if hand:
            self.stats.hand_frames += 1
            self.stats.hand_passed += verdict.usable
        if not verdict.usable:  # a hand or motion: the frame says nothing reliable
            return FrameRead(hand=True, width=WIDTH, height=HEIGHT), image
        if hand:  # the gate let a hand through: the referee gets vision's read as it is
            return self.read(image), image
        if key not in self.reads:
            self.reads = {key: self._fixed(self.read(image), objects)}
        return self.reads[key], image

    def _fixed(self, read: FrameRead, truth: list[Obj]) -> FrameRead:
        """Vision's labels, with a person's fixes; each object at its place in the layout
        (vision's localisation is measured by bench/vision.py)."""
        found = list(read.objects)
        used: set[int] = set()
        inside = [
            [i for i, f in enumerate(found) if _inside(obj["quad"], f.center)] for obj in truth
        ]
        seen: list[dict[str, Any] | None] = [None] * len(truth)
        # First the objects vision named right (cards overlap: a corner lies on two cards)...
        for k, obj in enumerate(truth):
            same = [i for i in inside[k] if i not in used and found[i].label == obj["label"]]
            if same:
                best = max(same, key=lambda i: found[i].confidence)
                used.add(best)
                seen[k] = {**found[best].model_dump(), "quad": obj["quad"]}
                self.stats.right += 1
                if found[best].confidence < self.min_confidence:
                    self.stats.confirmed += 1
                    seen[k] = {**found[best].model_dump(), "quad": obj["quad"], "confidence": 1.0}
        # ...then misreads of what is left, then what vision did not find at all.
        for k, obj in enumerate(truth):
            if seen[k] is not None:
                continue
            other = [i for i in inside[k] if i not in used]
            if other:
                used.add(other[0])
                self.stats.relabelled += 1
                seen[k] = {**found[other[0]].model_dump(), "label": obj["label"],
                           "confidence": 1.0, "quad": obj["quad"]}  # fmt: skip
            else:
                self.stats.missed += 1
                seen[k] = dict(obj)
        self.stats.objects += len(truth)
        self.stats.spurious += len(found) - len(used)
        return FrameRead.model_validate(
            {"objects": seen, "width": read.width, "height": read.height}
        )


def _inside(quad: list[list[float]], point: tuple[float, float]) -> bool:
    contour = np.array(quad, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0
