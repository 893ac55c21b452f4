"""matching.same_objects, near_pairs, within_along_x and lengths: many pairs at once, the same
answers as pair by pair (or as numpy's general norm)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.matching import lengths, same_object, same_objects, within_along_x


def _rects(rng: np.random.Generator, n: int) -> np.ndarray:
    c = rng.uniform(0, 100, (n, 2))
    w, h, t = rng.uniform(0.5, 30, n), rng.uniform(0.5, 30, n), rng.uniform(0, np.pi, n)
    d = np.stack([np.cos(t), np.sin(t)], 1) * w[:, None] / 2
    e = np.stack([-np.sin(t), np.cos(t)], 1) * h[:, None] / 2
    return np.stack([c - d - e, c + d - e, c + d + e, c - d + e], 1).astype(np.float32)


def test_same_objects_answers_as_same_object_pair_by_pair() -> None:
    rng = np.random.default_rng(5)
    a = _rects(rng, 1500)
    nudged = a + (rng.normal(0, 3, a.shape) * rng.uniform(0, 1, (1500, 1, 1))).astype(np.float32)
    # Small whole numbers: centres on edges and vertices, shared corners, quads with no area
    # (OpenCV's tests return 0 there, which counts as inside).
    grid_a = rng.integers(0, 8, (1500, 4, 2)).astype(np.float32)
    grid_b = rng.integers(0, 8, (1500, 4, 2)).astype(np.float32)
    corner = rng.integers(0, 6, (1500, 1, 2))
    square = corner + np.array([[0, 0], [4, 0], [4, 4], [0, 4]]) * rng.integers(1, 3, (1500, 1, 1))
    moved = square + rng.integers(-3, 4, (1500, 1, 2))
    pairs = [
        (a, nudged),
        (a, _rects(rng, 1500)),
        (a, a.copy()),
        (grid_a, grid_b),
        (square.astype(np.float32), moved.astype(np.float32)),
    ]
    answers: list[bool] = []
    for dets, truths in pairs:
        expected = [same_object(d, t) for d, t in zip(dets, truths, strict=True)]
        assert same_objects(dets, truths).tolist() == expected
        answers += expected
    assert 0.2 < np.mean(answers) < 0.8  # both answers, often
    assert same_objects(np.zeros((0, 4, 2), np.float32), np.zeros((0, 4, 2), np.float32)).size == 0


def test_same_objects_takes_only_the_detectors_float32_quads() -> None:
    # In float64 same_object grows a quad and rounds its centre otherwise.
    q = _rects(np.random.default_rng(0), 2)
    with pytest.raises(TypeError, match="float32"):
        same_objects(q.astype(np.float64), q)


def test_a_point_on_an_edge_or_a_vertex_is_inside_as_opencv_counts_it() -> None:
    import cv2

    from vision.matching import _inside_many

    rng = np.random.default_rng(11)
    polys = rng.integers(0, 6, (4000, 4, 2)).astype(np.float32)
    points = (rng.integers(0, 12, (4000, 2)) / 2).astype(np.float32)
    expected = [
        cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(p[0]), float(p[1])), False) >= 0
        for q, p in zip(polys, points, strict=True)
    ]
    assert _inside_many(points, polys).tolist() == expected
    on = [
        cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(p[0]), float(p[1])), False) == 0
        for q, p in zip(polys, points, strict=True)
    ]
    assert sum(on) > 200  # many on an edge or a vertex


def test_near_pairs_are_the_pairs_every_distance_would_find() -> None:
    from vision.matching import near_pairs, reach

    rng = np.random.default_rng(8)
    quads, frames = _rects(rng, 700), _rects(rng, 500)
    frames[:50] = quads[:50] + np.float32(0.5)  # some nearly on top of each other
    apart = np.linalg.norm(frames.mean(axis=1)[None] - quads.mean(axis=1)[:, None], axis=2)
    every = apart <= np.minimum(reach(frames)[None], reach(quads)[:, None])
    rows, cols = near_pairs(quads, frames)
    assert sorted(zip(rows.tolist(), cols.tolist(), strict=True)) == sorted(
        zip(*np.nonzero(every), strict=True)
    )
    assert 50 < len(rows) < every.size / 10
    empty = near_pairs(quads[:0], frames)
    assert empty[0].size == 0 and empty[1].size == 0


def test_lengths_are_numpys_norms_to_the_bit() -> None:
    rng = np.random.default_rng(11)
    centres = (rng.uniform(-1, 1, (300, 2)) * rng.uniform(0, 3000, (300, 1))).astype(np.float32)
    pairs = centres[:, None] - centres[None]
    for vectors in (
        pairs,
        pairs.astype(np.float64),
        rng.integers(-500, 500, (50, 4, 2)),
        np.array([[3e-30, 4e-30], [1e30, 1e30]], np.float32),  # underflow, overflow to inf
        pairs[:, :7].transpose(1, 0, 2),  # not contiguous
    ):
        with np.errstate(over="ignore"):  # both overflow alike
            got, want = lengths(vectors), np.linalg.norm(vectors, axis=-1)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


def test_lengths_refuse_what_is_not_2_vectors() -> None:
    with pytest.raises(ValueError, match="2-vectors"):
        lengths(np.zeros((4, 3), np.float32))


def test_within_along_x_finds_every_pair_a_reach_apart_along_x() -> None:
    rng = np.random.default_rng(12)
    points = rng.integers(0, 60, (400, 2)).astype(np.float32)  # ties along x
    others = np.concatenate([points[:150], rng.uniform(-5, 65, (250, 2)).astype(np.float32)])
    reach = rng.uniform(0, 6, 400)
    rows, cols = within_along_x(points, others, reach)
    apart = np.abs(points[:, None, 0].astype(np.float64) - others[None, :, 0])
    want = set(zip(*np.nonzero(apart <= reach[:, None] + 1.0), strict=True))
    assert len(rows) == len(want)
    assert set(zip(rows.tolist(), cols.tolist(), strict=True)) == want
    assert np.all(np.diff(rows) >= 0)
