"""A tile's 6 or 9 told by the mark printed under its number.

Rummikub tiles print a bar (the maker's mark) under the number, so that a 6 and a 9, each
the other turned, can be told apart. The recogniser reads a number-framed crop either way up
(tiles are trained with half turns), and the bar of a deck it never saw lies outside that
frame, so on such a deck a 6 and a 9 are read for each other. An enrolled profile holds each
tile both ways up too, and cannot help.

Enrolment measures where the deck prints its bar (:func:`deck_mark`: how far below the
number's centre, and how long, in number heights) on the tiles laid out upright. A read of a
6 or a 9 then looks around its number for a bar of that size at that distance, lying across
the number's own axis (a read's frame may be turned from the tile by some degrees): the bar's
side is the tile's bottom. Seen that way up, a 6's closed loop (or, where the loop is not closed,
most of its ink) lies in its lower half and a 9's in its upper half. Only one such bar, on
one side, and a clear loop decide; anything else leaves the read as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import crop

Quad = npt.NDArray[np.float32]
Verdict = Literal["6", "9"]

_PX = 32  # a number's height, in the looked-at patch's pixels
_REACH = 2.6  # the patch's half side, in number heights
_FIND_PX = 64  # a read frame's height when its number is first looked for
BAR_THIN = 0.45  # a bar's thickness, at most this share of its length
BAR_ACROSS = 0.34  # |cos| between a bar's long side and the line from the number to it, at most
BAR_ON_AXIS = 0.8  # |cos| between the number's long side and the line to its bar, at least
BAR_ONE_SIDE = 0.8  # bars found all lie this much (cos) toward one side, or none decides
# At read time, a bar within this of the deck's measured distance (number heights), and its
# length within these shares of the measured one.
BAR_NEAR = 0.3
BAR_LENGTHS = (0.6, 1.6)
# At enrolment: the bar is sought this far below the number's centre (number heights), and
# the deck has one when at least this share of its tiles show one bar alike (the star jokers
# show none; a pale ink may not be found).
MEASURE_ALONG = (0.6, 2.5)
MEASURE_UPRIGHT = 0.9  # (cos) below the number, as the tile lies
MARKED_SHARE = 0.5
LOOP_OFF = 0.015  # a loop's (or the ink's) centre off the number's middle, in number heights
TWINS = {"6": "9", "9": "6"}


Mark = tuple[float, float]  # (distance below the number's centre, length), in number heights


@dataclass(frozen=True)
class _Blob:
    centre: npt.NDArray[np.float64]  # in the patch's pixels
    long: float  # its rotated box's long side
    short: float
    axis: npt.NDArray[np.float64]  # unit vector along the long side
    contour: npt.NDArray[Any]


def _frame(centre: npt.NDArray[Any], down: npt.NDArray[Any], half_w: float, half_h: float) -> Quad:
    right = np.array([down[1], -down[0]])
    c = np.asarray(centre, np.float64)
    return np.array(
        [
            c - half_w * right - half_h * down,
            c + half_w * right - half_h * down,
            c + half_w * right + half_h * down,
            c - half_w * right + half_h * down,
        ],
        np.float32,
    )


def _mask(patch: npt.NDArray[Any]) -> npt.NDArray[Any]:
    from vision.detect import ink_mask

    # Closed: a pale ink's thin strokes break up in the mask.
    return cv2.morphologyEx(ink_mask(patch, 15), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _blobs(mask: npt.NDArray[Any]) -> list[_Blob]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        a = np.radians(angle if w >= h else angle + 90.0)
        out.append(
            _Blob(
                np.array([cx, cy]),
                float(max(w, h)),
                float(min(w, h)),
                np.array([np.cos(a), np.sin(a)]),
                c,
            )
        )
    return out


def _number_in(
    image: npt.NDArray[Any], quad: Quad
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], float] | None:
    """(centre, down unit vector, height) of the number inside ``quad``, in image pixels:
    the tallest ink blob in the frame that touches none of its edges."""
    q = np.asarray(quad, np.float64)
    down = (q[3] + q[2] - q[0] - q[1]) / 2
    across = (q[1] + q[2] - q[0] - q[3]) / 2
    fh, fw = float(np.linalg.norm(down)), float(np.linalg.norm(across))
    if fh < 4 or fw < 4:
        return None
    ph = _FIND_PX
    pw = max(8, round(ph * fw / fh))
    mask = _mask(crop(image, np.asarray(quad, np.float32), (pw, ph)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best, tallest = -1, 0
    for k in range(1, n):
        x, y, w, h = (int(v) for v in stats[k][:4])
        if x > 0 and y > 0 and x + w < pw and y + h < ph and h > tallest and h >= 0.15 * ph:
            best, tallest = k, h
    if best < 0:
        return None
    x, y, w, h = (int(v) for v in stats[best][:4])
    d = down / fh
    r = across / fw
    centre = q[0] + r * fw * ((x + w / 2) / pw) + d * fh * ((y + h / 2) / ph)
    return centre, d, h * fh / ph


@dataclass(frozen=True)
class _Seen:
    """A number's surroundings: the patch's ink mask, its blobs, and which is the number."""

    mask: npt.NDArray[Any]
    blobs: list[_Blob]
    number: _Blob


def _around(
    image: npt.NDArray[Any], centre: npt.NDArray[Any], down: npt.NDArray[Any], height: float
) -> _Seen | None:
    """A square patch around a number (its height about :data:`_PX`), roughly upright along
    ``down``, and its blobs; ``None`` where no blob near the middle is a number's size."""
    size = round(2 * _REACH * _PX)
    frame = _frame(centre, down, _REACH * height, _REACH * height)
    mask = _mask(crop(image, frame, (size, size)))
    blobs = _blobs(mask)
    mid = np.array([size / 2, size / 2])
    near = [b for b in blobs if np.linalg.norm(b.centre - mid) < 0.4 * _PX and b.long >= 0.6 * _PX]
    if not near:
        return None
    return _Seen(mask, blobs, max(near, key=lambda b: b.long))


def _bars(seen: _Seen) -> list[tuple[float, float, npt.NDArray[np.float64]]]:
    """(distance, length, direction) of each bar-like blob seen from the number: distance
    and length in number heights, direction a unit vector from the number's centre. A bar
    is thin, lies across the line from the number to it, and on the number's long axis."""
    n = seen.number
    out = []
    for b in seen.blobs:
        if b is n or b.short > BAR_THIN * b.long:
            continue
        v = b.centre - n.centre
        dist = float(np.linalg.norm(v))
        if dist < 1e-6:
            continue
        u = v / dist
        # Across the line to it, and on the number's own axis (a neighbouring tile's edge
        # beside the number is thin and long too).
        if abs(float(u @ b.axis)) > BAR_ACROSS or abs(float(u @ n.axis)) < BAR_ON_AXIS:
            continue
        out.append((dist / n.long, b.long / n.long, u))
    return out


def deck_mark(image: npt.NDArray[Any], tiles: Sequence[Quad]) -> Mark | None:
    """Where the deck prints its bar, from tiles laid upright (``tiles``: their outlines,
    TL TR BR BL): the median of the bars found below their numbers, or ``None`` where fewer
    than :data:`MARKED_SHARE` of the tiles show a bar like it."""
    found: list[tuple[float, float]] = []
    below = np.array([0.0, 1.0])  # the patch is upright along the tile
    for quad in tiles:
        q = np.asarray(quad, np.float32)
        c = q.mean(axis=0)
        # Shrunk a little: the tile's own edges are ink too.
        number = _number_in(image, (c + (q - c) * 0.85).astype(np.float32))
        seen = None if number is None else _around(image, *number)
        if seen is None:
            continue
        bars = [
            (dist, length)
            for dist, length, u in _bars(seen)
            if float(u @ below) > MEASURE_UPRIGHT and MEASURE_ALONG[0] <= dist <= MEASURE_ALONG[1]
        ]
        if bars:
            found.append(min(bars))
    if not found:
        return None
    along, length = (float(v) for v in np.median(np.array(found), axis=0))
    alike = sum(_like(dist, n, (along, length)) for dist, n in found)
    return (along, length) if alike >= MARKED_SHARE * len(tiles) else None


def _like(dist: float, length: float, mark: Mark) -> bool:
    return (
        abs(dist - mark[0]) <= BAR_NEAR
        and BAR_LENGTHS[0] * mark[1] <= length <= BAR_LENGTHS[1] * mark[1]
    )


def number_seen(image: npt.NDArray[Any], quad: Quad, mark: Mark) -> Verdict | None:
    """``"6"`` or ``"9"``: what the number inside ``quad`` is, the deck's bar (``mark``)
    taken as the tile's bottom, whichever way the frame is turned; ``None`` where there is no
    single clear bar or no clear loop."""
    number = _number_in(image, quad)
    seen = None if number is None else _around(image, *number)
    if seen is None:
        return None
    ways = [u for dist, length, u in _bars(seen) if _like(dist, length, mark)]
    if not ways or any(float(u @ ways[0]) < BAR_ONE_SIDE for u in ways):
        return None
    offset = _loop_offset(seen, ways[0])
    if offset is None or abs(offset) < LOOP_OFF:
        return None
    return "6" if offset > 0 else "9"


def _loop_offset(seen: _Seen, down: npt.NDArray[np.float64]) -> float | None:
    """How far toward ``down`` from the number's middle its largest hole lies (or, with no
    hole, its ink's centre), in number heights."""
    n = seen.number
    x, y, w, h = cv2.boundingRect(n.contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [n.contour - np.array([x, y])], -1, 1, -1)
    digit = seen.mask[y : y + h, x : x + w] // 255 & inside
    ys, xs = np.nonzero(digit)
    if len(ys) == 0:
        return None
    along = xs * down[0] + ys * down[1]
    middle = (float(along.min()) + float(along.max())) / 2
    contours, hierarchy = cv2.findContours(digit, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    holes = [
        c
        for c, hr in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False)
        if hr[3] >= 0 and cv2.contourArea(c) >= 4
    ]
    if holes:
        m = cv2.moments(max(holes, key=cv2.contourArea))
        if m["m00"] > 0:
            centre = np.array([m["m10"], m["m01"]]) / m["m00"]
            return (float(centre @ down) - middle) / n.long
    return (float(along.mean()) - middle) / n.long


def twin(label: str) -> str | None:
    """The label of the tile that is ``label`` turned (``b6`` -> ``b9``), or ``None``."""
    number = label[1:]
    return label[0] + TWINS[number] if number in TWINS else None


def turned_labels(
    image: npt.NDArray[Any],
    labels: Sequence[str],
    quads: Sequence[Quad],
    mark: Mark,
    enrolled: Sequence[str],
) -> list[str]:
    """Each read's label, or its twin's where the tile's bar and loop say it is the twin
    (and the twin is ``enrolled``): a 6 and a 9 read for each other put right."""
    out = list(labels)
    known = set(enrolled)
    for k, (label, quad) in enumerate(zip(labels, quads, strict=True)):
        other = twin(label)
        if other is None or other not in known:
            continue
        seen = number_seen(image, quad, mark)
        if seen is not None and seen != label[1:]:
            out[k] = other
    return out
