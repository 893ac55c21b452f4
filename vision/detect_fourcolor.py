"""Where could a Four Color card's character be? Candidate quads for the recogniser.

Four Color cards are pale paper strips with one large character at each end. Four proposers,
whose candidates are pooled (the recogniser's ``none`` class and overlap suppression sort
them out, as for the other decks):

* **ink on paper**: printed strokes (darker or more colourful than their surroundings) that lie
  inside a pale card face. Restricting ink to the faces removes what breaks a plain ink
  detector here: the table showing through the narrow gaps of a meld is "colourful" against
  the white cards and would join the characters into one long blob. Strokes are then merged
  into characters by dilation at three sizes, since a character's strokes do not touch.
  When reading, the same is done once more with the long straight ink runs taken out (card
  edges): a large character whose strokes touch its card's outline was one component with
  the card's edges, too large for a character.
* **stroke groups**: ink components that are not lines, merged while the group stays the size
  of a character; this keeps apart characters that a dilation would join.
* **dark badges**: some decks print the white suit as a white character on a dark disc, which
  is not paper and not a stroke; compact round blobs, dark outright or much darker than the
  paper around them (under glare), are proposed as they are.
* **ink-density peaks**: where a character-sized window holds the most ink, at four sizes;
  this separates the characters of a fanned hand, which touch their neighbours', and a row of
  touching characters is also split into character-sized squares.

Over 20 generated tables (1000 x 750, seeds 500-519), counting a card as found when one of
its characters at least 60% uncovered gets a square of about its size near its centre: meld
cards 100/100, fanned cards 87/91 (69% before the density peaks and the row split, which
raised the proposals per image from about 75 to 114). Quads are squares around the character,
turned to its strokes (the minimum-area rectangle) or upright, so the recogniser looks at four
turns of each (and :mod:`vision.fourcolor_read` then re-reads each find square to its strokes
and looks beside it for neighbours the proposers missed).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Quad = NDArray[np.float64]

WORK_SIDE = 640  # proposals are made on the image scaled so its longer side is this
MIN_SIDE, MAX_SIDE = 12, 80  # character size at WORK_SIDE, pixels


def _ink(image: Image, stroke: int = 15) -> Image:
    """255 where ink is: darker than, or more colourful than, the surroundings."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (stroke, stroke))
    dark = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, k)
    b, g, r = cv2.split(image)  # OpenCV's per-pixel max/min: numpy's axis=2 reduce is slow
    sat = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    colourful = cv2.morphologyEx(sat, cv2.MORPH_TOPHAT, k)
    score = cv2.max(dark, colourful)
    _, mask = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask[score < 28] = 0
    return np.asarray(mask, np.uint8)


def _paper(v: Image, s: Image, level: Image | int) -> Image:
    """255 on pale, unsaturated pixels at least ``level`` bright, printed holes filled."""
    paper = ((v >= level) & (s < 70)).astype(np.uint8) * 255
    paper = np.asarray(
        cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), np.uint8
    )
    h, w = paper.shape
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(paper))
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    # A hole in the paper (printing): inside the image and small.
    hole = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (area < 0.02 * h * w)
    hole[0] = False
    return np.where(hole[labels], np.uint8(255), paper).astype(np.uint8)


LIGHT_WINDOW = 4  # the local brightness level is taken over 1/4 of the image's longer side


def faces(image: Image, local_light: bool = False) -> Image:
    """Pale, unsaturated paper with its printed holes filled: where card faces are.

    Paper is at least as bright as the image's 60th percentile, and with ``local_light`` also
    where it is as bright as the mean brightness around it: on a pale table lit unevenly, one
    global level takes the lit half of the table for paper and loses the cards on the darker
    half (measured on fresh generated tables, seeds 930000-39 and 940000-29: a third of the
    cards missed, a whole hand or meld at a time). Proposals want that; measuring where a
    card's paper ends does not (the table around takes the local level too)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    v, s = np.asarray(hsv[..., 2], np.uint8), np.asarray(hsv[..., 1], np.uint8)
    level = min(235, max(150, int(np.percentile(v, 60))))
    filled = _paper(v, s, level)
    if local_light:
        k = max(v.shape) // LIGHT_WINDOW | 1
        local = np.clip(cv2.blur(v, (k, k)), 150, 235).astype(np.uint8)
        filled = np.asarray(cv2.bitwise_or(filled, _paper(v, s, local)), np.uint8)
    return np.asarray(cv2.erode(filled, np.ones((3, 3), np.uint8)), np.uint8)


def _square(cx: float, cy: float, side: float, angle: float) -> Quad:
    return np.asarray(cv2.boxPoints(((cx, cy), (side, side), angle)), np.float64)


def _split_row(centre: tuple[float, float], size: tuple[float, float], angle: float) -> list[Quad]:
    """Squares along the long axis of a row of touching characters, one per character."""
    rw, rh = size
    a = np.deg2rad(angle if rw >= rh else angle + 90.0)
    along = np.array([np.cos(a), np.sin(a)])
    long, short = max(rw, rh), min(rw, rh)
    n = max(2, round(long / short))
    step = long / n
    c = np.asarray(centre, np.float64)
    out = []
    for k in range(n):
        x, y = c + along * (k + 0.5 - n / 2) * step
        out.append(_square(float(x), float(y), max(step, short) * 1.15, angle))
    return out


# Straight ink runs at least this long (WORK_SIDE pixels) are taken for card edges. Chosen on
# 240 fresh generated tables (seeds 960 000+60 and 1 100 000+60 with the training fonts,
# 970 000+60 and 1 200 000+60 with the held-out ones): right 2824 -> 2838 / 2836 / 2837 with
# 30 / 40 / 50, spurious 46 -> 37 / 31 / 33.
EDGE_RUN = 40


def without_edges(strokes: Image) -> Image:
    """The stroke mask less its straight runs of :data:`EDGE_RUN` pixels or more (a card's
    long edges, a meld's gaps), cut 3 px wide. Characters of a usual size have no stroke
    that long; where a close-up's has, only the extra proposals of this mask are lost."""
    runs = cv2.HoughLinesP(
        strokes, 1, np.pi / 180, threshold=EDGE_RUN // 2, minLineLength=EDGE_RUN, maxLineGap=2
    )
    out = strokes.copy()
    for xa, ya, xb, yb in [] if runs is None else runs[:, 0].tolist():
        cv2.line(out, (xa, ya), (xb, yb), 0, 3)
    return out


def _stroke_boxes(mask: Image, max_side: int = 60) -> NDArray[np.float64]:
    """Boxes (x0, y0, x1, y1) of ink components that could be strokes of a character: not too
    big, not hair-thin lines (wood grain, card edges, the gaps of a meld)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if not 2 <= max(w, h) <= max_side:
            continue
        _, (rw, rh), _ = cv2.minAreaRect(c)
        if max(rw, rh) > 12 * max(min(rw, rh), 1.0):
            continue
        out.append((x, y, x + w, y + h))
    return np.asarray(out, np.float64).reshape(-1, 4)


def _group_strokes(boxes: NDArray[np.float64], cap: float = 48) -> list[NDArray[np.float64]]:
    """Merge stroke boxes that touch (within a gap of 1, then 2, then 3 px) as long as the
    merged box stays character-sized: strokes of one character, not of its neighbours."""
    n = len(boxes)
    parent = list(range(n))
    extent = {i: boxes[i].copy() for i in range(n)}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = [int(i) for i in np.argsort(boxes[:, 0])]
    for gap in (1, 2, 3):
        for k, i in enumerate(order):
            for j in order[k + 1 :]:
                if boxes[j, 0] - gap - cap > boxes[i, 2]:
                    break  # sorted by left edge: nothing further can touch
                ri, rj = root(i), root(j)
                if ri == rj:
                    continue
                a, b = extent[ri], extent[rj]
                if a[0] - gap > b[2] or b[0] - gap > a[2] or a[1] - gap > b[3] or b[1] - gap > a[3]:
                    continue
                merged = np.array(
                    [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                )
                if max(merged[2] - merged[0], merged[3] - merged[1]) > cap:
                    continue
                parent[rj] = ri
                extent[ri] = merged
    return [extent[r] for r in {root(i) for i in range(n)}]


BADGE_CIRCLES = 40  # the most circles taken as badges per image
PEAK_SIDES = (18, 24, 31, 40)  # window sides at WORK_SIDE for ink-density peaks
PEAK_INK = 0.12  # least share of a window that is ink for a peak to count


def _dense_peaks(strokes: Image, known: list[Quad]) -> list[Quad]:
    """Upright squares where the ink of a window of a character's size peaks: finds the
    characters whose strokes touch their neighbours' (the tops of a fanned hand), which no
    component analysis separates. Squares close to an existing proposal are skipped."""
    ink = (strokes > 0).astype(np.float32)
    centres = np.array([q.mean(axis=0) for q in known]).reshape(-1, 2)
    sides = np.array([float(np.linalg.norm(q[1] - q[0])) for q in known])
    out: list[Quad] = []
    for side in PEAK_SIDES:
        density = cv2.boxFilter(ink, -1, (side, side))
        k = max(3, int(side * 0.6) | 1)
        peaks = (density >= cv2.dilate(density, np.ones((k, k), np.uint8))) & (density >= PEAK_INK)
        ys, xs = np.nonzero(peaks)
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            c = np.array([x, y], np.float64)
            if len(centres):
                near = np.linalg.norm(centres - c, axis=1) < 0.3 * side
                alike = np.abs(sides - side * 1.1) < 0.35 * side
                if np.any(near & alike):
                    continue
            out.append(_square(x, y, side * 1.1, 0.0))
            centres = np.vstack([centres, c])
            sides = np.append(sides, side * 1.1)
    return out


def candidates(image: Image, read_time: bool = True) -> list[Quad]:
    """Square quads (TL TR BR BL, image pixels) where a character may be. ``read_time``:
    also the characters found with the card edges taken out (:func:`without_edges`);
    training leaves them out, as the shipped model learnt without them."""
    side = max(image.shape[:2])
    f = min(1.0, WORK_SIDE / side)
    small = (
        np.asarray(cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), np.uint8)
        if f < 1
        else image
    )
    face = faces(small, local_light=True)
    ink15 = _ink(small, 15)
    strokes = cv2.bitwise_and(ink15, face)
    out: list[Quad] = []
    masks = [strokes, without_edges(np.asarray(strokes, np.uint8))] if read_time else [strokes]
    seen: set[tuple[int, ...]] = set()  # components met already: the cut leaves most as they were
    for mask, d in [(m, d) for m in masks for d in (3, 5, 8)]:
        grown = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(grown)
        for i in range(1, n):
            x, y, w, h, area = (int(v) for v in stats[i])
            if not MIN_SIDE <= max(w, h) <= MAX_SIDE or (d, x, y, w, h, area) in seen:
                continue
            seen.add((d, x, y, w, h, area))
            inside = (labels[y : y + h, x : x + w] == i) & (mask[y : y + h, x : x + w] > 0)
            pts = np.column_stack(np.nonzero(inside))[:, ::-1] + [x, y]
            if len(pts) < 10:
                continue
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts.astype(np.float32))
            long, short = max(rw, rh), max(min(rw, rh), 1.0)
            if long <= 2.2 * short:
                out.append(_square(cx, cy, long * 1.2, angle) / f)
            elif short >= MIN_SIDE and long <= 5.5 * short:
                # Characters side by side that touch (the tops of a fanned hand): one square
                # per character-sized step along the row.
                out += [q / f for q in _split_row((cx, cy), (rw, rh), angle)]
    for stroke in (9, 15):
        ink = ink15 if stroke == 15 else _ink(small, stroke)
        for mask in (ink, np.asarray(cv2.bitwise_and(ink, face), np.uint8)):
            for box in _group_strokes(_stroke_boxes(mask)):
                w, h = box[2] - box[0], box[3] - box[1]
                size = max(w, h)
                if size >= 10 and min(w, h) >= 0.45 * size:
                    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                    out.append(_square(cx, cy, size * 1.2, 0.0) / f)
    out += [q / f for q in _dense_peaks(np.asarray(strokes, np.uint8), [q * f for q in out])]
    grey = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), np.uint8)
    # Dark outright, or much darker than the paper around it (a badge under glare).
    deep = _paper_around(grey) > grey.astype(np.int16) + 70
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    for dark_px in ((grey < 100), deep):
        dark = np.asarray(
            cv2.morphologyEx(dark_px.astype(np.uint8) * 255, cv2.MORPH_CLOSE, disc), np.uint8
        )
        out += _round_blobs(dark, f)
    # Badges touching the edge of their card run into a dark table: their round rim still shows.
    circles = cv2.HoughCircles(
        cv2.GaussianBlur(grey, (5, 5), 1.5),
        cv2.HOUGH_GRADIENT,
        dp=1.5,
        minDist=MIN_SIDE,
        param1=120,
        param2=40,
        minRadius=MIN_SIDE // 2,
        maxRadius=MAX_SIDE // 2,
    )
    if circles is not None:
        for x, y, r in circles[0][:BADGE_CIRCLES]:
            inside = grey[
                max(0, int(y - r / 2)) : int(y + r / 2) + 1,
                max(0, int(x - r / 2)) : int(x + r / 2) + 1,
            ]
            if inside.size and float(np.median(inside)) < 110:  # a dark disc, not a ring of ink
                out.append(_square(float(x), float(y), 2 * float(r) * 1.05, 0.0) / f)
    return out


def _paper_around(grey: Image) -> NDArray[np.int16]:
    """The brightness of the paper around each pixel: a closing by a disc a character wide
    (what a badge sits in). Closed at half the resolution and scaled back: a disc this large
    is not separable, and at full size it cost about half of all proposing (25 of 50 ms)."""
    h, w = grey.shape
    half = cv2.resize(grey, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (MAX_SIDE // 4 * 2 + 1,) * 2)
    closed = cv2.morphologyEx(half, cv2.MORPH_CLOSE, disc)
    return np.asarray(cv2.resize(closed, (w, h), interpolation=cv2.INTER_LINEAR), np.int16)


def _round_blobs(dark: Image, f: float) -> list[Quad]:
    """Squares around compact round blobs of ``dark`` (badges), in image pixels. A badge's
    white character is a hole in it: the blob is measured with its holes filled."""
    out: list[Quad] = []
    contours, hierarchy = cv2.findContours(dark, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return out
    for c, link in zip(contours, hierarchy[0], strict=True):
        if link[3] >= 0:
            continue  # a hole's boundary
        x, y, w, h = cv2.boundingRect(c)
        size = max(w, h)
        area = cv2.contourArea(c)
        round_enough = area >= 0.55 * np.pi * (size / 2) ** 2 and min(w, h) >= 0.6 * size
        if MIN_SIDE <= size <= MAX_SIDE and round_enough:
            out.append(_square(x + w / 2, y + h / 2, size * 1.05, 0.0) / f)
    return out
