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

from host.cli.common import InputError
from host.referee import Table
from host.table.reads import FrameRead

Reader = Callable[[Any], FrameRead]
log = logging.getLogger(__name__)

# The referee's deck -> the vision reader that knows its faces.
# The referee's deck -> the name vision reads it under (vision.reader.Game).
VisionGame = Literal["rummikub", "cards", "allin"]
VISION_GAMES: dict[str, VisionGame] = {
    "rummikub": "rummikub",
    "allin": "allin",
    "standard": "cards",
}


def reader_for(deck: str, enrolled: str | None = None, data_dir: Path | None = None) -> Reader:
    """Vision's table reader for a deck, wrapped to give the referee's FrameRead; with
    ``enrolled``, it reads with that enrolled deck profile where one exists for the game."""
    if deck not in VISION_GAMES:
        raise InputError(
            f"vision does not read the {deck} deck yet (it reads: {', '.join(VISION_GAMES)}); "
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
        return FrameRead.model_validate(
            {
                "objects": [o.to_json() for o in reading.objects],
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
        for index, image in enumerate(self.frames):
            if self.stop.is_set():
                break
            if self.table.active is None:
                continue  # no game yet: nothing to referee
            deck = self.table.referee().adapter.deck
            if deck not in self.readers:
                self.readers[deck] = self.make_reader(deck)
            started = time.perf_counter()
            read = self.readers[deck](image).model_copy(update={"frame": index})
            self.read_ms.append((time.perf_counter() - started) * 1000)
            self.table.feed(read, image)
            self.count += 1
