"""Tiles into sets on crafted layouts."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.grouping import group_sets

W, H = 50.0, 70.0


@dataclass
class T:
    label: str
    quad: np.ndarray


def tile(label: str, x: float, y: float, angle: float = 0.0, turned: bool = False) -> T:
    a = math.radians(angle)
    right = np.array([math.cos(a), math.sin(a)])
    down = np.array([-math.sin(a), math.cos(a)])
    c = np.array([x, y])
    q = np.array(
        [
            c - W / 2 * right - H / 2 * down,
            c + W / 2 * right - H / 2 * down,
            c + W / 2 * right + H / 2 * down,
            c - W / 2 * right + H / 2 * down,
        ]
    )
    if turned:
        q = np.roll(q, 2, axis=0)
    return T(label, q.astype(np.float32))


def row(labels: list[str], x: float, y: float, angle: float = 0.0, gap: float = 2.0) -> list[T]:
    a = math.radians(angle)
    step = W + gap
    return [
        tile(lab, x + k * step * math.cos(a), y + k * step * math.sin(a), angle)
        for k, lab in enumerate(labels)
    ]


def test_two_rows_become_two_sets_in_table_order() -> None:
    tiles = row(["r3", "r4", "r5"], 100, 100) + row(["k7", "b7", "o7"], 100, 300)
    np.random.default_rng(0).shuffle(tiles)  # reading order must not depend on input order
    assert group_sets(tiles) == [["r3", "r4", "r5"], ["k7", "b7", "o7"]]


def test_a_gap_splits_a_row() -> None:
    tiles = row(["r3", "r4", "r5"], 100, 100) + row(["b9", "b10", "b11"], 100 + 5 * W, 100)
    assert group_sets(tiles) == [["r3", "r4", "r5"], ["b9", "b10", "b11"]]


def test_rotated_row_stays_one_set() -> None:
    tiles = row(["o1", "o2", "J", "o4"], 300, 300, angle=35)
    assert group_sets(tiles) == [["o1", "o2", "J", "o4"]]


def test_run_seen_from_across_the_table_reads_ascending() -> None:
    tiles = [tile(lab, 100 + k * 52, 100, turned=True) for k, lab in enumerate(["b9", "b8", "b7"])]
    assert group_sets(tiles) == [["b7", "b8", "b9"]]


def test_lone_tiles_are_sets_of_one_and_nothing_is_lost() -> None:
    tiles = [tile("k1", 100, 100), tile("r13", 400, 120, angle=80), tile("MJ", 700, 500)]
    sets = group_sets(tiles)
    assert sorted(t for s in sets for t in s) == ["MJ", "k1", "r13"]
    assert all(len(s) == 1 for s in sets)


def test_stacked_rows_touching_vertically_do_not_merge() -> None:
    tiles = row(["k2", "k3", "k4"], 100, 100) + row(["r2", "r3", "r4"], 100, 100 + H + 2)
    assert group_sets(tiles) == [["k2", "k3", "k4"], ["r2", "r3", "r4"]]
