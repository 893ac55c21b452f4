"""Keep a read of the table stable across frames.

Every object is tracked by position from frame to frame. An object counts only once the same
label has been read at that place in ``frames`` consecutive frames; the table as a whole is
stable when every tracked object is. Frames with a hand over the table are skipped entirely (a
hand hides and moves things: nothing it shows is evidence). A manual correction pins the label
of one tracked object for as long as that object stays where it is.

A tracked object that goes missing leaves the view at once (a covered card must stop counting
promptly), but a person's correction outlives it for a while: when, within ``remember_frames``
frames, a new object appears at the same place and is read as the very misread the correction
answered, it is taken to be the same object back after a detection flicker and inherits the
correction. It still has to be read there for ``frames`` frames before it counts as stable, as
any newly seen object does.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field, replace

from host.table.reads import FrameRead, ObjectRead


@dataclass(slots=True)
class Track:
    id: int
    read: ObjectRead
    labels: deque[str]
    corrected: str | None = None
    corrected_from: str | None = None  # the raw read the correction answered
    missing: int = 0
    # Inherited a remembered correction: counts as stable only once read steadily, like any
    # new object (a person's fresh word makes an object stable at once; a recollection not).
    recalled: bool = False

    def observe(self, read: ObjectRead, frames: int) -> None:
        self.read = read
        self.labels.append(read.label)
        self.missing = 0
        if self.recalled and len(self.labels) >= frames and len(set(self.labels)) == 1:
            self.recalled = False  # confirmed: from now on it holds like a person's own word
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
        if self.corrected is not None and not self.recalled:
            return True
        return len(self.labels) >= frames and len(set(self.labels)) == 1


@dataclass(frozen=True, slots=True)
class Remembered:
    """The correction of a forgotten track, kept for a while in case the object comes back."""

    read: ObjectRead  # the object's last read: where it lay, and how large it was
    read_label: str  # the misread the correction answered
    label: str  # the person's label
    age: int = 0  # frames (without a hand) since the track was forgotten


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
    # A forgotten track's correction is kept this many frames (without a hand) for the object
    # to come back. Reads arrive at most at the camera's 15 fps (fewer on a Pi), so 45 frames
    # is at least three seconds: far longer than a glint or a sleeve at the edge hides a card,
    # short enough that a card put down there minutes later is not taken for the old one.
    remember_frames: int = 45
    _tracks: dict[int, Track] = field(default_factory=dict)
    _next: int = 1
    _sets: tuple[tuple[int, ...], ...] | None = None
    _size: tuple[int, int] = (1000, 750)
    _skipped: int = 0
    _remembered: list[Remembered] = field(default_factory=list)

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
        self._remembered = [
            replace(m, age=m.age + 1) for m in self._remembered if m.age < self.remember_frames
        ]
        for tid in list(self._tracks):
            if tid not in used_track:
                track = self._tracks[tid]
                track.missing += 1
                if track.missing >= self.forget_after:
                    if track.corrected is not None and track.corrected_from is not None:
                        self._remembered.append(
                            Remembered(track.read, track.corrected_from, track.corrected)
                        )
                    del self._tracks[tid]
        new = [i for i in range(len(objects)) if i not in used_obj]
        recalled = self._recall({i: objects[i] for i in new})
        for i in new:
            obj = objects[i]
            tid = self._next
            self._next += 1
            track = Track(tid, obj, deque([obj.label], maxlen=self.frames))
            if i in recalled:
                track.corrected, track.corrected_from = recalled[i].label, recalled[i].read_label
                track.recalled = True
            self._tracks[tid] = track
            mapping[i] = tid
        return mapping

    def _recall(self, objects: dict[int, ObjectRead]) -> dict[int, Remembered]:
        """Which new objects are remembered ones back (same place, same misread), greedily."""
        pairs = []
        for i, obj in objects.items():
            cx, cy = obj.center
            for k, m in enumerate(self._remembered):
                if obj.label != m.read_label:
                    continue
                mx, my = m.read.center
                d = math.hypot(cx - mx, cy - my)
                if d <= 0.5 * max(obj.size, m.read.size):
                    pairs.append((d, m.age, i, k))  # nearest first; then the newest memory
        pairs.sort()
        claimed: dict[int, Remembered] = {}
        used: set[int] = set()
        for _, _, i, k in pairs:
            if i in claimed or k in used:
                continue
            claimed[i] = self._remembered[k]
            used.add(k)
        self._remembered = [m for k, m in enumerate(self._remembered) if k not in used]
        return claimed

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
        track.recalled = False

    def correction(self, object_id: int) -> str | None:
        return self._tracks[object_id].corrected

    def reset(self) -> None:
        self._tracks.clear()
        self._remembered.clear()
        self._sets = None
