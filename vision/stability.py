"""Stable reads over a stream of frames.

A single frame lies: a hand hovers over a card, a card is half laid down, one frame's read is a
misread. This module sits between the per-frame reader and the referee:

* a frame is **skipped** when something moves (frame differencing against the previous frame)
  or a hand is over the table: a large skin-coloured blob that was not on the settled table.
  A scene still for ``settle_frames`` is accepted whatever it shows, so a skin-coloured table
  top, or the wood showing where a card was taken away, cannot block reading for long;
* an object **counts** once the last ``agree_frames`` reads of it on usable frames agree on its
  label, and keeps that label until another label has agreed as long;
* an object that disappears is **kept** until it has been missing from ``forget_frames``
  usable frames in a row, so one bad frame or a hand passing over it does not delete it.

It knows nothing of the reader: input is a frame plus its reads ``{"label", "confidence",
"quad"}``; output is the stable reads in the same shape plus a track id.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class StabilityConfig:
    agree_frames: int = 3  # usable frames a label must agree over before it counts
    forget_frames: int = 8  # usable frames an object may be missing before it is dropped
    work_width: int = 320  # frames are compared at this width: cheap and noise-tolerant
    motion_pixel_delta: int = 18  # grey-level change that counts as a changed pixel
    motion_fraction: float = 0.002  # changed fraction of the frame that means motion
    hand_fraction: float = 0.004  # new skin-coloured blob (fraction of the frame) = a hand
    settle_frames: int = 10  # still frames after which whatever lies there is the table
    match_distance: float = 0.6  # centre distance, in object sizes, to be the same object


@dataclass(frozen=True)
class FrameVerdict:
    usable: bool
    reason: str | None  # "first_frame", "motion", "hand" or None
    motion: float  # changed fraction vs. the previous frame
    hand: float  # area fraction of the largest new skin-coloured blob


def skin_mask(image: Image) -> Image:
    """Pixels whose chroma is skin-like, for every skin tone (YCrCb box of Chai & Ngan); the
    luma is left free so shadowed and lit skin both count."""
    ycrcb = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    mask = cv2.inRange(ycrcb, (30, 138, 77), (250, 175, 127))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)


class FrameGate:
    """Says whether a frame shows a settled table. Keeps the previous frame (for motion) and
    the last accepted frame (the settled table, so skin-coloured wood or a cactus card's art
    is not mistaken for a hand)."""

    def __init__(
        self,
        config: StabilityConfig | None = None,
        roi: Sequence[Sequence[float]] | None = None,
    ) -> None:
        """``roi``: the table's outline in image pixels (e.g. a calibration's corners); motion
        and hands outside it (players, the room) do not stop reading."""
        self.config = config or StabilityConfig()
        self.roi = None if roi is None else np.asarray(roi, np.float64).reshape(-1, 2)
        self._roi_mask: Image | None = None
        self._previous: Image | None = None
        self._settled: Image | None = None
        self._still = 0  # still frames in a row that showed a hand

    def _mask(self, frame_shape: tuple[int, ...], small_shape: tuple[int, ...]) -> Image | None:
        if self.roi is None:
            return None
        if self._roi_mask is None or self._roi_mask.shape != small_shape[:2]:
            scale = small_shape[1] / frame_shape[1]
            mask = np.zeros(small_shape[:2], np.uint8)
            cv2.fillPoly(mask, [np.round(self.roi * scale).astype(np.int32)], 255)
            self._roi_mask = mask
        return self._roi_mask

    def _small(self, frame: Image) -> Image:
        h, w = frame.shape[:2]
        width = min(self.config.work_width, w)
        height = max(1, round(h * width / w))
        small = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
        if small.ndim == 2:
            small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
        return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), np.uint8)

    def check(self, frame: Image) -> FrameVerdict:
        cfg = self.config
        small = self._small(frame)
        gray = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), np.uint8)
        roi = self._mask(frame.shape, small.shape)
        motion = 0.0
        if self._previous is not None and self._previous.shape == gray.shape:
            moved = cv2.absdiff(gray, self._previous) > cfg.motion_pixel_delta
            if roi is not None:
                moved &= roi > 0
            motion = float(np.count_nonzero(moved)) / moved.size
        # A new stream, or the camera switched resolution: nothing to compare with yet.
        first = self._previous is None or self._previous.shape != gray.shape
        self._previous = gray

        skin = skin_mask(small)
        if self._settled is not None and self._settled.shape == small.shape:
            # Only skin that was not there on the settled table can be a hand: a wooden table
            # or a card's art is skin-coloured too.
            delta = cv2.absdiff(small, self._settled).astype(np.int16).sum(axis=2)
            skin = np.where(delta > cfg.motion_pixel_delta * 2, skin, 0).astype(np.uint8)
            skin = np.asarray(
                cv2.morphologyEx(skin, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8
            )
        if roi is not None:
            skin = np.asarray(cv2.bitwise_and(skin, roi), np.uint8)
        hand = _largest_blob_fraction(skin)

        if first or motion > cfg.motion_fraction:
            self._still = 0
            return FrameVerdict(False, "first_frame" if first else "motion", motion, hand)
        if hand > cfg.hand_fraction:
            self._still += 1
            if self._still < cfg.settle_frames:
                return FrameVerdict(False, "hand", motion, hand)
            # Still this long: the skin-coloured thing is the table (a resting hand trembles; a
            # wooden top, or the wood where a card was taken away, does not).
        self._still = 0
        self._settled = small
        return FrameVerdict(True, None, motion, hand)


def _largest_blob_fraction(mask: Image) -> float:
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return 0.0
    return float(stats[1:, cv2.CC_STAT_AREA].max()) / mask.size


@dataclass
class _Track:
    ident: int
    quad: NDArray[np.float64]
    labels: deque[tuple[str, float]]
    stable_label: str | None = None
    stable_confidence: float = 0.0
    seen: int = 0
    missing: int = 0
    alternatives: list[Any] = field(default_factory=list)

    @property
    def centre(self) -> NDArray[np.float64]:
        return np.asarray(self.quad.mean(axis=0), dtype=np.float64)

    @property
    def size(self) -> float:
        return float(np.sqrt(max(cv2.contourArea(self.quad.astype(np.float32)), 1.0)))


@dataclass(frozen=True)
class StableUpdate:
    verdict: FrameVerdict
    objects: list[dict[str, Any]]  # the stable reads after this frame
    changed: bool  # whether the stable set (labels or membership) changed with this frame


class StableReader:
    """Feed it every frame and that frame's reads; it returns the reads that have settled."""

    def __init__(
        self,
        config: StabilityConfig | None = None,
        roi: Sequence[Sequence[float]] | None = None,
    ) -> None:
        self.config = config or StabilityConfig()
        self.gate = FrameGate(self.config, roi)
        self._tracks: list[_Track] = []
        self._next_id = 1
        self._last: list[tuple[int, str]] = []

    def update(self, frame: Image, reads: list[dict[str, Any]]) -> StableUpdate:
        verdict = self.gate.check(frame)
        if verdict.usable:
            self._absorb(reads)
        objects = self.stable()
        key = sorted((o["track"], o["label"]) for o in objects)
        changed = key != self._last
        self._last = key
        return StableUpdate(verdict, objects, changed)

    def _absorb(self, reads: list[dict[str, Any]]) -> None:
        cfg = self.config
        quads = [np.asarray(r["quad"], dtype=np.float64).reshape(4, 2) for r in reads]
        centres = [q.mean(axis=0) for q in quads]
        # Greedy nearest matching: objects on a table barely move between usable frames.
        pairs = []
        for ti, t in enumerate(self._tracks):
            for ri, c in enumerate(centres):
                d = float(np.linalg.norm(c - t.centre)) / t.size
                if d <= cfg.match_distance:
                    pairs.append((d, ti, ri))
        pairs.sort()
        used_t: set[int] = set()
        used_r: set[int] = set()
        for _, ti, ri in pairs:
            if ti in used_t or ri in used_r:
                continue
            used_t.add(ti)
            used_r.add(ri)
            self._observe(self._tracks[ti], reads[ri], quads[ri])
        for ti, t in enumerate(self._tracks):
            if ti not in used_t:
                t.missing += 1
        self._tracks = [t for t in self._tracks if t.missing < cfg.forget_frames]
        for ri, r in enumerate(reads):
            if ri not in used_r:
                t = _Track(self._next_id, quads[ri], deque(maxlen=cfg.agree_frames))
                self._next_id += 1
                self._observe(t, r, quads[ri])
                self._tracks.append(t)

    def _observe(self, t: _Track, read: dict[str, Any], quad: NDArray[np.float64]) -> None:
        t.quad = quad
        t.missing = 0
        t.seen += 1
        t.labels.append((str(read["label"]), float(read.get("confidence", 1.0))))
        if len(t.labels) == self.config.agree_frames:
            counts = Counter(label for label, _ in t.labels)
            label, n = counts.most_common(1)[0]
            if n == self.config.agree_frames:
                t.stable_label = label
                t.stable_confidence = float(np.mean([c for _, c in t.labels]))
                t.alternatives = list(read.get("alternatives", []))

    def stable(self) -> list[dict[str, Any]]:
        out = []
        for t in self._tracks:
            if t.stable_label is None:
                continue
            obj: dict[str, Any] = {
                "label": t.stable_label,
                "confidence": round(t.stable_confidence, 4),
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in t.quad],
                "track": t.ident,
                "missing_frames": t.missing,
            }
            if t.alternatives:
                obj["alternatives"] = t.alternatives
            out.append(obj)
        return out
