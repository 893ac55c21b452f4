"""Frames from a camera (or a replayed video/folder) through vision into the table.

The loop is deliberately dumb: read a frame, let vision turn it into a
:class:`host.table.reads.FrameRead`, hand both to the table. Stability, flags and events are
the referee's business.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from host.cli.common import InputError
from host.referee import Table
from host.table.reads import FrameRead

Reader = Callable[[Any], FrameRead]
log = logging.getLogger(__name__)

# The referee's deck -> the name vision reads it under (vision.reader.Game).
VisionGame = Literal["rummikub", "cards", "allin", "fourcolor", "cactus"]
VISION_GAMES: dict[str, VisionGame] = {
    "rummikub": "rummikub",
    "allin": "allin",
    "standard": "cards",
    "fourcolor": "fourcolor",
    "cactus": "cactus",
}
# The recogniser (models/<name>.onnx) each deck's reads need.
VISION_MODELS = {
    "rummikub": "tiles",
    "allin": "cards",
    "standard": "cards",
    "fourcolor": "fourcolor",
    "cactus": "cactus",
}
# Decks whose recogniser reads a card's corner index: each corner in sight is one read.
CORNER_DECKS = ("allin", "standard")


def vision_reads() -> list[str]:
    """The decks vision reads here: its TableReader takes the game and the model is shipped."""
    try:
        from vision.reader import GAMES
        from vision.recognise import MODELS
    except ImportError:
        return []
    return [
        deck
        for deck, game in VISION_GAMES.items()
        if game in GAMES and (MODELS / f"{VISION_MODELS[deck]}.onnx").is_file()
    ]


def reader_for(deck: str, enrolled: str | None = None, data_dir: Path | None = None) -> Reader:
    """Vision's table reader for a deck, wrapped to give the referee's FrameRead; with
    ``enrolled``, it reads with that enrolled deck profile where one exists for the game."""
    readable = vision_reads()
    if deck not in readable:
        raise InputError(
            f"vision does not read the {deck} deck yet (it reads: {', '.join(readable)}); "
            "play this game with entries on the dashboard"
        )
    try:
        from vision.reader import TableReader
    except ImportError as exc:
        raise InputError(f"the vision pipeline is not available here ({exc})") from None
    reader = TableReader(VISION_GAMES[deck])
    if enrolled is not None:
        _use_enrolled(reader, enrolled, data_dir)

    def read(image: Any) -> FrameRead:
        reading = reader.read(image)
        height, width = image.shape[:2]
        objects = [o.to_json() for o in reading.objects]
        if deck in CORNER_DECKS:
            objects = merge_corners(objects)
        return FrameRead.model_validate(
            {
                "objects": objects,
                "sets": [list(s) for s in reading.sets] if reading.sets is not None else None,
                "width": width,
                "height": height,
            }
        )

    return read


def _use_enrolled(reader: Any, name: str, data_dir: Path | None) -> None:
    """Read with the table's enrolled deck; a game it was not enrolled for (or a profile made
    by an older model) is read by the model alone, and the log says why."""
    from vision.enroll import EnrolError

    try:
        reader.use_deck(name, data_dir)
    except EnrolError as exc:
        log.warning("reading %s without an enrolled deck: %s", reader.game, exc)


def merge_corners(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One object per card where vision read both of its corner indices.

    A card lying open shows its index at two opposite corners, and a deck holds each card
    once, so two reads of one label no farther apart than a card's diagonal (about five index
    heights) are the same card: they become one object spanning both corners, its centre the
    card's centre. (Two reads farther apart stay two objects, and the box check flags them.)
    """
    out: list[dict[str, Any]] = []
    taken: set[int] = set()
    for i, a in enumerate(objects):
        if i in taken:
            continue
        qa = np.array(a["quad"], np.float32)
        for j in range(i + 1, len(objects)):
            b = objects[j]
            if j in taken or b["label"] != a["label"]:
                continue
            qb = np.array(b["quad"], np.float32)
            size = max(_long_side(qa), _long_side(qb))
            if float(np.linalg.norm(qa.mean(0) - qb.mean(0))) <= 5.0 * size:
                taken.add(j)
                box = cv2.boxPoints(cv2.minAreaRect(np.vstack([qa, qb])))
                best = a if a["confidence"] >= b["confidence"] else b
                a = {**best, "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in box]}
                break
        out.append(a)
    return out


def _long_side(quad: Any) -> float:
    return float(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))


class CameraFeed:
    """Feeds the active game; the reader follows the game's deck (made once per deck)."""

    def __init__(
        self, frames: Iterable[Any], table: Table, readers: Callable[[str], Reader] = reader_for
    ) -> None:
        self.frames = frames
        self.table = table
        self.make_reader = readers
        self.readers: dict[str, Reader] = {}
        self.stop = threading.Event()
        self.count = 0
        self.skipped = 0  # frames the gate skipped (a hand over the table, motion)
        self.read_ms: list[float] = []

    @classmethod
    def open(
        cls, spec: str, table: Table, enrolled: str | None = None, data_dir: Path | None = None
    ) -> CameraFeed:
        """A feed from a camera index, video file or image folder, read by the vision pipeline
        (with the ``enrolled`` deck profile where the game has one)."""
        try:
            from vision.camera import frames
        except ImportError as exc:
            raise InputError(f"the vision pipeline is not available here ({exc})") from None
        return cls(
            (frame.image for frame in frames(spec)),
            table,
            lambda deck: reader_for(deck, enrolled, data_dir),
        )

    def run(self) -> None:
        from vision.stability import FrameGate

        gate = FrameGate()  # frames with a hand over the table or motion say nothing reliable
        for index, image in enumerate(self.frames):
            if self.stop.is_set():
                break
            if self.table.active is None:
                continue  # no game yet: nothing to referee
            deck = self.table.referee().adapter.deck
            if deck not in self.readers:
                self.readers[deck] = self.make_reader(deck)
            started = time.perf_counter()
            if not gate.check(image).usable:
                self.skipped += 1
                height, width = image.shape[:2]
                self.table.feed(
                    FrameRead(hand=True, frame=index, width=width, height=height), image
                )
                continue
            read = self.readers[deck](image).model_copy(update={"frame": index})
            self.read_ms.append((time.perf_counter() - started) * 1000)
            self.table.feed(read, image)
            self.count += 1
