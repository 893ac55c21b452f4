"""A tile read in a frame far smaller than the tiles around it takes their size.

The detector frames a tile from its number's size, with the number in the middle. A face
whose mark is small for a number (a double joker's two stars, a deck's star jokers) is then
framed around the mark alone: read right, but in a frame half the tile's size, which misses
the tile's outline (the table's zones, its sets, the annotated image and the benchmark all
use it). Its neighbours, being tiles of the same set on the same table, show the size it
has; a perspective photo's far tiles are small, but so are their neighbours. Pure geometry,
no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.crops import reframed
from vision.matching import lengths
from vision.tile_rows import frames

Quad = NDArray[np.float32]

NEIGHBOURS = 4  # the nearest tiles read, by centre, that give a tile its size
SMALL = 0.6  # a frame under this share of their median width and height is resized


def sides(quad: Quad) -> tuple[float, float]:
    """A quad's width and height (TL TR BR BL), as :func:`vision.tile_rows.frames` has them."""
    _, _, w, h = frames([quad])
    return float(w[0]), float(h[0])


def to_neighbours_size(quads: Sequence[Quad]) -> list[Quad]:
    """``quads`` with each frame smaller in both width and height than SMALL of its
    NEIGHBOURS' median (by centre distance) resized to that median about its own centre,
    on its own axes; every other frame as it was. Fewer than NEIGHBOURS + 1 frames say
    nothing about a table's tile size, and are returned as they are."""
    out = [np.asarray(q, np.float32) for q in quads]
    if len(out) <= NEIGHBOURS:
        return out
    centre, _, width, height = frames(out)
    size = np.stack([width, height], axis=1)
    dist = lengths(centre[:, None] - centre[None])
    np.fill_diagonal(dist, np.inf)
    near = np.argsort(dist, axis=1, kind="stable")[:, :NEIGHBOURS]
    typical = np.median(size[near], axis=1)  # each frame's neighbours' width and height
    # A frame with no width or height (a degenerate quad) has no size to scale from.
    small = np.all(size < SMALL * typical, axis=1) & np.all(size > 0, axis=1)
    for k in np.nonzero(small)[0].tolist():
        w, h = typical[k]
        out[k] = reframed(out[k], float(w / size[k, 0]), float(h / size[k, 1]), 0.0)
    return out
