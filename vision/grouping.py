"""Tiles into sets, by geometry alone: a set is a row of tiles lying side by side.

Two tiles belong to the same row when they are turned the same way, sit at the same height
along that row, and the gap between them is under half a tile. Each row is read left to
right across the image (top to bottom for a row that runs up the image). A run read from the
far side of the table comes out descending; since a run on the table is always laid
ascending, a single-colour row whose numbers fall is turned around. Knowing nothing of the
rules beyond that, the grouping stays in vision; ``tableref check rummikub`` judges the sets.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from vision.union_find import linked_groups

MAX_GAP = 0.5  # the widest gap inside a set, in tile widths
MAX_SHIFT = 0.35  # how far a neighbour may sit above or below, in tile heights
MAX_TURN = 20.0  # degrees between two neighbours' axes


class Placed(Protocol):
    @property
    def label(self) -> str: ...

    @property
    def quad(self) -> npt.NDArray[np.float32]: ...


def _frame(quad: npt.NDArray[np.float32]) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Centre, unit "across" axis (along the tile's width), width and height."""
    across = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2
    down = ((quad[3] - quad[0]) + (quad[2] - quad[1])) / 2
    w = float(np.linalg.norm(across))
    h = float(np.linalg.norm(down))
    axis = across / max(w, 1e-6)
    # A half-turned tile has the same row axis: point it rightwards (downwards if vertical).
    if axis[0] < -1e-6 or (abs(axis[0]) <= 1e-6 and axis[1] < 0):
        axis = -axis
    return quad.mean(0), axis, w, h


def group_sets(tiles: Sequence[Placed]) -> list[list[str]]:
    """Tile labels grouped into rows, each in reading order; rows ordered top to bottom."""
    frames = [_frame(t.quad) for t in tiles]
    n = len(tiles)

    def neighbours() -> Iterator[tuple[int, int]]:
        for i in range(n):
            ci, ai, wi, hi = frames[i]
            for j in range(i + 1, n):
                cj, aj, wj, hj = frames[j]
                turn = math.degrees(math.acos(min(1.0, abs(float(ai @ aj)))))
                if turn > MAX_TURN:
                    continue
                axis = ai + aj if float(ai @ aj) > 0 else ai - aj
                axis = axis / max(float(np.linalg.norm(axis)), 1e-6)
                d = cj - ci
                along = abs(float(d @ axis))
                side = abs(float(d @ np.array([-axis[1], axis[0]])))
                w, h = (wi + wj) / 2, (hi + hj) / 2
                if along < w * (1 + MAX_GAP) and side < h * MAX_SHIFT and along > w * 0.5:
                    yield i, j

    out: list[tuple[float, float, list[str]]] = []
    for members in linked_groups(n, neighbours()):
        axis = np.mean([frames[i][1] for i in members], axis=0)
        members.sort(key=lambda i: float(frames[i][0] @ axis))
        labels = [tiles[i].label for i in members]
        centre = np.mean([frames[i][0] for i in members], axis=0)
        out.append((float(centre[1]), float(centre[0]), _ascending(labels)))
    out.sort(key=lambda r: (round(r[0] / 40), r[1]))
    return [labels for _, _, labels in out]


def _ascending(labels: list[str]) -> list[str]:
    """Turn around a one-colour row whose numbers fall: a run seen from across the table."""
    numbered = [(lab[0], int(lab[1:])) for lab in labels if lab[1:].isdigit()]
    if len(numbered) < 2 or len({c for c, _ in numbered}) != 1:
        return labels
    values = [v for _, v in numbered]
    if all(a > b for a, b in itertools.pairwise(values)):
        return labels[::-1]
    return labels
