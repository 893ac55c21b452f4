"""From a photo of a laid-out deck to one set of crops per card, each at its grid position.

``tableref enroll`` asks the player to lay the deck out upright, apart, on a plain surface
that contrasts with the faces (a dark cloth or a wooden table), in a grid read row by row. This
module finds each object's outline (the face against the surface, so it works for a deck the
recogniser has never seen; on a pale table, the face's edges), puts the outlines in grid
cells, and cuts the crops a read will compare with: for cards the corner indices the card
detector finds in each card's corners (the most object-like by the recogniser's ``none``
score), for tiles the whole face. Each crop is also taken half-turned, since a read may see
the object either way up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import detect_cards, detect_tiles
from vision.crops import crop
from vision.matching import inside, same_object

Image = npt.NDArray[Any]
Quad = npt.NDArray[np.float32]
# crops (N x h x w x 3) -> probability that each is nothing ("none")
NoneScore = Callable[[npt.NDArray[np.uint8]], npt.NDArray[np.float32]]

CARD_ASPECT = 0.714
TILE_ASPECT = 0.72
CARD_PATCH_HEIGHTS = (140, 200, 280)  # each card is looked at upright at these heights
TILE_PATCH_HEIGHTS = (48, 64, 84)  # tiles are about this tall where the detector looks
PER_CORNER = 2  # proposals kept per index corner and size
NEGATIVES = 2  # clutter proposals kept per card and size, as examples of "nothing"
NEAR_MISSES = 2  # per index corner and size: parts of the index, as examples of "nothing"
# Jittered copies of each part (dev seeds, cards: 0 / 1 / 4 copies -> spurious 13.0 / 11.2 / 8.7%).
NEAR_JITTERS = 4
MAX_NONE = 0.9  # a proposal the recogniser is this sure is nothing is not an index
JITTERS = 4  # jittered copies per crop (and per clutter crop): the framings a read meets
# Tiles: the tile's own outline (and its jitters) is enrolled beside its number proposals.
# Development layouts 11-13 and seeds 8 600 000+ (four sets of 30 scenes), with the pooled
# names then read (removed 2026-12-06): 3084 -> 3089 of 3416 right, spurious 34 -> 28.
OUTLINE_TOO = True
# Faces on a surface about as light as they are (a white or marble table) hardly differ from
# it: the faces' edges (Canny at each of EDGE_LEVELS) are looked at too, and taken where the
# look at the difference from the surface finds under EDGES_BELOW as many objects. Generated
# layouts of seeds 11-13, outlines found before -> after: Rummikub (56 tiles) on white 38, 5,
# 7 -> 56 each, on marble 4, 6, 5 -> 56 each; standard cards (53) on white 33, 2, 0 -> 53,
# 53, 47, on marble 27, 13, 1 -> 52, 47, 36; dark, wood, cloth and patterned tables the same.
# Card captures also take the edges of the colour's difference from the surface (a card
# tinted pink on grey marble differs in hue more than in grey): cards on marble 53, 43, 49;
# seeds 14-21, all six tables, 2452 -> 2486 of 2544 cards outlined, none spurious. Not for
# tiles: the colour closes a tile's inner bevel, the smallest region of its nest (framed
# 10-14% short).
EDGES_BELOW = 0.8
# The edge look (about 190 ms a 1200-pixel capture, four times the rest) is taken where
# Otsu's split of the difference from the surface lies under this (twice the CIELAB distance):
# generated layouts on white and marble tables 27-68, on one cloth 56-62, on dark, wooden,
# patterned and the other cloth tables 105-157.
EDGE_LOOK_BELOW = 90.0
# ... or where what differs from the surface covers under this share of the photo: dark print
# on faces as pale as the table splits well from it, but only the print is found (generated
# layouts: 0.35-0.49 where the faces are found, 0.07-0.11 where they are not).
EDGE_LOOK_COVER = 0.2
EDGE_LEVELS = ((3, 9), (5, 15), (10, 30), (20, 50), (30, 80))
# An outline's short side against its long side: a card's or tile's proportions (cards
# 0.64-0.72, tiles about 0.72; generated layouts' outlines 0.68-0.76), not those of a frame
# printed on a card around its pips (about 0.52 on the generated decks), which on a pale
# table stands out where the card's face does not (0.5-0.9 before: on white layouts of seeds
# 12 and 14 every outline found was such a frame).
OBJECT_ASPECT = (0.6, 0.82)


@dataclass
class Placed:
    """One object found in a capture: its outline and its grid cell (row, column)."""

    quad: Quad  # TL TR BR BL, upright as laid
    row: int
    col: int


@dataclass
class Capture:
    """What one photo of the layout gave: objects by cell, and what is wrong with it."""

    placed: list[Placed]
    problems: list[str] = field(default_factory=list)


def _upright(box: npt.NDArray[Any], up: npt.NDArray[np.float64]) -> Quad:
    """TL TR BR BL of a rotated rectangle (4 points) as a portrait object laid upright,
    where ``up`` is the layout's up direction in the image."""
    c = box.mean(axis=0)
    e1, e2 = box[1] - box[0], box[2] - box[1]
    long_, short = (e1, e2) if np.linalg.norm(e1) >= np.linalg.norm(e2) else (e2, e1)
    down = long_ / max(float(np.linalg.norm(long_)), 1e-9)
    if float(down @ up) > 0:
        down = -down
    right = np.array([down[1], -down[0]])
    h, w = float(np.linalg.norm(long_)), float(np.linalg.norm(short))
    return np.array(
        [
            c - right * w / 2 - down * h / 2,
            c + right * w / 2 - down * h / 2,
            c + right * w / 2 + down * h / 2,
            c - right * w / 2 + down * h / 2,
        ],
        np.float32,
    )


def outlines(image: Image, hue_edges: bool = False) -> list[Quad]:
    """Card- or tile-shaped regions that differ from the surface (estimated at the photo's
    border), upright with the photo's top as up. Where the faces hardly differ from the
    surface (a white or marble table), their edges are looked at too (:func:`_by_edges`), and
    taken where they find over a quarter more objects (:data:`EDGES_BELOW`); ``hue_edges``
    (cards): the edges of the colour's difference from the surface as well."""
    h, w = image.shape[:2]
    scale = min(1.0, 1200 / max(h, w))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    dist = np.linalg.norm(lab - _surface(lab), axis=2)
    dist8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    diff = cv2.GaussianBlur(dist8, (5, 5), 0)
    level, mask = cv2.threshold(diff, 0, 255, cv2.THRESH_OTSU)
    k = max(3, int(0.004 * max(lab.shape[:2])) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = _sized(_shaped(contours, mask.size))
    if level < EDGE_LOOK_BELOW or cv2.countNonZero(mask) < EDGE_LOOK_COVER * mask.size:
        by_edges = _sized(_by_edges(small, diff if hue_edges else None))
        if len(found) < EDGES_BELOW * len(by_edges):
            found = by_edges
    up = np.array([0.0, -1.0])
    return [_upright(box / scale, up) for _, box in found]


def _surface(lab: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The surface's colour: the median of the photo's border strips (2% of its shorter
    side), where the player leaves the table bare."""
    b = max(2, int(0.02 * min(lab.shape[:2])))
    strips = (lab[:b], lab[-b:], lab[:, :b], lab[:, -b:])
    border = np.concatenate([strip.reshape(-1, 3) for strip in strips])
    return np.asarray(np.median(border, axis=0), np.float32)


def _sized(found: list[tuple[float, npt.NDArray[Any]]]) -> list[tuple[float, npt.NDArray[Any]]]:
    """The (area, box) pairs of about the deck's size: 0.5-1.8 times the median area of
    those at least a quarter as large as the largest tenth (a patterned table's squares can
    outnumber the cards, and must not set their size)."""
    if not found:
        return []
    areas = np.array([a for a, _ in found])
    median = float(np.median(areas[areas >= 0.25 * np.percentile(areas, 90)]))
    return [(a, box) for a, box in found if 0.5 * median < a < 1.8 * median]


def _shaped(contours: Sequence[Any], pixels: int) -> list[tuple[float, npt.NDArray[Any]]]:
    """(area, rotated box) of each contour shaped like a card or tile: large enough, filling
    its box, of a card's or tile's proportions (:data:`OBJECT_ASPECT`)."""
    lo, hi = OBJECT_ASPECT
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < pixels / 4000:
            continue
        rect = cv2.minAreaRect(c)
        rw, rh = rect[1]
        if rw * rh <= 0 or area / (rw * rh) < 0.8 or not lo < min(rw, rh) / max(rw, rh) < hi:
            continue
        out.append((area, cv2.boxPoints(rect)))
    return out


def _by_edges(small: Image, diff: Image | None = None) -> list[tuple[float, npt.NDArray[Any]]]:
    """Card-shaped regions closed by edges of the grey image (and of ``diff``, the colour's
    difference from the surface, where given), found at each of :data:`EDGE_LEVELS` (a faint
    side closes at a low level, a noisy surface breaks up less at a high one), the smallest
    of each nest kept: a face's edge gives an outer and an inner contour, the shadow it
    casts a larger one, and each level its own (the largest put the outlines of generated
    white layouts 5-19% too tall and 4-10 px off; the smallest, 1-3% short and 1-3 px off).
    A frame printed on a card is no nest's smallest member: it has no card's proportions."""
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    found = []
    for low, high in EDGE_LEVELS:
        canny = cv2.Canny(grey, low, high)
        if diff is not None:
            canny = cv2.bitwise_or(canny, cv2.Canny(diff, low, high))
        edges = cv2.dilate(canny, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        found += _sized(_shaped(contours, edges.size))
    kept: list[tuple[float, npt.NDArray[Any]]] = []
    for area, box in sorted(found, key=lambda ab: ab[0]):
        if not any(inside(box.mean(axis=0), other) for _, other in kept):
            kept.append((area, box))
    return kept


def grid_cells(quads: Sequence[Quad]) -> Capture:
    """Give each outline its (row, column) in a grid laid row by row: rows are bands a card
    apart, columns the median spacing of neighbours, counted from the leftmost and topmost
    object (so a gap left by a missing card keeps its place)."""
    if not quads:
        return Capture([])
    q = np.asarray(quads, np.float64)
    centres = q.mean(axis=1)
    heights = np.linalg.norm(q[:, 3] - q[:, 0], axis=1)
    widths = np.linalg.norm(q[:, 1] - q[:, 0], axis=1)
    # Undo the layout's slant so rows run along x.
    downs = (q[:, 3] + q[:, 2] - q[:, 0] - q[:, 1]) / 2
    slant = float(np.median(np.arctan2(downs[:, 0], downs[:, 1])))
    rot = np.array([[math.cos(slant), -math.sin(slant)], [math.sin(slant), math.cos(slant)]])
    p = centres @ rot.T
    h = float(np.median(heights))
    order = np.argsort(p[:, 1])
    row_of = np.zeros(len(p), int)
    row_y = [p[order[0], 1]]
    for i in order[1:]:
        if p[i, 1] - row_y[-1] > 0.5 * h:
            row_y.append(p[i, 1])
        row_of[i] = len(row_y) - 1
    xs = np.sort(p[:, 0])
    gaps = [float(d) for d in np.diff(xs) if d > 0.5 * np.median(widths)]
    nearest = [
        min(abs(p[j, 0] - p[i, 0]) for j in range(len(p)) if j != i and row_of[j] == row_of[i])
        for i in range(len(p))
        if int((row_of == row_of[i]).sum()) > 1
    ]
    # The median neighbour distance: one gap left by a missing card does not skew it.
    pitch = float(np.median(nearest)) if nearest else (min(gaps) if gaps else 1.25 * widths[0])
    pitch_y = float(np.median(np.diff(row_y))) if len(row_y) > 1 else 1.2 * h
    x0 = float(p[:, 0].min())
    placed = []
    for i in range(len(p)):
        row = round((row_y[row_of[i]] - row_y[0]) / pitch_y)
        col = round((p[i, 0] - x0) / pitch)
        placed.append(Placed(np.asarray(quads[i], np.float32), row, col))
    return Capture(placed)


def upright_patch(image: Image, quad: Quad, height: int, margin: float = 0.06) -> Image:
    """The object inside ``quad`` warped upright to ``height`` pixels, with a margin."""
    q = np.asarray(quad, np.float64)
    c = q.mean(axis=0)
    grown = (c + (q - c) * (1 + 2 * margin)).astype(np.float32)
    w = max(8, round(height * float(np.linalg.norm(q[1] - q[0]) / np.linalg.norm(q[3] - q[0]))))
    return crop(image, grown, (w, height))


def sharpness(image: Image, quads: Sequence[Quad], height: int = 200) -> float:
    """How sharp the laid-out objects are: the median over ``quads`` of the variance of the
    Laplacian of each object looked at upright ``height`` pixels tall (so the photo's size
    does not matter). Generated layouts: about 1,000 in focus, 40 when blurred."""
    if not quads:
        return 0.0
    values = [
        float(
            cv2.Laplacian(
                cv2.cvtColor(upright_patch(image, q, height), cv2.COLOR_BGR2GRAY), cv2.CV_64F
            ).var()
        )
        for q in quads
    ]
    return float(np.median(values))


def _enrolled_deck(patch: Image) -> list[Quad]:
    """A laid-out card's index proposals, faint print too, as the deck's reads will take them
    (:data:`vision.detect_cards.ENROLLED_INK_FLOOR`)."""
    return detect_cards.card_candidates(patch, ink_floor=detect_cards.ENROLLED_INK_FLOOR)


def _scored_proposals(
    patch: Image,
    propose: Callable[[Image], list[Quad]],
    size: tuple[int, int],
    none_score: NoneScore,
) -> tuple[list[Quad], npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """The detector's proposals on ``patch``, their crops, and how sure the model is that
    each is nothing."""
    proposals = propose(patch)
    if not proposals:
        return [], np.zeros((0,), np.uint8), np.zeros((0,), np.float32)
    batch = np.stack([crop(patch, p, size) for p in proposals])
    return proposals, batch, none_score(batch)


def card_index_crops(
    image: Image,
    quad: Quad,
    size: tuple[int, int],
    none_score: NoneScore,
    negatives: list[npt.NDArray[np.uint8]] | None = None,
    strict: bool = True,
    groups: tuple[list[int], list[int]] | None = None,
) -> list[npt.NDArray[np.uint8]]:
    """A card's corner indices as recogniser crops. The card is looked at upright at several
    sizes, because the detector frames an index differently as its glyphs grow apart or run
    together (a rank-suit pair, or one merged blob); in each index corner, the proposals the
    recogniser finds most object-like are kept. ``negatives``, when given, collects the
    most object-like proposals away from the corners (pips, court art): this deck's clutter.
    ``strict=False``: corner proposals up to 0.6 of the card tall, the model's opinion
    ignored (the fallback when the strict look finds nothing). ``groups``, when given,
    receives the size (its index in :data:`CARD_PATCH_HEIGHTS`) each crop and each clutter
    crop was cut at: crops of one size are near copies of each other."""
    out: list[npt.NDArray[np.uint8]] = []
    for size_index, height in enumerate(CARD_PATCH_HEIGHTS):
        before = (len(out), len(negatives) if negatives is not None else 0)
        patch = upright_patch(image, quad, height)
        ph, pw = patch.shape[:2]
        proposals, batch, p_none = _scored_proposals(patch, _enrolled_deck, size, none_score)
        if not proposals:
            continue
        for corner in ((0.0, 0.0), (1.0, 1.0)):  # top-left, and bottom-right (turned)
            fits = []
            for k, p in enumerate(proposals):
                cx, cy = p.mean(axis=0)
                if abs(cx / pw - corner[0]) > 0.35 or abs(cy / ph - corner[1]) > 0.25:
                    continue
                axis = (p[3] + p[2] - p[0] - p[1]) / 2
                length = float(np.linalg.norm(axis))
                # An index stands along the card's long side and is a few ranks tall.
                longest = 0.4 if strict else 0.6
                if abs(float(axis[1])) < 0.8 * length or not 0.08 * ph < length < longest * ph:
                    continue
                if float(p_none[k]) < MAX_NONE or not strict:
                    fits.append((float(p_none[k]), k))
            kept = [k for _, k in sorted(fits)[:PER_CORNER]]
            for k in kept:
                out += [batch[k], *jittered(patch, proposals[k], size)]
            if negatives is not None and kept and strict:
                # Near misses: proposals in the index corner that a read would not count as
                # the index (the rank or the suit alone, a frame a few times too small or
                # large). On the table such a part of an index is nearer the enrolled index
                # than any pip, so without these it was read as a card beside the index
                # (measured: most of the unseen deck's spurious reads).
                near = [
                    (float(p_none[k]), k)
                    for k, p in enumerate(proposals)
                    if k not in kept
                    and abs(p.mean(axis=0)[0] / pw - corner[0]) < 0.35
                    and abs(p.mean(axis=0)[1] / ph - corner[1]) < 0.25
                    and _part_of(p, [proposals[j] for j in kept])
                ]
                for _, k in sorted(near)[:NEAR_MISSES]:
                    negatives += [batch[k], *jittered(patch, proposals[k], size, NEAR_JITTERS)]
        if negatives is not None:
            away = [
                (float(p_none[k]), k)
                for k, p in enumerate(proposals)
                if 0.3 < p.mean(axis=0)[1] / ph < 0.7 or 0.4 < p.mean(axis=0)[0] / pw < 0.6
            ]
            for _, k in sorted(away)[:NEGATIVES]:
                negatives += [batch[k], *jittered(patch, proposals[k], size)]
        if groups is not None:
            groups[0].extend([size_index] * (len(out) - before[0]))
            if negatives is not None:
                groups[1].extend([size_index] * (len(negatives) - before[1]))
    if not out and strict:
        # No index the model finds object-like (a joker spelt downwards, taller than a rank
        # and suit; a rune the model calls nothing): the corner proposals of index shape
        # whatever the model thinks, rather than leaving a card of the deck out (a profile
        # without it names that card as its nearest neighbour).
        return card_index_crops(image, quad, size, none_score, None, False, groups)
    return out


def _number_proposals(image: Image) -> list[Quad]:
    """The tile proposals framed from numbers, not from faces alone: a layout's face frames
    are all well framed, so enrolled with them the deck's gate sat higher than the frames
    read on a table reach (dev seeds, layout 11, 20 scenes, with a tiles model trained on
    the face proposals: 82.1% right, 2.3% spurious with them, 85.4%, 4.9% without; with the
    2026-11-22 model 87.0%, 1.2% against 87.3%, 1.6%; reads keep the face proposals). Nor the
    joker rings, as training leaves them out: dev seeds, layouts 11-13, 60 scenes, with them
    1418 right and 17 spurious, without 1426 and 15 (reads keep the rings)."""
    return detect_tiles.tile_candidates(image, faces_too=False, read_time=False)


def tile_crops(
    image: Image,
    quad: Quad,
    size: tuple[int, int],
    none_score: NoneScore,
    negatives: list[npt.NDArray[np.uint8]] | None = None,
    groups: tuple[list[int], list[int]] | None = None,
) -> list[npt.NDArray[np.uint8]]:
    """A tile as recogniser crops: the detector's proposals on the tile, looked at upright at
    the sizes tiles have in play photos (the detector frames a tile from its face, or from
    its number's size, which then sits in the middle), the most object-like first, then the
    tile's own outline (:data:`OUTLINE_TOO`). ``negatives``, when given, collects the most
    object-like proposals on the tile that a read would not count as the tile (a maker's
    bar, one star of a double joker, a number framed sideways): this deck's clutter.
    ``groups``: as for :func:`card_index_crops`."""
    out: list[npt.NDArray[np.uint8]] = []
    for size_index, height in enumerate(TILE_PATCH_HEIGHTS):
        before = (len(out), len(negatives) if negatives is not None else 0)
        patch = upright_patch(image, quad, 2 * height, margin=0.5)
        ph, pw = patch.shape[:2]
        proposals, batch, p_none = _scored_proposals(patch, _number_proposals, size, none_score)
        if not proposals:
            continue
        fits = []
        for k, p in enumerate(proposals):
            cx, cy = p.mean(axis=0)
            axis = (p[3] + p[2] - p[0] - p[1]) / 2
            length = float(np.linalg.norm(axis))
            centred = abs(cx / pw - 0.5) < 0.2 and abs(cy / ph - 0.5) < 0.25
            # Upright (either way up) and about a tile tall: the tile is half the patch.
            if centred and abs(float(axis[1])) > 0.8 * length and 0.25 * ph < length < 0.8 * ph:
                fits.append((float(p_none[k]), k))
        for _, k in sorted(fits)[:PER_CORNER]:
            out += [batch[k], *jittered(patch, proposals[k], size)]
        if negatives is not None:
            tile = np.array(
                [
                    [pw / 4, ph / 4],
                    [3 * pw / 4, ph / 4],
                    [3 * pw / 4, 3 * ph / 4],
                    [pw / 4, 3 * ph / 4],
                ],
                np.float32,
            )
            away = [
                (float(p_none[k]), k)
                for k, p in enumerate(proposals)
                if inside(p.mean(axis=0), tile) and not same_object(p, tile)
            ]
            for _, k in sorted(away)[:NEGATIVES]:
                negatives += [batch[k], *jittered(patch, proposals[k], size)]
        if groups is not None:
            groups[0].extend([size_index] * (len(out) - before[0]))
            if negatives is not None:
                groups[1].extend([size_index] * (len(negatives) - before[1]))
    if out and OUTLINE_TOO:
        # Reads frame tiles from their faces too (detect_tiles.face_tiles): with the number
        # proposals alone, such a framing had no near example of its own tile.
        outline = [crop(image, quad, size), *jittered(image, quad, size)]
        out += outline
        if groups is not None:
            groups[0].extend([len(TILE_PATCH_HEIGHTS)] * len(outline))
    if not out:
        # The detector frames no tile here (a pale ink it finds too faint on this deck): the
        # tile's own outline, which a read's face framing matches, rather than leaving a tile
        # of the deck out (a profile without it names that tile as its nearest neighbour).
        out = [crop(image, quad, size), *jittered(image, quad, size)]
        if groups is not None:
            groups[0].extend([0] * len(out))
    return out


def _part_of(p: Quad, indices: Sequence[Quad]) -> bool:
    """Whether proposal ``p`` lies on one of ``indices`` (its centre inside it, grown by
    half) without being framed as it (:func:`vision.matching.same_object`)."""
    return not any(same_object(p, q) for q in indices) and any(
        inside(p.mean(axis=0), q, 1.5) for q in indices
    )


def jittered(
    image: Image, quad: Quad, size: tuple[int, int], n: int | None = None, seed: int = 0
) -> list[npt.NDArray[np.uint8]]:
    """``n`` crops of ``quad`` shifted, scaled and turned a little, as the detector's quads
    vary from photo to photo: the profile then holds the spread a read will meet."""
    rng = np.random.default_rng(seed)
    q = np.asarray(quad, np.float64)
    c = q.mean(axis=0)
    side = float(np.linalg.norm(q[1] - q[0]))
    out = []
    for _ in range(JITTERS if n is None else n):
        a = math.radians(rng.normal(0, 4))
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        moved = c + ((q - c) @ rot.T) * rng.uniform(0.9, 1.1) + rng.normal(0, 0.06 * side, 2)
        out.append(crop(image, moved.astype(np.float32), size))
    return out


def with_half_turns(crops: list[npt.NDArray[np.uint8]]) -> list[npt.NDArray[np.uint8]]:
    """Each crop and the same crop upside down (a read may see either)."""
    return [c2 for c in crops for c2 in (c, np.ascontiguousarray(c[::-1, ::-1]))]
