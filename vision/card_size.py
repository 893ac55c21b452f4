"""A card index read in a frame far larger, or far narrower, than the indices around it is
looked at again at their size.

Overlap resolution keeps, of an index's frames, the surest read near the photo's index size
(:func:`vision.overlaps.prefer_typical`), but where only a loose frame read the card (a
proposal or a reframing much larger than the index) or only a sliver did (the rank and suit
framed by their own narrow width), that frame is kept: the card is named right in a frame
that misses its index's outline. The table's zones, the annotated image, the stability
tracker and the benchmark all use the frame. The indices around it,
printed on cards of the same deck on the same table, show the size it has; a perspective
photo's far cards are small, but so are their neighbours. So such a frame is read again at
the neighbours' median size, placed over the parts of the loose frame the index may fill
(its centre, its corners and the middles of its sides), and the surest of those that names
the same card over the floor becomes its frame. The name is never changed here. The reader
hands it frames already fitted to their ink (:mod:`vision.ink_frames`), so a narrow-font
deck's indices give their own narrow size, not the proposals' wider shape.

Fresh generated tables, 400 a set, right / spurious before -> after: standard deck 2531 / 23
-> 2535 / 19 (seeds 18 000 000+), 2472 / 19 -> 2473 / 18 (18 100 000+), 2543 / 16 -> 2545 / 14
(18 300 000+); All In 2573 / 13 -> 2574 / 12 (18 000 000+); the real dev fold scored against
its reviewed labels 405 / 23 -> 409 / 19 of 432. The constants were set before measuring (as
:mod:`vision.tile_size`'s), not chosen on these figures.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.crops import reframed
from vision.matching import lengths
from vision.tile_rows import frames

Quad = NDArray[np.float32]

NEIGHBOURS = 4  # the nearest indices read, by centre, that give an index its size
LARGE = 1.6  # a frame wider or taller than this times their median width or height
NARROW = 0.6  # a frame narrower than this share of their median width...
AS_TALL = (0.75, 1.33)  # ...while about as tall (this share of their median height)


def looks(quads: Sequence[Quad]) -> list[tuple[int, list[Quad]]]:
    """Per frame out of size (see the module's docstring): its position in ``quads`` and the
    frames at its NEIGHBOURS' median width and height, on its own axes, to read it in: nine
    over a large frame (its centre, corners and side middles), three across a narrow one.
    Fewer than NEIGHBOURS + 1 frames say nothing about a table's index size: none then."""
    qs = [np.asarray(q, np.float32) for q in quads]
    if len(qs) <= NEIGHBOURS:
        return []
    centre, across, width, height = frames(qs)
    dist = lengths(centre[:, None] - centre[None])
    np.fill_diagonal(dist, np.inf)
    near = np.argsort(dist, axis=1, kind="stable")[:, :NEIGHBOURS]
    typical_w = np.median(width[near], axis=1)
    typical_h = np.median(height[near], axis=1)
    out = []
    for k, q in enumerate(qs):
        w, h, tw, th = width[k], height[k], typical_w[k], typical_h[k]
        if min(w, h, tw, th) <= 0:
            continue  # a degenerate frame has no size to scale from
        large = w > LARGE * tw or h > LARGE * th
        narrow = w < NARROW * tw and AS_TALL[0] * th < h < AS_TALL[1] * th
        if not (large or narrow):
            continue
        # From the frame's centre to where a typical frame's centre may lie, either way.
        room_x, room_y = abs(w - tw) / 2, (abs(h - th) / 2 if large else 0.0)
        frames_k = [
            (reframed(q, tw / w, th / h, b * room_y / h) + a * room_x * across[k]).astype(
                np.float32
            )
            for a in (-1, 0, 1)
            for b in ((-1, 0, 1) if large else (0,))
        ]
        out.append((k, frames_k))
    return out


def chosen(
    labels: Sequence[str],
    jobs: Sequence[tuple[int, list[Quad]]],
    reads: Sequence[tuple[str, float]],
    floor: float,
) -> dict[int, Quad]:
    """The new frame per frame looked at again: of its looks (``reads``, one (label,
    confidence) per frame of ``jobs`` in order), the surest that names its card (``labels``)
    at ``floor`` or over; frames none of whose looks does are left out (they keep theirs)."""
    out: dict[int, Quad] = {}
    best: dict[int, float] = {}
    flat = [(k, q) for k, qs in jobs for q in qs]
    if len(flat) != len(reads):
        raise ValueError(f"{len(reads)} reads for {len(flat)} frames looked at")
    for (k, q), (label, confidence) in zip(flat, reads, strict=True):
        if label == labels[k] and confidence >= floor and confidence > best.get(k, -1.0):
            best[k] = confidence
            out[k] = q
    return out
