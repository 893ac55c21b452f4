"""Frames from a camera (or a replayed video/folder) through vision into the table.

The loop is deliberately dumb: read a frame, let vision turn it into a
:class:`host.table.reads.FrameRead`, hand both to the table. Stability, flags and events are
the referee's business.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from host.cli.common import InputError
from host.referee import Table
from host.table.reads import FrameRead

Reader = Callable[[Any], FrameRead]


class CameraFeed:
    def __init__(self, frames: Iterable[Any], reader: Reader, table: Table) -> None:
        self.frames = frames
        self.reader = reader
        self.table = table
        self.stop = threading.Event()
        self.count = 0
        self.read_ms: list[float] = []

    @classmethod
    def open(cls, spec: str, table: Table) -> CameraFeed:
        """A feed from a camera index, video file or image folder, read by the vision pipeline."""
        try:
            from vision.camera import open_source
            from vision.pipeline import reader_for
        except ImportError as exc:
            raise InputError(f"the vision pipeline is not available here ({exc})") from None
        referee = table.referee()
        return cls(open_source(spec), reader_for(referee.adapter.deck), table)

    def run(self) -> None:
        for index, image in enumerate(self.frames):
            if self.stop.is_set():
                break
            started = time.perf_counter()
            read = self.reader(image).model_copy(update={"frame": index})
            self.read_ms.append((time.perf_counter() - started) * 1000)
            self.table.feed(read, image)
            self.count += 1
