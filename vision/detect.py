"""Localisation with OpenCV: the ink and glyphs that tile and card proposals start from.

Both detectors start from *ink*: printed strokes that are darker or more saturated than the
surface right around them (a black-hat of the grey image, a top-hat of the saturation). Ink
survives what breaks outline-based detectors: tiles touching in rows, tiles on a white table
the same colour as the tiles, cards overlapping or fanned so that only a corner shows. Here:
the ink (:func:`ink_mask`), its glyph-sized blobs (:func:`glyphs`, texture left out), glyphs
grouped side by side (:func:`group_glyphs`), and the oriented quads built from them
(:func:`rect_quad`, :func:`pair_quad`), on the image scaled for detection (:func:`working`).
The proposals themselves are :mod:`vision.detect_tiles` (a tile around each number) and
:mod:`vision.detect_cards` (a card's corner index from a rank beside a suit).

Detection over-proposes on purpose: the recogniser has a ``none`` class, and overlapping
candidates are resolved after recognition (:mod:`vision.overlaps`). All quads are TL TR BR BL
in the object's frame as the candidate sees it; the recogniser also looks at the 180° turn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.matching import lengths, within_along_x
from vision.union_find import linked_groups

Image = npt.NDArray[Any]
Quad = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Glyph:
    centre: npt.NDArray[np.float32]
    height: float  # long side of the glyph's rotated box
    width: float
    angle: float  # direction of the long side, degrees
    box: tuple[int, int, int, int]  # x, y, w, h (axis aligned)
    ring: bool = False  # a joker's ring of arcs (detect_tiles.ring_unit): square, its slant unknown


def ink_score(image: Image, stroke: int) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """How much darker or more colourful than its surroundings each pixel is, and the
    colourful part alone."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (stroke, stroke))
    dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, k)
    # Per-channel extremes with OpenCV: numpy's max/min over the last axis took ~15 ms here.
    b, g, r = cv2.split(image)
    sat = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    colourful = cv2.morphologyEx(sat, cv2.MORPH_TOPHAT, k)
    return cv2.max(dark, colourful), colourful


def ink_mask(image: Image, stroke: int = 15) -> npt.NDArray[Any]:
    """255 where printed ink is: darker than, or more colourful than, its surroundings."""
    score, _ = ink_score(image, stroke)
    _, mask = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    floor = np.uint8(28)
    mask[score < floor] = 0
    return mask


def glyphs(
    mask: npt.NDArray[Any],
    min_h: float,
    max_h: float,
    nested: bool = False,
    limit: int = 1500,
    texture: bool = False,
) -> list[Glyph]:
    """Ink blobs whose size could be a printed digit, letter or suit.

    ``limit``: at most this many (a busy texture; enough to read what is there).
    ``nested``: also blobs that lie inside a hole of another blob. Dark gaps between touching
    tiles join into a net of ink whose holes hold the digits; outer contours alone lose them.
    ``texture``: with more blobs than :data:`TEXTURE_FROM`, blobs of a box size more than
    :data:`TEXTURE_MOST` share, packed side by side, are left out first
    (:func:`_not_texture`).
    """
    if nested:
        contours, tree = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        # Two levels: outer boundaries (no parent, wherever they sit) and their holes.
        contours = (
            [c for c, h in zip(contours, tree[0], strict=True) if h[3] < 0] if contours else []
        )
    else:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if texture and len(contours) > TEXTURE_FROM:
        contours = _not_texture(contours, mask.shape)
    found: list[Glyph] = []
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        side = max(w, h)
        if side < min_h or side > max_h * 1.5:
            continue
        area = cv2.contourArea(c)
        if area < min_h * min_h * 0.08:
            continue
        if area / float(w * h) > 0.9 and side > min_h * 2:
            continue  # solid blocks: shadows, dark surfaces
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        if rw >= rh:
            long_, short = rw, rh
        else:
            long_, short, ang = rh, rw, ang + 90.0
        if long_ < min_h or long_ > max_h:
            continue
        if long_ / max(short, 1.0) > 12:
            continue  # hair-thin lines: wood grain, marble veins, table edges
        found.append(
            Glyph(
                np.array([cx, cy], np.float32), float(long_), float(short), float(ang), (x, y, w, h)
            )
        )
        if len(found) >= limit:  # a busy texture; enough to read what is there
            break
    return found


# Texture is looked for in a mask of more blobs than this: 1 in 20 of the held-out real
# photos' masks (their median has 90); glyph-sized checks give 600-3000 a mask. Looked for
# only beyond the glyph limit (1500), a cloth of larger checks gave under the limit, but
# filled the proposal cap with their pairs: 2 more indices read of 1930 (All In, 6 100 000+300).
TEXTURE_FROM = 600
TEXTURE_MOST = 150  # blobs of one box size beyond this, in a busy mask, may be texture
TEXTURE_BIN = 0.15  # natural-log steps of a blob's box width and height
TEXTURE_NEAR = 1.6  # blob sizes from a blob's centre, either way, its neighbours are counted in


def _not_texture(
    contours: Sequence[npt.NDArray[Any]], shape: tuple[int, ...]
) -> list[npt.NDArray[Any]]:
    """``contours`` without texture: blobs whose box size (in :data:`TEXTURE_BIN` steps) more
    than :data:`TEXTURE_MOST` share, each with two or more of them within
    :data:`TEXTURE_NEAR` of its size. A checked cloth is thousands of blobs of one size side
    by side, found before the cards' print in the mask's order, and the blobs a caller
    keeps ran out on them. A suit as small as the checks, alone on its card's paper,
    stays."""
    boxes = np.array([cv2.boundingRect(c) for c in contours], np.float64).reshape(-1, 4)
    keys = np.round(np.log(np.maximum(boxes[:, 2:], 1.0)) / TEXTURE_BIN).astype(np.int64)
    _, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    crowded = np.nonzero(counts[inverse.reshape(-1)] > TEXTURE_MOST)[0]
    if not len(crowded):
        return list(contours)
    b = boxes[crowded]
    cx = np.clip((b[:, 0] + b[:, 2] / 2).astype(np.int64), 0, shape[1] - 1)
    cy = np.clip((b[:, 1] + b[:, 3] / 2).astype(np.int64), 0, shape[0] - 1)
    dots = np.zeros(shape[:2], np.float32)
    np.add.at(dots, (cy, cx), 1.0)
    side = int(2 * TEXTURE_NEAR * float(np.median(b[:, 2:].max(axis=1)))) | 1
    near = cv2.boxFilter(dots, -1, (side, side), normalize=False)[cy, cx] - 1.0
    drop = np.zeros(len(contours), bool)
    drop[crowded[near >= 2]] = True
    return [c for c, d in zip(contours, drop, strict=True) if not d]


def group_glyphs(found: list[Glyph], rings: bool = False) -> list[list[Glyph]]:
    """Glyphs side by side at the same size (the 1 and 3 of a 13, the 1 and 0 of a 10).

    ``rings``: also the larger linked groups (:data:`RING_MEMBERS`) as they are, for
    :func:`vision.detect_tiles.ring_unit` to judge; without it they are dropped (texture, a
    row of print)."""
    if not found:
        return []
    centres = np.array([g.centre for g in found], np.float32)
    heights = np.array([g.height for g in found], np.float32)
    # Two glyphs of heights within 1.35 of each other lie within 0.45 of their heights'
    # sum only within 1.0575 of the first one's height: only glyphs that near along x are
    # measured (:func:`vision.matching.within_along_x`), not every pair, in the same
    # element-wise arithmetic.
    first, second = within_along_x(centres, centres, 1.06 * heights.astype(np.float64))
    first, second = first[first < second], second[first < second]
    h1, h2 = heights[first], heights[second]
    near = lengths(centres[second] - centres[first]) < 0.45 * (h1 + h2)
    ratio = np.maximum(h1, h2) / np.maximum(1.0, np.minimum(h1, h2))
    pairs = np.nonzero(near & (ratio <= 1.35))[0]
    pairs = pairs[np.lexsort((second[pairs], first[pairs]))]  # every pair's order, row by row

    def side_by_side() -> Iterator[tuple[int, int]]:
        for i, j in zip(first[pairs], second[pairs], strict=True):
            a, b = found[int(i)], found[int(j)]
            # Side by side: the offset is across the glyphs' long axis, not along it.
            ang = math.radians(a.angle if abs(a.angle - b.angle) >= 45 else (a.angle + b.angle) / 2)
            along = abs(float((b.centre - a.centre) @ np.array([math.cos(ang), math.sin(ang)])))
            if along <= 0.6 * (a.height + b.height) / 2:
                yield int(i), int(j)

    groups = linked_groups(len(found), side_by_side())
    most = RING_MEMBERS[1] if rings else 2
    return [[found[i] for i in g] for g in groups if len(g) <= most]


# The colour-change joker prints its face inside a ring of four coloured arcs: five glyphs of
# one size linked side by side, which group_glyphs drops as texture, so the tile got no
# proposal at all, or only one from a few arcs, off its centre and at the arcs' slant.
RING_MEMBERS = (3, 8)


def merged(group: list[Glyph]) -> Glyph:
    """One glyph for a group side by side (the two digits of a number, a rank's parts):
    centred between them, as tall as the tallest, as wide as the group along its axis."""
    if len(group) == 1:
        return group[0]
    c = np.mean([g.centre for g in group], axis=0).astype(np.float32)
    h = max(g.height for g in group)
    a, b = group[0], group[-1]
    across = (
        math.degrees(math.atan2(float(b.centre[1] - a.centre[1]), float(b.centre[0] - a.centre[0])))
        + 90.0
    )
    w = float(np.linalg.norm(a.centre - b.centre)) + (a.width + b.width) / 2
    xs = [g.box[0] for g in group] + [g.box[0] + g.box[2] for g in group]
    ys = [g.box[1] for g in group] + [g.box[1] + g.box[3] for g in group]
    box = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    return Glyph(c, h, w, across, box)


def rect_quad(
    centre: npt.NDArray[np.float32], width: float, height: float, down_angle: float
) -> Quad:
    """TL TR BR BL of a rectangle whose "down" points along ``down_angle`` degrees."""
    a = math.radians(down_angle)
    down = np.array([math.cos(a), math.sin(a)], np.float32)
    right = np.array([down[1], -down[0]], np.float32)
    return np.stack(corners(centre, width / 2, height / 2, right, down)).astype(np.float32)


def corners(centre: Any, half_w: Any, half_h: Any, right: Any, down: Any) -> list[Any]:
    """TL TR BR BL about ``centre``, ``half_w`` along ``right`` and ``half_h`` along ``down``
    (one rectangle, or many at once where each is a column of arrays)."""
    return [
        centre - half_w * right - half_h * down,
        centre + half_w * right - half_h * down,
        centre + half_w * right + half_h * down,
        centre - half_w * right + half_h * down,
    ]


def pair_quad(rank: npt.NDArray[np.float32], suit: npt.NDArray[np.float32]) -> Quad:
    """The quad of a corner index from its rank and suit centres (rank on top)."""
    d = float(np.linalg.norm(suit - rank))
    down = math.degrees(math.atan2(float(suit[1] - rank[1]), float(suit[0] - rank[0])))
    height = 2.3 * d
    return rect_quad(((rank + suit) / 2).astype(np.float32), 0.62 * height, height, down)


WORK_SIDE = 640  # detection runs on the image scaled so its longer side is this


def working(image: Image, interpolation: int = cv2.INTER_AREA) -> tuple[Image, float]:
    """The image scaled down for detection, and the factor back to full size."""
    side = max(image.shape[:2])
    if side <= WORK_SIDE:
        return image, 1.0
    f = WORK_SIDE / side
    small = cv2.resize(
        image, (round(image.shape[1] * f), round(image.shape[0] * f)), interpolation=interpolation
    )
    return small, 1.0 / f
