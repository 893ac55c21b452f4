"""A joker's word read on another card's face art, which the card's own indices show to be art.

A court card's robe (vertical bands, braid, repeated marks) looks to the card recogniser like
a joker's "Joker" printed down a card's edge: in the real dev fold the word was read on the
art of kings and queens of diamonds, at 0.71-0.99. Where two kept reads name one card surely
and lie as that card's two corner indices (:class:`vision.card_mates.Frames`), the span
between them is that card's face, in sight; a joker's own word lies at its own card's corner,
not on the middle of another card whose corners both show.

The same test for every read, not only words, was tried on 2026-12-05 and not kept: real
hands lay cards over a card with both of its corners in sight, and their indices were taken
for its art (models/LIMITS.md). A joker lying across the middle of such a card would be lost
the same way; on 800 development tables none of 96 right joker reads lay so.

Pure geometry over reads; the reader decides which reads take part.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision.card_mates import MATE_SURE, Frames

Quad = npt.NDArray[np.float32]

# The part of the span between a card's two index centres, along each of the first index's
# axes, taken as that card's face: the middle, clear of the indices and any card beside them.
FACE_SPAN = (0.1, 0.9)


def faces(
    quads: Sequence[Quad], labels: Sequence[str], confidences: Sequence[float]
) -> list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], str]]:
    """(first index's centre, its down axis and across axis, each scaled by the span to the
    other index along it, the card) for each pair of reads of one card, both at
    :data:`vision.card_mates.MATE_SURE` or more, placed as that card's two corner indices."""
    sure = [k for k, c in enumerate(confidences) if c >= MATE_SURE]
    if len(sure) < 2:
        return []
    f = Frames([quads[k] for k in sure])
    mated = f.all_mates()
    out = []
    for i in range(len(sure)):
        for j in range(i + 1, len(sure)):
            if not mated[i, j] or labels[sure[i]] != labels[sure[j]]:
                continue
            span = f.centre[j] - f.centre[i]
            down, across = float(span @ f.down[i]), float(span @ f.across[i])
            if abs(down) < 1e-9 or abs(across) < 1e-9:
                continue
            out.append((f.centre[i], f.down[i] / down, f.across[i] / across, labels[sure[i]]))
    return out


def on_art(
    quads: Sequence[Quad],
    labels: Sequence[str],
    confidences: Sequence[float],
    words: frozenset[str],
) -> list[str | None]:
    """For each read: the card on whose face art it lies, where it names a word (``words``)
    and its centre lies within :data:`FACE_SPAN` of a card whose two corner indices were
    read surely (:func:`faces`, from the other reads, words left out); else None."""
    printed = [k for k, label in enumerate(labels) if label not in words]
    found = faces(
        [quads[k] for k in printed],
        [labels[k] for k in printed],
        [confidences[k] for k in printed],
    )
    lo, hi = FACE_SPAN
    out: list[str | None] = []
    for q, label in zip(quads, labels, strict=True):
        card = None
        if label in words:
            c = np.asarray(q, np.float64).mean(axis=0)
            for origin, down, across, name in found:
                along, side = float((c - origin) @ down), float((c - origin) @ across)
                if lo <= along <= hi and lo <= side <= hi:
                    card = name
                    break
        out.append(card)
    return out
