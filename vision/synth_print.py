"""Printed words on the table under the cards, for training the card recogniser.

Real card photos hold lettering that is no card's: laptop and console badges, a speaker's box,
a game's own box. Models trained with joker words at the photos' edges read jokers there
("Lenovo", "DELL", "Wii", "MARSHALL"; ``models/LIMITS.md``, 2026-12-07), and the
generated tables hold no lettering to learn otherwise from. These words go on the bare table
before any card is laid, so cards may cover them, and the scene's lighting and blur fall on
them as on the cards.
"""

from __future__ import annotations

import math
import string

import numpy as np

from vision import synth
from vision.glyphs import font_count, text_mask

# No letter a rank or the rune is printed as, so no word spells a joker's either. With them, a
# full draw read the real training photos 1541 right against 1549 without them and 1557 with
# no words at all (all three with faded crops), more court cards under the floor
# (models/LIMITS.md, 2026-12-07).
_LETTERS = [c for c in string.ascii_uppercase if c not in "AJKQR"]


def word(rng: np.random.Generator) -> str:
    """Three to nine letters, in capitals, lower case or capitalised, as brand names print,
    none of them a card's rank."""
    letters = "".join(rng.choice(_LETTERS, int(rng.integers(3, 10))))
    case = int(rng.integers(3))
    return letters if case == 0 else letters.lower() if case == 1 else letters.capitalize()


def print_words(image: synth.Image, rng: np.random.Generator) -> None:
    """One to four words, in place: each on a badge of its own colour or straight on the table,
    at any turn, about as tall as a card's index or up to twice that."""
    h, w = image.shape[:2]
    for _ in range(int(rng.integers(1, 5))):
        text = word(rng)
        mask = text_mask(text, int(rng.integers(font_count())), int(rng.integers(10, 60)))
        cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        angle = float(rng.uniform(0, 360))
        ink = tuple(int(v) for v in rng.integers(0, 256, 3))
        if rng.random() < 0.6:
            ground = tuple(int(v) for v in rng.integers(0, 256, 3))
            if sum(abs(a - b) for a, b in zip(ink, ground, strict=True)) < 180:
                ink = tuple(255 - v for v in ground)  # a badge's print stands out from it
            mh, mw = mask.shape
            pad = max(3, mh // 3)
            badge = np.full((mh + 2 * pad, mw + 2 * pad), 255, np.uint8)
            synth._paste(image, badge, ground, cx, cy, angle)
        synth._paste(image, mask, ink, cx, cy, angle)
        if rng.random() < 0.3:  # a second line, as a box prints its maker under its name
            below = text_mask(word(rng), int(rng.integers(font_count())), mask.shape[0] // 2 + 4)
            a = math.radians(angle)
            step = mask.shape[0] * 1.1
            synth._paste(image, below, ink, cx + step * math.sin(a), cy + step * math.cos(a), angle)
