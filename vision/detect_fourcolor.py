"""Where could a Four Color card's character be? Candidate quads for the recogniser.

Four Color cards are pale paper strips with one large character at each end. Two proposers,
whose candidates are pooled (the recogniser's ``none`` class and overlap suppression sort
them out, as for the other decks):

* **ink on paper**: printed strokes (darker or more colourful than their surroundings) that lie
  inside a pale card face. Restricting ink to the faces removes what breaks a plain ink
  detector here: the table showing through the narrow gaps of a meld is "colourful" against
  the white cards and would join the characters into one long blob. Strokes are then merged
  into characters by dilation at three sizes, since a character's strokes do not touch.
* **dark badges**: some decks print the white suit as a white character on a dark disc, which
  is not paper and not a stroke; compact dark round blobs are proposed as they are.

A first proposer, not yet good enough to read by: over 20 generated tables (1000 x 750, seeds
500-519) it found 67% of the meld characters and 68% of the fanned ones, with 23 proposals
and 80 ms per image; how well depends much on the deck style (dark badges and touching fanned
characters are missed). Pooled with stroke-glyph grouping (the base detector's glyphs) it
found 91% and 75%. Quads are squares around the character, turned to its strokes (the
minimum-area rectangle), so the recogniser sees the character in one of four turns.
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
    sat = cv2.subtract(image.max(axis=2), image.min(axis=2))
    colourful = cv2.morphologyEx(sat, cv2.MORPH_TOPHAT, k)
    score = cv2.max(dark, colourful)
    _, mask = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask[score < 28] = 0
    return np.asarray(mask, np.uint8)


def _faces(image: Image) -> Image:
    """Pale, unsaturated paper with its printed holes filled: where card faces are."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    v, s = hsv[..., 2], hsv[..., 1]
    level = min(235, max(150, int(np.percentile(v, 60))))
    paper = ((v >= level) & (s < 70)).astype(np.uint8) * 255
    paper = np.asarray(
        cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), np.uint8
    )
    h, w = paper.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(paper))
    filled = paper.copy()
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        inside = x > 0 and y > 0 and x + bw < w and y + bh < h
        if inside and area < 0.02 * h * w:  # a hole in the paper: printing
            filled[labels == i] = 255
    return np.asarray(cv2.erode(filled, np.ones((3, 3), np.uint8)), np.uint8)


def _square(cx: float, cy: float, side: float, angle: float) -> Quad:
    return np.asarray(cv2.boxPoints(((cx, cy), (side, side), angle)), np.float64)


def candidates(image: Image) -> list[Quad]:
    """Square quads (TL TR BR BL, image pixels) where a character may be."""
    side = max(image.shape[:2])
    f = min(1.0, WORK_SIDE / side)
    small = (
        np.asarray(cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), np.uint8)
        if f < 1
        else image
    )
    strokes = cv2.bitwise_and(_ink(small), _faces(small))
    out: list[Quad] = []
    for d in (3, 5, 8):
        grown = cv2.dilate(strokes, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(grown)
        for i in range(1, n):
            x, y, w, h, _ = (int(v) for v in stats[i])
            if not MIN_SIDE <= max(w, h) <= MAX_SIDE:
                continue
            inside = (labels[y : y + h, x : x + w] == i) & (strokes[y : y + h, x : x + w] > 0)
            pts = np.column_stack(np.nonzero(inside))[:, ::-1] + [x, y]
            if len(pts) < 10:
                continue
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts.astype(np.float32))
            if max(rw, rh) > 2.2 * max(min(rw, rh), 1.0):
                continue  # a line or a row of dots, not a character
            out.append(_square(cx, cy, max(rw, rh) * 1.2, angle) / f)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    dark = ((grey < 100).astype(np.uint8)) * 255
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    dark = np.asarray(cv2.morphologyEx(dark, cv2.MORPH_CLOSE, disc), np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        size = max(w, h)
        round_enough = area >= 0.55 * np.pi * (size / 2) ** 2 and min(w, h) >= 0.6 * size
        if MIN_SIDE <= size <= MAX_SIDE and round_enough:
            out.append(_square(x + w / 2, y + h / 2, size * 1.05, 0.0) / f)
    return out
