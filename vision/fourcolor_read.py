"""Reading Four Color cards from one image, around any recogniser.

Proposals (:mod:`vision.detect_fourcolor`) are squares around characters whose up direction is
unknown, so each is looked at in its four turns and the recogniser's best non-``none`` read
wins. A card prints its character at both ends, the far one upside down: two reads with the
same label, facing opposite ways, about a card's length apart, are one card. What is left is
grouped into exposed melds (:mod:`vision.melds`).

The recogniser is a function ``classify(image, quads) -> [(label, confidence)]`` ("none" for
nothing), so this runs with the ONNX model, an enrolled deck profile, or a test oracle.

With an oracle recogniser (the generated truth) on 20 generated tables (1000 x 750, seeds
900-919): every one of 133 meld cards read, 39 of 48 melds grouped whole. No network is
trained for Four Color yet; this is the pipeline it will plug into.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.detect_fourcolor import candidates
from vision.melds import group_melds

NONE = "none"
Quad = NDArray[np.float64]
Classify = Callable[[NDArray[np.uint8], Sequence[Quad]], list[tuple[str, float]]]
CARD_LENGTH = (1.0, 3.6)  # centre to centre of a card's two characters, in character sizes


@dataclass(frozen=True)
class CharRead:
    label: str
    confidence: float
    quad: Quad  # TL TR BR BL with the character upright

    @property
    def centre(self) -> NDArray[np.float64]:
        return np.asarray(self.quad.mean(axis=0), np.float64)

    @property
    def size(self) -> float:
        return float(np.linalg.norm(self.quad[1] - self.quad[0]))

    @property
    def down(self) -> NDArray[np.float64]:
        d = (self.quad[3] - self.quad[0]) + (self.quad[2] - self.quad[1])
        return np.asarray(d / max(float(np.linalg.norm(d)), 1e-9), np.float64)


def turns(quad: Quad) -> list[Quad]:
    """The quad with each of its four sides taken as the top."""
    return [np.roll(quad, -k, axis=0) for k in range(4)]


def best_turns(
    image: NDArray[np.uint8], quads: Sequence[Quad], classify: Classify
) -> list[CharRead]:
    """For each proposal, the turn the recogniser is surest is an upright character."""
    turned = [t for q in quads for t in turns(np.asarray(q, np.float64))]
    reads = classify(image, turned)
    out = []
    for i in range(len(quads)):
        options = [(reads[4 * i + k], turned[4 * i + k]) for k in range(4)]
        options = [(r, q) for r, q in options if r[0] != NONE]
        if options:
            (label, conf), quad = max(options, key=lambda o: o[0][1])
            out.append(CharRead(label, conf, quad))
    return out


def suppress(reads: list[CharRead]) -> list[CharRead]:
    """One read per character: the surest among proposals whose centres nearly coincide."""
    kept: list[CharRead] = []
    for r in sorted(reads, key=lambda r: -r.confidence):
        if all(
            float(np.linalg.norm(r.centre - k.centre)) > 0.5 * min(r.size, k.size) for k in kept
        ):
            kept.append(r)
    return kept


def pair_ends(reads: list[CharRead]) -> list[CharRead]:
    """Merge a card's two characters (same label, facing opposite ways, a card's length
    apart along their down direction) into one read; either end names the card, so the surer
    one is kept."""
    used: set[int] = set()
    out = []
    order = sorted(range(len(reads)), key=lambda i: -reads[i].confidence)
    for i in order:
        if i in used:
            continue
        a = reads[i]
        used.add(i)
        partner: CharRead | None = None
        for j in order:
            if j in used:
                continue
            b = reads[j]
            if b.label != a.label or float(a.down @ b.down) > -0.8:
                continue
            offset = b.centre - a.centre
            size = min(a.size, b.size)  # proposals can be loose; the tighter one is the guide
            along = float(offset @ a.down) / size
            across = abs(float(offset @ np.array([-a.down[1], a.down[0]]))) / size
            if CARD_LENGTH[0] <= along <= CARD_LENGTH[1] and across < 0.6:
                used.add(j)
                partner = b
                break
        # The line between a card's two characters is the card's own axis: truer than either
        # proposal's turn, which may be square to the image rather than to the card.
        out.append(a if partner is None else _facing(a, partner.centre - a.centre))
    return out


def _facing(read: CharRead, down: NDArray[np.float64]) -> CharRead:
    """The read with its quad turned so that its down direction is ``down``."""
    d = down / max(float(np.linalg.norm(down)), 1e-9)
    right = np.array([d[1], -d[0]])  # screen y points down: right is down turned -90°
    half = read.size / 2
    c = read.centre
    quad = np.array(
        [
            c - half * right - half * d,
            c + half * right - half * d,
            c + half * right + half * d,
            c - half * right + half * d,
        ]
    )
    return CharRead(read.label, read.confidence, quad)


def read(image: NDArray[np.uint8], classify: Classify) -> dict[str, Any]:
    """``{"objects": [{"label", "confidence", "quad"}], "melds": [[token, ...], ...]}``; each
    meld's cards from left to right as the camera sees them."""
    cards = pair_ends(suppress(best_turns(image, candidates(image), classify)))
    cards.sort(key=lambda c: (float(c.centre[1]), float(c.centre[0])))
    # Proposals are squares turned to the strokes or to the image, not to the card: only
    # roughly parallel, so the meld test is looser than for card outlines.
    melds, _ = group_melds([c.quad.tolist() for c in cards], parallel_deg=25.0, level=0.5)
    # A card's turn may come from either printed end, so "along the row" can point either way:
    # melds are given in the camera's left-to-right order instead.
    for m in melds:
        xs = [float(cards[i].centre[0]) for i in m]
        if xs[0] > xs[-1]:
            m.reverse()
    return {
        "objects": [
            {
                "label": c.label,
                "confidence": round(c.confidence, 4),
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in c.quad],
            }
            for c in cards
        ],
        "melds": [
            [cards[i].label for i in m]
            for m in melds
            if len(m) > 1 or cards[m[0]].label.endswith("G")
        ],
    }
