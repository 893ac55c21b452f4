"""Keep a read of the table stable across frames.

Every object is tracked by position from frame to frame. An object counts only once the same
label has been read at that place in ``frames`` consecutive frames; the table as a whole is
stable when every tracked object is. Frames with a hand over the table are skipped entirely (a
hand hides and moves things: nothing it shows is evidence). A manual correction pins the label
of one tracked object for as long as that object stays where it is.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from host.table.reads import FrameRead, ObjectRead


@dataclass(slots=True)
class Track:
    id: int
    read: ObjectRead
    labels: deque[str]
    corrected: str | None = None
    corrected_from: str | None = None  # the raw read the correction answered
    missing: int = 0

    def observe(self, read: ObjectRead, frames: int) -> None:
        self.read = read
        self.labels.append(read.label)
        self.missing = 0
        # A correction answers one misread. When the camera steadily reads something else
        # here (neither the misread nor the correction), another object lies here now.
        if (
            self.corrected is not None
            and len(self.labels) >= frames
            and len(set(self.labels)) == 1
            and read.label not in (self.corrected, self.corrected_from)
        ):
            self.corrected = self.corrected_from = None

    @property
    def label(self) -> str:
        return self.corrected or self.read.label

    def stable(self, frames: int) -> bool:
        if self.missing:
            return False
        if self.corrected is not None:
            return True
        return len(self.labels) >= frames and len(set(self.labels)) == 1


@dataclass(frozen=True, slots=True)
class TableObject:
    """One object on the table as the referee sees it."""

    id: int
    label: str
    read: ObjectRead
    corrected: bool
    stable: bool

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "read_label": self.read.label,
            "confidence": round(self.read.confidence, 4),
            "quad": [list(p) for p in self.read.quad],
            "alternatives": [a.label for a in self.read.alternatives],
            "corrected": self.corrected,
            "stable": self.stable,
        }


@dataclass(frozen=True, slots=True)
class TableView:
    objects: tuple[TableObject, ...]
    stable: bool
    width: int
    height: int
    sets: tuple[tuple[int, ...], ...] | None = None  # object ids, left to right

    def labels(self) -> list[str]:
        return [o.label for o in self.objects]

    def signature(self) -> tuple[tuple[int, str], ...]:
        return tuple(sorted((o.id, o.label) for o in self.objects))


@dataclass
class Stabiliser:
    frames: int = 3
    # A tracked object missing for this many frames has left the table.
    forget_after: int = 2
    _tracks: dict[int, Track] = field(default_factory=dict)
    _next: int = 1
    _sets: tuple[tuple[int, ...], ...] | None = None
    _size: tuple[int, int] = (1000, 750)
    _skipped: int = 0

    def feed(self, read: FrameRead) -> TableView | None:
        """Take one frame; the current view, or ``None`` when the frame was skipped (a hand)."""
        if read.hand:
            self._skipped += 1
            return None
        self._size = (read.width, read.height)
        index_to_track = self._match(read.objects)
        if read.sets is not None:
            self._sets = tuple(
                tuple(index_to_track[i] for i in s if i in index_to_track) for s in read.sets
            )
        else:
            self._sets = None
        return self.view()

    def _match(self, objects: tuple[ObjectRead, ...]) -> dict[int, int]:
        # Greedy nearest-centre matching: objects on a table barely move between frames and
        # never overlap by more than half their size, so greedy is unambiguous in practice.
        pairs = []
        for i, obj in enumerate(objects):
            cx, cy = obj.center
            for track in self._tracks.values():
                tx, ty = track.read.center
                d = math.hypot(cx - tx, cy - ty)
                if d <= 0.5 * max(obj.size, track.read.size):
                    pairs.append((d, i, track.id))
        pairs.sort()
        used_obj: set[int] = set()
        used_track: set[int] = set()
        mapping: dict[int, int] = {}
        for _, i, tid in pairs:
            if i in used_obj or tid in used_track:
                continue
            used_obj.add(i)
            used_track.add(tid)
            mapping[i] = tid
            self._tracks[tid].observe(objects[i], self.frames)
        for tid in list(self._tracks):
            if tid not in used_track:
                self._tracks[tid].missing += 1
                if self._tracks[tid].missing >= self.forget_after:
                    del self._tracks[tid]
        for i, obj in enumerate(objects):
            if i not in used_obj:
                tid = self._next
                self._next += 1
                self._tracks[tid] = Track(tid, obj, deque([obj.label], maxlen=self.frames))
                mapping[i] = tid
        return mapping

    def view(self) -> TableView:
        objects = tuple(
            TableObject(t.id, t.label, t.read, t.corrected is not None, t.stable(self.frames))
            for t in sorted(self._tracks.values(), key=lambda t: t.id)
            if not t.missing
        )
        stable = all(o.stable for o in objects) and not any(
            t.missing for t in self._tracks.values()
        )
        return TableView(objects, stable, self._size[0], self._size[1], self._sets)

    def correct(self, object_id: int, label: str | None) -> None:
        """Pin (or with ``None`` release) a person's label for one tracked object."""
        if object_id not in self._tracks:
            raise KeyError(object_id)
        track = self._tracks[object_id]
        track.corrected = label
        track.corrected_from = None if label is None else track.read.label

    def correction(self, object_id: int) -> str | None:
        return self._tracks[object_id].corrected

    def reset(self) -> None:
        self._tracks.clear()
        self._sets = None
