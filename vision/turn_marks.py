"""A tile's 6 or 9 told by the mark printed under its number.

Rummikub tiles print a bar (the maker's mark) under the number, so that a 6 and a 9, each
the other turned, can be told apart. The recogniser reads a number-framed crop either way up
(tiles are trained with half turns), and the bar of a deck it never saw lies outside that
frame, so on such a deck a 6 and a 9 are read for each other. An enrolled profile holds each
tile both ways up too, and cannot help.

Enrolment measures where the deck prints its bar (:func:`deck_mark`: how far below the
number's centre, and how long, in number heights) on the tiles laid out upright. A read of a
6 or a 9 then looks around its number for a bar of that size at that distance: the bar's side
is the tile's bottom. Seen that way up, a 6's closed loop (or, where the loop is not closed,
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
_ALONG = 3.0  # the patch's half height, in number heights
_ACROSS = 1.2  # its half width
_FIND_PX = 64  # a read frame's height when its number is first looked for
BAR_THIN = 0.45  # a bar's thickness along the axis, at most this share of its length
BAR_OFF_AXIS = 0.4  # its centre at most this far off the number's axis, in number heights
# At read time, a bar within this of the deck's measured distance (number heights), and its
# length within these shares of the measured one.
BAR_NEAR = 0.3
BAR_LENGTHS = (0.6, 1.6)
# At enrolment: the bar is sought this far below the number's centre (number heights), and
# the deck has one when at least this share of its tiles show one bar alike (the star jokers
# show none; a pale ink may not be found).
MEASURE_ALONG = (0.6, 2.5)
MARKED_SHARE = 0.5
LOOP_OFF = 0.015  # a loop's (or the ink's) centre off the number's middle, in number heights
TWINS = {"6": "9", "9": "6"}


Mark = tuple[float, float]  # (distance below the number's centre, length), in number heights


@dataclass(frozen=True)
class _Blobs:
    stats: npt.NDArray[Any]
    centres: npt.NDArray[Any]
    labels: npt.NDArray[Any]


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


def _blobs(patch: npt.NDArray[Any]) -> _Blobs:
    from vision.detect import ink_mask

    # Closed: a pale ink's thin strokes break up in the mask.
    mask = cv2.morphologyEx(ink_mask(patch, 15), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    _, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return _Blobs(stats, centres, labels)


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
    b = _blobs(crop(image, np.asarray(quad, np.float32), (pw, ph)))
    best, tallest = -1, 0
    for k in range(1, len(b.stats)):
        x, y, w, h = (int(v) for v in b.stats[k][:4])
        if x > 0 and y > 0 and x + w < pw and y + h < ph and h > tallest and h >= 0.15 * ph:
            best, tallest = k, h
    if best < 0:
        return None
    cx, cy = b.centres[best]
    x, y, w, h = (int(v) for v in b.stats[best][:4])
    cy = y + h / 2  # the box's middle: a digit's ink is not spread evenly along it
    d = down / fh
    r = across / fw
    centre = q[0] + r * fw * (cx / pw) + d * fh * (cy / ph)
    return centre, d, h * fh / ph


def _around(
    image: npt.NDArray[Any], centre: npt.NDArray[Any], down: npt.NDArray[Any], height: float
) -> tuple[_Blobs, int] | None:
    """The blobs of an upright patch around a number (its height :data:`_PX`), and which of
    them is the number (``None`` if none is)."""
    frame = _frame(centre, down, _ACROSS * height, _ALONG * height)
    b = _blobs(crop(image, frame, (round(2 * _ACROSS * _PX), round(2 * _ALONG * _PX))))
    mid = np.array([_ACROSS * _PX, _ALONG * _PX])
    best, tallest = -1, 0
    for k in range(1, len(b.stats)):
        h = int(b.stats[k][3])
        if np.linalg.norm(b.centres[k] - mid) < 0.4 * _PX and h > tallest and h >= 0.6 * _PX:
            best, tallest = k, h
    return (b, best) if best >= 0 else None


def _bars(b: _Blobs, number: int) -> list[tuple[float, float]]:
    """(along, length) of each bar-like blob on the number's axis, in number heights, along
    measured from the number's centre (positive: below)."""
    x, y, w, h = (int(v) for v in b.stats[number][:4])
    ncx, ncy = x + w / 2, y + h / 2
    out = []
    for k in range(1, len(b.stats)):
        if k == number:
            continue
        bx, by, bw, bh = (int(v) for v in b.stats[k][:4])
        kcx, kcy = bx + bw / 2, by + bh / 2
        if bh > BAR_THIN * bw or abs(kcx - ncx) > BAR_OFF_AXIS * h:
            continue
        out.append(((kcy - ncy) / h, bw / h))
    return out


def deck_mark(image: npt.NDArray[Any], tiles: Sequence[Quad]) -> Mark | None:
    """Where the deck prints its bar, from tiles laid upright (``tiles``: their outlines,
    TL TR BR BL): the median of the bars found below their numbers, or ``None`` where fewer
    than :data:`MARKED_SHARE` of the tiles show a bar like it."""
    found: list[tuple[float, float]] = []
    for quad in tiles:
        q = np.asarray(quad, np.float32)
        c = q.mean(axis=0)
        # Shrunk a little: the tile's own edges are ink too.
        number = _number_in(image, (c + (q - c) * 0.85).astype(np.float32))
        seen = None if number is None else _around(image, *number)
        if seen is None:
            continue
        below = [bar for bar in _bars(*seen) if MEASURE_ALONG[0] <= bar[0] <= MEASURE_ALONG[1]]
        if below:
            found.append(min(below))
    if not found:
        return None
    along, length = (float(v) for v in np.median(np.array(found), axis=0))
    alike = sum(_like((a, n), (along, length)) for a, n in found)
    return (along, length) if alike >= MARKED_SHARE * len(tiles) else None


def _like(bar: tuple[float, float], mark: Mark) -> bool:
    return (
        abs(abs(bar[0]) - mark[0]) <= BAR_NEAR
        and BAR_LENGTHS[0] * mark[1] <= bar[1] <= BAR_LENGTHS[1] * mark[1]
    )


def number_seen(image: npt.NDArray[Any], quad: Quad, mark: Mark) -> Verdict | None:
    """``"6"`` or ``"9"``: what the number inside ``quad`` is, the deck's bar (``mark``)
    taken as the tile's bottom; ``None`` where there is no single clear bar or no clear
    loop."""
    number = _number_in(image, quad)
    if number is None:
        return None
    seen = _around(image, *number)
    if seen is None:
        return None
    b, k = seen
    sides = {1 if bar[0] > 0 else -1 for bar in _bars(b, k) if _like(bar, mark)}
    if len(sides) != 1:
        return None
    x, y, w, h = (int(v) for v in b.stats[k][:4])
    offset = _loop_offset((b.labels[y : y + h, x : x + w] == k).astype(np.uint8))
    if offset is None or abs(offset) < LOOP_OFF:
        return None
    return "6" if (offset > 0) == (sides.pop() > 0) else "9"


def _loop_offset(digit: npt.NDArray[Any]) -> float | None:
    """How far below the blob's middle its largest hole lies (or, with no hole, its ink's
    centre), in blob heights: positive is lower."""
    h = int(digit.shape[0])
    contours, hierarchy = cv2.findContours(digit, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    holes = [
        c
        for c, hr in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False)
        if hr[3] >= 0 and cv2.contourArea(c) >= 4
    ]
    if holes:
        m = cv2.moments(max(holes, key=cv2.contourArea))
        if m["m00"] > 0:
            return float(m["m01"] / m["m00"] - h / 2) / h
    ys = np.nonzero(digit)[0]
    if len(ys) == 0:
        return None
    return float(ys.mean() + 0.5 - h / 2) / h


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
