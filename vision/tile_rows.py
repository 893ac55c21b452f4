"""Where a row of tiles read so far leaves room for one more: a tile the detector did not
propose (a double joker's two small faces in a row of touching tiles give it no number to
find, and the row's pale faces run together).

Tiles side by side in a row are parallel, of one size, a tile's width apart. A gap of one
tile between two of them is a place to look: the recogniser says whether a tile lies there.
(One tile beyond each row's end as well: on 300 fresh generated tables six more tiles read
right, three misplaced, for a look at every row's ends. :func:`row_ends` gives those places;
only a read with a tile deck's profile looks there, for jokers by their faces,
:mod:`vision.joker_faces`.) Pure geometry, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from vision.matching import lengths

Quad = NDArray[np.float32]

SAME_SIZE = 0.2  # two tiles of one row differ in width by less than this share
PARALLEL = 0.985  # |cos| of the angle between their widths (about 10°)
IN_LINE = 0.25  # a neighbour's centre lies this near the row's line, in tile heights
ONE_MISSING = (1.75, 2.4)  # two tiles' centres apart along their row, in tile widths, with
# one tile missing between them (touching tiles lie one width apart)


def frames(
    quads: Sequence[Quad],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Each quad's centre, unit vector along its width, width and height."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    across = q[:, 1] - q[:, 0]
    w = np.linalg.norm(across, axis=1)
    h = np.linalg.norm(q[:, 3] - q[:, 0], axis=1)
    return q.mean(axis=1), across / np.maximum(w, 1e-9)[:, None], w, h


def _steps(quads: Sequence[Quad]) -> NDArray[np.float64]:
    """``steps[i, j]``: how far tile j lies from tile i along i's row, in i's widths, where j
    is in line with i (parallel, of its size, its centre near i's row line); NaN elsewhere."""
    c, u, w, h = frames(quads)
    d = c[None, :, :] - c[:, None, :]  # i -> j
    along = np.einsum("ijk,ik->ij", d, u)
    off = lengths(d - along[..., None] * u[:, None, :])
    same = (np.abs(w[None, :] / np.maximum(w[:, None], 1e-9) - 1) <= SAME_SIZE) & (
        np.abs(u @ u.T) >= PARALLEL
    )
    in_line = same & (off <= IN_LINE * h[:, None])
    np.fill_diagonal(in_line, False)
    return np.where(in_line, along / np.maximum(w[:, None], 1e-9), np.nan)


def _shifted(q: Quad, by: NDArray[np.float64]) -> Quad:
    return np.asarray(np.asarray(q, np.float64) + by, np.float32)


ROW_NEXT = (0.8, 1.25)  # a touching neighbour's centre along the row, in tile widths
ROW_NONE = (0.5, 1.5)  # no tile's centre here on the other side: the row ends there


def row_gaps(quads: Sequence[Quad]) -> list[Quad]:
    """Tile-sized quads where a row of ``quads`` (tiles read) leaves room for one tile: in a
    gap of one tile between two of them. Places near a tile already read are left out."""
    return _places(
        quads, lambda row: list(row[(row >= ONE_MISSING[0]) & (row <= ONE_MISSING[1])] / 2)
    )


def row_ends(quads: Sequence[Quad]) -> list[Quad]:
    """Tile-sized quads one tile beyond each end of a row of ``quads`` (a tile with a touching
    neighbour on one side and none on the other). Places near a tile already read are left
    out."""
    return _places(quads, _ends)


def _ends(row: NDArray[np.float64]) -> list[float]:
    """The steps to a tile's row ends from it (-1, +1), given the other tiles' steps in line."""
    out = []
    for side in (1.0, -1.0):
        beside = np.any((side * row >= ROW_NEXT[0]) & (side * row <= ROW_NEXT[1]))
        beyond = np.any((-side * row >= ROW_NONE[0]) & (-side * row <= ROW_NONE[1]))
        if beside and not beyond:
            out.append(-side)
    return out


def _places(
    quads: Sequence[Quad], shifts: Callable[[NDArray[np.float64]], list[float]]
) -> list[Quad]:
    """Each tile shifted along its row by ``shifts(row)`` tile widths, ``row`` being the steps
    to the tiles in line with it (:func:`_steps`); places near a tile of ``quads`` or near an
    earlier place are left out."""
    if len(quads) < 2:
        return []
    centres, units, widths, _ = frames(quads)
    steps = _steps(quads)
    places = [
        _shifted(quads[i], units[i] * widths[i] * s)
        for i in range(len(quads))
        for s in shifts(steps[i][~np.isnan(steps[i])])
    ]
    out: list[Quad] = []
    kept: list[NDArray[np.float64]] = []
    for p in places:
        pc, _, pw, _ = (v[0] for v in frames([p]))
        if bool(np.any(np.linalg.norm(centres - pc, axis=1) < 0.6 * widths)):
            continue
        # One place found from two tiles (a row and a tile lying in line with it further on).
        if any(float(np.linalg.norm(k - pc)) < 0.6 * pw for k in kept):
            continue
        out.append(p)
        kept.append(pc)
    return out
