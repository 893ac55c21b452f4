"""Card indices washed out by glare, looked for once more at the photo's own size.

Card detection runs on the photo shrunk to :data:`vision.detect_cards.CARD_WORK_SIDE`. Where glare
clips a card's paper to white its print is pale (an ink score of 30-40 over the paper at the
photo's own size, 60 and more elsewhere), and shrinking plus the speckle filter wipe out its
thin strokes: such an index is never proposed. On one-print development decks enrolled once
(prints 21-30, scenes 61 000+20) that was the largest cause of a missed card: 26 of the
standard deck's 49 misses (10C, 2H, KS, JC under a bright spot), 22 of All In's 75.

So a photo larger than the working size (:data:`LARGER_THAN`) with paper clipped to white
(:data:`CLIPPED_LEAST` pixels or more at :data:`vision.detect_cards.CLIPPED_PAPER`) is looked at
again at its own size, and the proposals found there about as wide as the indices read so far
(:data:`SIZES`) are added, after every other, and ranked as any read is. (Ranked under every
overlapping read where a profile is used, they read worse: standard deck 1173 / 37 against
1175 / 35 on prints 21-30, 1282 / 33 against 1283 / 32 on 31-40; All In 1156 / 20 against
1159 / 16, 1262 / 54 against 1272 / 44.) Only the finest strokes' masks (dark and
coloured print, ``finest_only``): pale print under glare is thin, and what the coarser
strokes and light print show was proposed at the working size. That costs 12 ms on a
generated 1000 x 750 table against 31 ms for every mask (median of the 33 of 60 tables looked
at again, seeds 14 000 000+), and read alike on development decks (standard 1173 / 37
against 1174 / 38 right / spurious, All In 1156 / 20 both; fresh prints 31-40, scenes
61 200+20: 1282 / 33 and 1262 / 54 both). The whole photo, not only the clipped paper and
what lies within an index of it: on these decks a pale card's face has a few clipped pixels
wherever it lies, and the two read alike (standard deck 1174 / 38 right / spurious either way,
All In 1156 / 20 whole, 1153 / 20 near the clipped paper). Smaller photos were seen at their
own size already (the real photos of ``../shared/datasets`` are 640 pixels: none is looked at
again).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import detect_cards, overlaps

Quad = npt.NDArray[np.float32]
LARGER_THAN = 1.2  # times CARD_WORK_SIDE: a photo within this was looked at near its own size
CLIPPED_LEAST = 400  # pixels of clipped paper at the photo's own size
# Of the median width (short side) of the indices read so far: on development decks
# (prints 21-30, scenes 61 000+20, right / spurious) any size 1174 / 45 of 1211, within
# 0.7-1.4 1174 / 38 (the rest were court art's stripes read as a 10, framed twice as wide).
SIZES = (0.7, 1.4)


def looked_at_again(image: npt.NDArray[Any]) -> bool:
    """Whether ``image`` is larger than the working size and has paper clipped to white."""
    if max(image.shape[:2]) <= LARGER_THAN * detect_cards.CARD_WORK_SIDE:
        return False
    return detect_cards.clipped_pixels(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) >= CLIPPED_LEAST


def proposals(image: npt.NDArray[Any], widths: Sequence[float]) -> list[Quad]:
    """Index proposals found at the photo's own size, likeliest first; ``widths``: the
    short sides of the indices read so far (none: any size is kept). Empty where the photo is
    not looked at again (:func:`looked_at_again`).

    Faint ink (an enrolled deck's ``ink_floor``) is not looked for here: at the photo's own
    size it multiplied this look's proposals ninefold before the width filter and its time
    eightfold (ten enrolled All In scenes: 1099 -> 9883, 6.6 -> 50.9 ms a photo), and the
    five card development sets of ``models/LIMITS.md`` read every index alike without it
    (7256 / 127).
    """
    if not looked_at_again(image):
        return []
    out = detect_cards.card_candidates(image, work_side=max(image.shape[:2]), finest_only=True)
    if widths:
        typical = float(np.median(widths))
        lo, hi = SIZES[0] * typical, SIZES[1] * typical
        out = [q for q in out if lo <= overlaps.short_side(q) <= hi]
    return out
