"""Where are Cactus cards? Their name bands, and the whole card each band belongs to.

Every Cactus card prints its name white on a solid coloured band that spans the card's width
(at the top or the bottom of the face, by deck). On a discard pile only the top card shows
whole, but the band of a card below often peeks out; in a row every card shows. So the band,
not the card outline, is what is looked for:

* **colourful solid rectangles**: saturated pixels, the white lettering closed over, thin lines
  (the card's coloured outline, which touches the band, and the outline of a card lying on top)
  opened away; what is left and is a filled rectangle about three times as wide as tall is a
  band. Done at two opening sizes so small and large cards both survive.
* **the card from its band**: the band's long side is the card's width; the card extends from
  the band towards the side where the card's coloured outline runs on (it stops a few pixels
  past the band's other side, at the card's end).

Band quads come upright or upside down (the recogniser reads both turns and says which).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Quad = NDArray[np.float64]

WORK_SIDE = 800  # proposals are made on the image scaled so its longer side is this
BAND_ASPECT = (1.9, 4.6)  # band width / height (a band is 0.85 x 0.22 of a 63 x 88 card)
MIN_BAND_H, MAX_BAND_H = 7, 120  # at WORK_SIDE
CARD_ASPECT = 63 / 88
BAND = (0.075, 0.05, 0.925, 0.27)  # the band on an upright face whose name is at the top


def _working(image: Image) -> tuple[Image, float]:
    f = min(1.0, WORK_SIDE / max(image.shape[:2]))
    if f >= 1:
        return image, 1.0
    return np.asarray(
        cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), np.uint8
    ), f


def colour_mask(image: Image) -> Image:
    """255 where the print is coloured: saturated, neither paper nor a grey or dark table."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    return np.asarray(((s >= 70) & (v >= 45)).astype(np.uint8) * 255, np.uint8)


def print_mask(image: Image, far: float = 28.0) -> Image:
    """:func:`colour_mask` without the table: pixels whose colour is ``far`` (Lab distance)
    from the table's (the median colour of the image's border, where cards seldom lie)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    b = max(2, min(image.shape[:2]) // 40)
    ring = np.concatenate(
        [lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3)]
    )
    table = np.median(ring, axis=0)
    off = np.linalg.norm(lab - table, axis=2) > far
    return np.asarray(cv2.bitwise_and(colour_mask(image), off.astype(np.uint8) * 255), np.uint8)


def _rect_quad(rect: Any) -> Quad:
    """TL TR BR BL of a rotated rectangle with its long side as the top edge."""
    (cx, cy), (w, h), angle = rect
    if h > w:
        w, h, angle = h, w, angle + 90.0
    a = np.deg2rad(angle)
    ux = np.array([np.cos(a), np.sin(a)])
    if ux[0] < 0:  # keep "right" pointing right so the quad starts upright-ish
        ux = -ux
    uy = np.array([-ux[1], ux[0]])
    c = np.array([cx, cy])
    return np.array(
        [
            c - ux * w / 2 - uy * h / 2,
            c + ux * w / 2 - uy * h / 2,
            c + ux * w / 2 + uy * h / 2,
            c - ux * w / 2 + uy * h / 2,
        ]
    )


def _bars(mask: Image, f: float, seen: list[NDArray[np.float64]]) -> list[Quad]:
    """Filled rectangles about three times as wide as tall in ``mask`` (at working scale
    ``f``), opened at two sizes; ``seen`` (centre, long, short of those already found) grows."""
    out: list[Quad] = []
    for k in (5, 9):
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if len(c) < 4:
                continue
            rect = cv2.minAreaRect(c)
            w, h = rect[1]
            long, short = max(w, h), min(w, h)
            if not MIN_BAND_H <= short <= MAX_BAND_H or short < k + 2:
                continue
            if not BAND_ASPECT[0] <= long / short <= BAND_ASPECT[1]:
                continue
            # A filled rectangle: the contour (its lettering closed over) fills its box.
            if cv2.contourArea(cv2.convexHull(c)) < 0.8 * long * short:
                continue
            if cv2.contourArea(c) < 0.6 * long * short:
                continue
            key = np.array([rect[0][0], rect[0][1], long, short])
            if any(np.all(np.abs(key - s) < [3, 3, 4, 3]) for s in seen):
                continue
            seen.append(key)
            out.append(_rect_quad(rect) / f)
    return out


def band_candidates(image: Image) -> list[Quad]:
    """Quads (TL TR BR BL, image pixels, long side on top) of what may be name bands."""
    small, f = _working(image)
    mask = print_mask(small)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), np.uint8)
    return _bars(mask, f, [])


def covered_band_candidates(image: Image, known: list[Quad] | None = None) -> list[Quad]:
    """More bars, for reading only (the recogniser's training crops come from
    :func:`band_hypotheses` without them, so the shipped model's recipe is unchanged).

    A name band under the top of a pile often touches the coloured outline of the card lying
    over it, one or two pixels of that card's paper edge apart: :func:`band_candidates`
    closes that gap and the two merge into no rectangle. Here the mask is left unclosed. And a
    band close in colour to the table drops out of :func:`print_mask`: here it is looked at
    with a nearer bar to the table's colour too, and in :func:`colour_mask` (the table kept).
    On fresh tables (seeds 930 000-099 training hues, 940 000-099 held-out hues) these bring
    5 of the 7 must-read names no band was proposed for. Near copies of a ``known`` bar are
    left out."""
    small, f = _working(image)
    seen = [
        np.array(
            [
                *(q.mean(axis=0) * f),
                np.linalg.norm(q[1] - q[0]) * f,
                np.linalg.norm(q[3] - q[0]) * f,
            ]
        )
        for q in known or []
    ]
    colour = colour_mask(small)
    d2 = _table_distance_sq(small)
    masks = [colour & ((d2 > far**2).astype(np.uint8) * 255) for far in (28.0, 20.0)]
    return [q for m in [*masks, colour] for q in _bars(np.asarray(m, np.uint8), f, seen)]


def _table_distance_sq(image: Image) -> NDArray[np.float32]:
    """Squared Lab distance of every pixel from the table's colour (as :func:`print_mask`
    measures it, in OpenCV's channel arithmetic: a third of the time, looked at twice)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    b = max(2, min(image.shape[:2]) // 40)
    ring = np.concatenate(
        [lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3)]
    )
    table = np.median(ring.astype(np.float32), axis=0)
    diff = cv2.subtract(lab.astype(np.float32), np.full(lab.shape, table, np.float32))
    sq = cv2.multiply(diff, diff)
    return np.asarray(cv2.transform(sq, np.ones((1, 3), np.float32)), np.float32)


def card_from_band(band: Quad, name_at_top: bool) -> Quad:
    """The whole card (TL TR BR BL, upright as the band reads) of an upright band quad."""
    x0, y0, x1, y1 = BAND if name_at_top else (BAND[0], 1 - BAND[3], BAND[2], 1 - BAND[1])
    # The band's corners are the face points (x0,y0) (x1,y0) (x1,y1) (x0,y1): invert that map.
    src = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(band, np.float32))
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(unit, m), np.float64).reshape(4, 2)


def _card_points(
    card: Quad, along: Iterable[float], across: Iterable[float]
) -> Iterator[tuple[int, int]]:
    """Pixel points of a card: at each fraction ``along`` its length (top to bottom), each
    fraction ``across`` its width (left to right)."""
    across = tuple(across)
    for t in along:
        left = card[0] + (card[3] - card[0]) * t
        right = card[1] + (card[2] - card[1]) * t
        for xr in across:
            x, y = (round(float(v)) for v in left + (right - left) * xr)
            yield x, y


def outline_runs_down(mask: Image, band: Quad) -> float:
    """Evidence (-1 to 1) that the card lies below an upright band rather than above it: how
    much more of the card's coloured outline (``mask``: :func:`colour_mask` of the image) runs
    along the card's sides below the band than above it."""
    h, w = mask.shape[:2]

    def side_ink(card: Quad) -> float:
        # Points just inside the card's left and right edges, over the middle of the card
        # (30%-70% of its length): the outline is there only if the card is.
        hits = []
        for x, y in _card_points(card, np.linspace(0.3, 0.7, 9), (0.05, 0.95)):
            inside = 0 <= x < w and 0 <= y < h
            patch = mask[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2] if inside else None
            hits.append(float(patch is not None and patch.size > 0 and patch.max() > 0))
        return float(np.mean(hits))

    return side_ink(card_from_band(band, True)) - side_ink(card_from_band(band, False))


def paper_runs_down(paper: Image, band: Quad) -> float:
    """Evidence (-1 to 1) that the card lies below an upright band rather than above it: how
    much more of the middle of the card's body is pale paper (``paper``: :func:`paper_mask`
    of the image) below the band than above it. Where the table and the deck's ink are close
    in colour the outline drops out of :func:`print_mask`, but the paper still shows."""
    h, w = paper.shape[:2]

    def paper_share(card: Quad) -> float:
        points = _card_points(card, np.linspace(0.4, 0.7, 4), (0.2, 0.35, 0.5, 0.65, 0.8))
        hits = [float(0 <= x < w and 0 <= y < h and paper[y, x] > 0) for x, y in points]
        return float(np.mean(hits))

    return paper_share(card_from_band(band, True)) - paper_share(card_from_band(band, False))


BODY = (0.075, 0.27, 0.925, 0.946)  # the paper inside the outline, below a top band


def paper_mask(image: Image) -> Image:
    """255 on pale, unsaturated paper: the brightest neutral part of the image."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    level = max(110.0, 0.78 * float(np.percentile(v, 99.5)))
    return np.asarray(((s < 60) & (v >= level)).astype(np.uint8) * 255, np.uint8)


def _turned(quad: Quad, k: int) -> Quad:
    return np.roll(quad, -k, axis=0)


def band_from_body(body: Quad) -> Quad:
    """The band that would sit on the top side of an upright ``body`` quad (top style)."""
    x0, y0, x1, y1 = BODY
    src = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(body, np.float32))
    bx0, by0, bx1, by1 = BAND
    band = np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]], np.float32)
    return np.asarray(cv2.perspectiveTransform(band.reshape(-1, 1, 2), m), np.float64).reshape(4, 2)


def _outer_contours(mask: Image) -> list[NDArray[np.int32]]:
    """The outer boundary of every connected region, those lying in another's hole included
    (a card's body inside a pale table that counts as paper too)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    return [np.asarray(c) for c, h in zip(contours, hierarchy[0], strict=True) if h[3] < 0]


def body_candidates(image: Image) -> list[Quad]:
    """Quads of card bodies: the paper a card's coloured outline and band enclose. Their turn
    is unknown (a body is nearly square)."""
    small, f = _working(image)
    paper = cv2.morphologyEx(paper_mask(small), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours = _outer_contours(np.asarray(paper, np.uint8))
    out: list[Quad] = []
    for c in contours:
        if len(c) < 4:
            continue
        rect = cv2.minAreaRect(c)
        w, h = rect[1]
        long, short = max(w, h), min(w, h)
        if short < 3 * MIN_BAND_H or long > 0.9 * max(small.shape[:2]):
            continue
        if long / short > 1.4 or cv2.contourArea(c) < 0.82 * w * h:
            continue
        out.append(np.asarray(cv2.boxPoints(rect), np.float64) / f)
    return out


def edge_bands(image: Image) -> list[Quad]:
    """Bands beside straight edges of paper: a card half hidden under others still shows the
    paper of its body along its band, and the band is as wide as that edge (0.36 of it high,
    as the layout has it). Quads upright with the paper below."""
    small, f = _working(image)
    paper = cv2.morphologyEx(paper_mask(small), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours = _outer_contours(np.asarray(paper, np.uint8))
    ratio = (BAND[3] - BAND[1]) / (BAND[2] - BAND[0]) / CARD_ASPECT
    out: list[Quad] = []
    for c in contours:
        if cv2.contourArea(c) < (3 * MIN_BAND_H) ** 2:
            continue
        poly = cv2.approxPolyDP(c, 0.03 * cv2.arcLength(c, True), True).reshape(-1, 2)
        if len(poly) < 3:
            continue
        poly = poly.astype(np.float64)
        centre = poly.mean(axis=0)
        for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
            length = float(np.linalg.norm(b - a))
            if length < 3 * MIN_BAND_H or length > 0.5 * max(small.shape[:2]):
                continue
            along = (b - a) / length
            out_dir = np.array([along[1], -along[0]])
            if float((a + b) / 2 @ out_dir - centre @ out_dir) < 0:
                out_dir = -out_dir  # the normal pointing away from the paper
            # Upright band (paper below it): its bottom edge is the paper's edge.
            right = -np.array([out_dir[1], -out_dir[0]])
            mid = (a + b) / 2
            half = right * length / 2
            height = out_dir * length * ratio
            bl, br = mid - half, mid + half
            out.append(np.array([bl + height, br + height, br, bl]) / f)
    return out


def band_hypotheses(image: Image, covered: bool = False) -> list[tuple[Quad, list[Quad]]]:
    """(band quad, the cards it may belong to) to check, every band quad upright as its card
    would read: each side of every body with the band on it, both ways up (the card is then
    known), and colourful bars both ways up (the card lies below or above the band);
    ``covered`` adds :func:`covered_band_candidates` as bars (reading, not training)."""
    out: list[tuple[Quad, list[Quad]]] = []
    for body in body_candidates(image):
        for k in range(4):
            band = band_from_body(_turned(body, k))
            out.append((band, [card_from_band(band, True)]))
            flipped = _turned(band, 2)
            out.append((flipped, [card_from_band(flipped, False)]))
    bars = band_candidates(image)
    if covered:
        bars += covered_band_candidates(image, bars)
    for band in bars:
        for k in (0, 2):
            b = _turned(band, k)
            out.append((b, [card_from_band(b, True), card_from_band(b, False)]))
    for band in edge_bands(image):
        # Paper below the band: the name is at the card's top if the band reads upright,
        # else at its bottom (the band upside down).
        out.append((band, [card_from_band(band, True)]))
        flipped = _turned(band, 2)
        out.append((flipped, [card_from_band(flipped, False)]))
    return out
