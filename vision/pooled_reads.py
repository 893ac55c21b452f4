"""Overlapping reads of one tile pooled into one name, for reads with a deck profile.

Overlap resolution keeps one proposal per tile. With a deck profile it keeps the one most
like an enrolled tile (the best framed), which is not always the one that names the tile
right: under a warm light the profile's nearest example of a teal 8 can be a charcoal 8,
while two other framings of the same tile read the teal 8 at 0.98. The kept proposal still
says where the tile lies; what the tile is comes from all the reads that resolution let it
stand for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from vision.matching import reach, same_object
from vision.recognise import Read


def pool_names(
    quads: Sequence[npt.NDArray[np.float32]],
    reads: Sequence[Read],
    keep: Sequence[int],
    chosen: Sequence[int],
    ranks: Sequence[float],
) -> list[Read]:
    """``reads`` with each kept read renamed by the reads it stands for.

    ``keep``: the indices (into ``quads`` and ``reads``) of the reads that took part in
    overlap resolution; ``chosen``: the positions in ``keep`` it kept; ``ranks``: their
    ranks, by position in ``keep``. Every read resolution left out is counted with the
    highest-ranked kept read framed as the same object (:func:`vision.matching.same_object`);
    a read framed as no kept one's object (a part of a tile, a neighbour's edge) counts for
    none. Each kept read is then named by the sum of its group's alternatives (each read's
    top three and their probabilities), with that name's share of the sum as its
    confidence (a read whose label does not head its alternatives counts its label alone).
    A kept read whose group agrees with it, or that stands alone, is unchanged.
    """
    out = list(reads)
    by_rank = np.array(sorted(chosen, key=lambda j: -ranks[j]), int)
    groups: dict[int, list[int]] = {int(j): [int(j)] for j in chosen}
    if len(by_rank) == 0:
        return out
    # same_object asks each centre to lie inside the other quad grown by a tenth, so centres
    # further apart than that reach are never one object: hundreds of reads a frame meet
    # tens of kept ones, and the polygon tests are the cost.
    framed = np.asarray([quads[k] for k in keep], np.float64)
    centres = framed.mean(axis=1)
    reaches = reach(framed)
    for j in range(len(keep)):
        if j in groups:
            continue
        near = np.linalg.norm(centres[by_rank] - centres[j], axis=1) <= np.minimum(
            reaches[by_rank], reaches[j]
        )
        for c in by_rank[near]:
            if same_object(quads[keep[j]], quads[keep[c]]):
                groups[int(c)].append(j)
                break
    for c, members in groups.items():
        if len(members) < 2:
            continue
        tally: dict[str, float] = {}
        for m in members:
            for label, p in _votes(reads[keep[m]]):
                tally[label] = tally.get(label, 0.0) + p
        best = max(tally, key=lambda label: tally[label])
        kept = reads[keep[c]]
        if best == kept.label:
            continue
        total = sum(tally.values())
        alternatives = sorted(((k, v / total) for k, v in tally.items()), key=lambda kv: -kv[1])
        out[keep[c]] = replace(
            kept, label=best, confidence=tally[best] / total, alternatives=alternatives[:3]
        )
    return out


def _votes(read: Read) -> list[tuple[str, float]]:
    """What one read says of its tile: its alternatives where they are its own distribution
    (headed by its label), else its label alone: a card the profile left out is named by the
    model while its alternatives are the profile's nearest enrolled cards, other tiles."""
    if read.alternatives and read.alternatives[0][0] == read.label:
        return list(read.alternatives)
    return [(read.label, read.confidence)]
