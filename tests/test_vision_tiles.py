"""Tile detection on crafted layouts: the cases the real photos' training split showed failing.

Each layout is drawn here with the synthetic tile faces, so the truth is exact: a row of
touching two-digit tiles whose dark gaps wall the digits in, a close-up tile whose strokes are
too thick for the fine ink pass, tiles on a slanted rack, a busy checked table.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np
import pytest

from vision import detect, detect_tiles, overlaps, synth
from vision.evaluate import score
from vision.matching import aligned, same_object
from vision.reader import TableReader


@cache
def reader() -> TableReader:
    return TableReader("rummikub")


def _grid(
    rows: list[list[str]],
    surface: str,
    tile_h: float,
    angle: float = 0.0,
    gap: float = 0.0,
    seed: int = 3,
    size: tuple[int, int] = (1000, 750),
) -> synth.Scene:
    """Rows of tiles side by side, stacked one under the other, centred in the picture."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = synth.render_surface(surface, w, h, rng)
    tile_w = tile_h * synth.TILE_ASPECT
    a = math.radians(angle)
    right = np.array([math.cos(a), math.sin(a)])
    down = np.array([-math.sin(a), math.cos(a)])
    truths = []
    for r, labels in enumerate(rows):
        for k, label in enumerate(labels):
            c = (
                np.array([w / 2, h / 2])
                + right * tile_w * (1 + gap) * (k - (len(labels) - 1) / 2)
                + down * tile_h * (1 + gap) * (r - (len(rows) - 1) / 2)
            )
            q = synth._rect_quad(float(c[0]), float(c[1]), tile_w, tile_h, angle)
            synth._place(img, synth.render_tile(label, rng, int(tile_h * 1.3)), q, 0.4)
            truths.append(synth.Truth(label, q))
    return synth.Scene(img, truths)


def _row(labels: list[str], surface: str, tile_h: float, **kw: float) -> synth.Scene:
    return _grid([labels], surface, tile_h, **kw)  # type: ignore[arg-type]


def _covered(scene: synth.Scene) -> int:
    quads = detect_tiles.tile_candidates(scene.image)
    return sum(
        any(same_object(q, t.quad) and aligned(q, t.quad) for q in quads) for t in scene.truths
    )


def test_glyphs_inside_a_ring_of_ink_are_found_only_when_nested() -> None:
    # Dark gaps around a tile form a closed ring of ink; the digit sits in its hole.
    mask = np.zeros((120, 120), np.uint8)
    cv2.rectangle(mask, (10, 10), (110, 110), 255, 4)
    cv2.putText(mask, "8", (45, 75), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 255, 3)
    outer = detect.glyphs(mask, 6, 70)
    nested = detect.glyphs(mask, 6, 70, nested=True)
    assert not any(20 < g.height < 50 for g in outer)
    assert any(20 < g.height < 50 for g in nested)


def test_grid_of_touching_tiles_walled_in_by_dark_gaps_is_found_read_and_grouped() -> None:
    # Three rows laid against each other on wood: the gaps form a net of ink around every
    # tile (the old detector lost 2-3 of these 12, as on a real wooden-table photo).
    rows = [["k1", "k2", "k3", "k4"], ["r9", "r10", "r11", "r12"], ["b5", "b6", "b7", "b8"]]
    scene = _grid(rows, "wood", 90, angle=3.0, gap=0.03, seed=1)
    assert _covered(scene) == 12
    reading = reader().read(scene.image)
    s = score(reading.objects, scene.truths)
    assert s.right >= 11 and s.spurious == 0, s.to_json()
    assert reading.sets is not None and ["r9", "r10", "r11", "r12"] in reading.sets


@pytest.mark.parametrize(
    ("label", "surface", "height", "seed"), [("r5", "wood", 420, 2), ("b7", "white", 380, 4)]
)
def test_close_up_tile_with_thick_strokes_is_found(
    label: str, surface: str, height: float, seed: int
) -> None:
    # A tile filling half the picture: its digit's strokes are too thick for the fine pass.
    scene = _row([label], surface, height, angle=2.0, seed=seed)
    assert _covered(scene) == 1
    s = score(reader().read(scene.image).objects, scene.truths)
    assert s.right == 1 and s.spurious == 0, s.to_json()


def test_tiles_on_a_slanted_rack() -> None:
    labels = ["b4", "o8", "k12", "r7", "b13", "k4", "o1", "J"]
    scene = synth.tile_scene(
        np.random.default_rng(5), labels=labels, layout="rack", surface="wood", angle=-10.0
    )
    assert _covered(scene) >= len(scene.truths) - 1
    s = score(reader().read(scene.image).objects, scene.truths)
    assert s.accuracy >= 0.85 and s.spurious <= 1, s.to_json()


def test_squat_numbers_get_an_upright_proposal() -> None:
    # A 4, a 10 and a joker give no slant of their own; upright tiles are still proposed.
    scene = _row(["k4", "b10", "J", "o4"], "white", 100, gap=0.6)
    assert _covered(scene) == 4


def test_busy_checked_table_does_not_crowd_out_the_tiles() -> None:
    # A rack on a fine checked cloth: thousands of ink blobs, far over the proposal cap.
    # Numbers on tiles have few blobs of their size around them and are proposed first
    # (before that ranking, none of this rack's tiles was proposed).
    scene = synth.tile_scene(np.random.default_rng(50_016))
    assert scene.conditions["surface"] == "pattern" and scene.conditions["layout"] == "rack"
    assert len(detect_tiles.tile_candidates(scene.image, 100_000)) > 2000  # really busy
    assert _covered(scene) >= 0.8 * len(scene.truths)


def test_tiles_on_large_checks_rank_before_the_checks_small_blobs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tiles scattered on large checks (seed 3 100 008, 29 tiles): each number has a few checks
    # of its size within reach, while the checks' corners and specks count as lonely and
    # filled the proposal cap first. Read time lets a number have up to CROWDED_NUMBER
    # neighbours and still rank with the lonely ones.
    scene = synth.tile_scene(np.random.default_rng(3_100_008))
    assert _covered(scene) == len(scene.truths) == 29
    monkeypatch.setattr(detect_tiles, "CROWDED_NUMBER", 3)  # as before: 5 tiles unproposed
    assert _covered(scene) <= 24


def _framed(scene: synth.Scene) -> int:
    quads = detect_tiles.tile_candidates(scene.image)
    return sum(
        any(overlaps.quad_iou(q, t.quad) >= 0.6 and aligned(q, t.quad) for q in quads)
        for t in scene.truths
    )


def test_lone_jokers_and_two_digit_tiles_at_a_slant_are_framed() -> None:
    # Jokers and run-together 10-13 on a pale marble table, tiles apart at a slant: their
    # ink shows no slant and their face merges with the table. Measured 28 of 48 framed
    # (IoU >= 0.6, same axis) before the edge slant and the two-digit sizes, 36 after.
    framed = total = 0
    for angle in (25.0, 35.0, 55.0, 120.0):
        for seed in (1, 2):
            labels = ["J", "o13", "DJ", "k12", "CJ", "r11"]
            scene = _row(labels, "marble", 60, angle=angle, gap=0.9, seed=seed)
            framed += _framed(scene)
            total += len(scene.truths)
    assert framed >= 34, (framed, total)


@pytest.mark.parametrize("angle", [0.0, 17.0, 40.0, 66.0])
def test_edge_slant_of_a_tile_outline(angle: float) -> None:
    grey = np.full((200, 200), 200, np.uint8)
    quad = synth._rect_quad(100, 100, 72, 100, angle)
    cv2.fillConvexPoly(grey, quad.astype(np.int32), 240)
    cv2.putText(grey, "8", (90, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 30, 3)
    g = detect.Glyph(np.array([100, 100], np.float32), 30.0, 20.0, 90.0, (88, 85, 24, 30))
    with np.errstate(all="raise"):  # most of the window is flat: no gradient to divide by
        slant = detect_tiles._edge_slant(grey, g)
    assert slant is not None
    turn = (slant - angle) % 90.0
    assert min(turn, 90.0 - turn) < 3.0


def test_edge_slant_of_no_edges_is_none() -> None:
    """A flat table round a number has no gradient outside it: no slant (and no division by a
    zero magnitude on the way)."""
    grey = np.full((200, 200), 180, np.uint8)
    cv2.putText(grey, "8", (90, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 30, 3)
    g = detect.Glyph(np.array([100, 100], np.float32), 30.0, 20.0, 90.0, (80, 75, 40, 50))
    with np.errstate(all="raise"):
        assert detect_tiles._edge_slant(grey, g) is None


def test_double_jokers_lying_apart_at_any_slant_are_read() -> None:
    # The double joker's two faces touch in one blob lying diagonally across the tile: its
    # long side gave a slant 45 degrees off and a tile far too large. Measured on these
    # scenes: 6 of 24 double jokers read right before, 19 after.
    right = total = 0
    for seed in range(6):
        labels = ["DJ", "k5", "DJ", "r9", "DJ", "b12", "DJ", "o3"]
        scene = synth.tile_scene(
            np.random.default_rng(40 + seed),
            labels=labels,
            layout="scatter",
            surface=("wood", "marble", "cloth")[seed % 3],
        )
        jokers = [t for t in scene.truths if t.label == "DJ"]
        s = score(reader().read(scene.image).objects, jokers)
        right += s.right
        total += len(jokers)
    assert total == 24 and right >= 16, (right, total)
