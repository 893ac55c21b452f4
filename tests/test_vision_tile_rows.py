"""Tiles the detector did not propose, looked for where a row of tiles read leaves room for
one (:mod:`vision.tile_rows`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import synth, tile_rows
from vision.evaluate import score
from vision.overlaps import quad_iou
from vision.reader import TableReader

W, H = 40.0, 56.0


def _row(slots: list[int], angle: float = 20.0, width: float = W) -> list[np.ndarray]:
    """Tiles side by side along a row turned ``angle`` degrees, at the given slots."""
    a = np.radians(angle)
    along = np.array([np.cos(a), np.sin(a)])
    return [
        synth._rect_quad(*(np.array([300.0, 300.0]) + along * W * k), width, H, angle)
        for k in slots
    ]


def test_a_gap_of_one_tile_in_a_row_is_a_place_to_look() -> None:
    quads = _row([0, 1, 3, 4])
    (place,) = tile_rows.row_gaps(quads)
    (expected,) = _row([2])
    assert np.allclose(place, expected, atol=1e-3)
    # Wider gaps (two missing), touching rows and lone tiles leave no such place.
    assert tile_rows.row_gaps(_row([0, 1, 4, 5])) == []
    assert tile_rows.row_gaps(_row([0, 1, 2, 3])) == []
    assert tile_rows.row_gaps(_row([0])) == []


def test_tiles_not_of_one_row_leave_no_place() -> None:
    left = _row([0])
    turned = _row([2], angle=50.0)  # two tiles apart, but not parallel
    assert tile_rows.row_gaps(left + turned) == []
    small = _row([2], width=0.6 * W)  # not of one size
    assert tile_rows.row_gaps(left + small) == []
    below = [q + np.array([0.0, 0.6 * H]) for q in _row([2], angle=0.0)]
    assert tile_rows.row_gaps(_row([0], angle=0.0) + below) == []  # off the row's line


def test_a_double_joker_in_a_row_the_detector_missed_is_read_in_its_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Generated table 4 700 017 (never the bench's): a double joker between two tiles of a
    # row on a white table; its two small faces gave the detector nothing to propose.
    scene = synth.tile_scene(np.random.default_rng(4_700_017))
    jokers = [t for t in scene.truths if t.label == "DJ"]

    def jokers_read() -> int:
        reading = TableReader("rummikub").read(scene.image)
        assert score(reading.objects, scene.truths, partial=scene.partial).spurious == 0
        return sum(
            any(o.label == "DJ" and quad_iou(o.quad, t.quad) > 0.5 for o in reading.objects)
            for t in jokers
        )

    assert jokers_read() == len(jokers)
    monkeypatch.setattr(tile_rows, "row_gaps", lambda quads: [])
    assert jokers_read() == len(jokers) - 1
