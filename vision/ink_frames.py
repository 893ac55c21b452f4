"""A card index printed in a narrow font is framed across its ink, not across a wide index.

A card index is proposed and read in a frame of a fixed shape (0.62 × as wide as tall:
:func:`vision.detect_cards._card_quads`), made for the usual rank over suit. Some decks print a
narrow rank over a narrow suit: a tall Q or 8 only a quarter as wide as the index is tall.
That frame then holds the index and as much paper, or the card's edge, either side of it, and
is often off-centre. The table's zones, the annotated image, the stability tracker and the
benchmark all use the frame: such a frame is over three times the hand-drawn box around the
index, or its centre lies beside it (real photos of one narrow-font deck; ``framed_apart``
and ``lost_to_overlap`` in :mod:`vision.card_misses`).

So, once a table's reads are chosen (before :mod:`vision.card_size` takes the indices' size
from them, and again for a frame it moves), each printed index's frame is looked at once
more: the ink in it (:func:`vision.detect_cards.card_ink_masks`), in parts that reach its middle
third across, gives the index's extent across. Only where that ink is plainly an index narrower than
:data:`INK_SHARE` of the frame is the frame narrowed, to the ink with a margin
(:data:`MARGIN`) but never under :data:`FLOOR` of its width, and centred on the ink. Its height
and its turn are kept, and so is the read. Ink that reaches the middle third from the frame's
side spans over :data:`INK_SHARE` of it (the paper's edge, a neighbour's print, an index as
wide as usual): the frame is kept. Too little ink (:data:`MIN_INK`) or ink too short
(:data:`MIN_TALL`) is no measure (light print on a dark card, a blur): the frame is kept.

Real card photos of the training split (1603 indices, the dev fold among them), right /
spurious before -> after: 1518 / 57 -> 1525 / 50, all seven of the narrow-font deck, none
lost. Fresh generated tables, 400 a set: standard deck 2552 / 13 -> 2553 / 12 (seeds
18 000 000+) and 2493 / 13 either way (18 100 000+); All In 2576 / 7 -> 2576 / 6 (18 000 000+)
and 2496 / 23 -> 2497 / 22 (18 100 000+).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.crops import crop
from vision.detect_cards import card_ink_masks

Image = npt.NDArray[Any]
Quad = npt.NDArray[np.float32]

LOOK_HEIGHT = 64  # px: the frame is looked at this tall (the strokes below are set for it)
LOOK_SIZE = (round(LOOK_HEIGHT * 0.62), LOOK_HEIGHT)  # (w, h): the proposals' shape
STROKE = 11  # px at LOOK_HEIGHT: the ink mask's stroke size (an index's strokes are 3-6)
INK_SHARE = 0.35  # the frame is narrowed only where its index's ink spans less of its width
MARGIN = 0.08  # × the frame's height: room left either side of the ink
FLOOR = 0.6  # never narrower than this share of its width (a narrow index's frame is tall)
MIDDLE = 0.15  # ink parts reaching the middle (± this share of the width) are the index
MIN_PART = 8  # px at LOOK_HEIGHT: smaller parts are specks
MIN_INK = 0.04  # the index's ink covers at least this share of the frame
MIN_TALL = 0.4  # ...and spans at least this share of its height


def ink_span(look: Image) -> tuple[float, float] | None:
    """The index's extent across ``look`` (a frame warped upright to :data:`LOOK_SIZE`),
    ``(left, right)`` in px, or None where its ink is no measure."""
    w, h = look.shape[1], look.shape[0]
    mask = card_ink_masks(look, strokes=(STROKE,))[0]
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    left, right, top, bottom, ink = w, 0, h, 0, 0
    for x, y, pw, ph, area in stats[1:].tolist():
        if area < MIN_PART or x + pw < w * (0.5 - MIDDLE) or x > w * (0.5 + MIDDLE):
            continue
        left, right = min(left, x), max(right, x + pw)
        top, bottom = min(top, y), max(bottom, y + ph)
        ink += area
    if right <= left or ink < MIN_INK * w * h or bottom - top < MIN_TALL * h:
        return None
    return float(left), float(right)


def fitted(image: Image, quad: Quad) -> Quad:
    """``quad`` (TL TR BR BL as read) narrowed to its index's ink where that is narrow."""
    w, h = LOOK_SIZE
    span = ink_span(crop(image, quad, LOOK_SIZE))
    if span is None or span[1] - span[0] >= INK_SHARE * w:
        return quad
    left, right = span
    share = min(max((right - left + 2 * MARGIN * h) / w, FLOOR), 1.0)
    tl, tr, br, bl = quad
    across = (tr + br - tl - bl) / 2  # the frame's full width, left to right
    down = (bl + br - tl - tr) / 2  # its full height, top to bottom
    centre = quad.mean(0) + ((left + right) / 2 / w - 0.5) * across
    half, up = share * across / 2, down / 2
    out: Quad = np.stack(
        [centre - half - up, centre + half - up, centre + half + up, centre - half + up]
    ).astype(np.float32)
    return out
