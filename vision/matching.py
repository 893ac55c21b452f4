"""Which detection is which ground-truth object: shared by training and by the benchmark."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth import Quad


def inside(point: np.ndarray, quad: Quad, grow: float = 1.0) -> bool:
    """Whether ``point`` lies in ``quad`` grown by ``grow`` about its centre (edges included)."""
    quad = np.asarray(quad)
    c = quad.mean(0)
    q = (c + (quad - c) * grow).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(q, (float(point[0]), float(point[1])), False) >= 0


def lengths(vectors: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(vectors, axis=-1)`` for an array of 2-vectors (float32 stays float32):
    the same numbers, as the same two squares summed in the same order, without the general
    reduction over a two-long axis that made it most of the cost of measuring every pair of
    a photo's glyphs (600 x 600 pairs: 6.6 -> 0.4 ms)."""
    v = np.asarray(vectors)
    if v.shape[-1:] != (2,):
        raise ValueError(f"lengths of 2-vectors only, not of an array shaped {v.shape}")
    if not np.issubdtype(v.dtype, np.inexact):
        v = v.astype(np.float64)  # as np.linalg.norm takes whole numbers
    x, y = v[..., 0], v[..., 1]
    out: np.ndarray = np.sqrt(x * x + y * y)
    return out


def reach(quads: np.ndarray) -> np.ndarray:
    """Per quad (N x 4 x 2), how far another quad's centre may lie from its centre and still
    be inside it as :func:`same_place` grows it (a pixel spare for rounding): two quads whose
    centres lie further apart than the smaller of their reaches are never one object, so a
    caller with many quads can skip the polygon tests for them."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    return np.asarray(1.1 * lengths(q - q.mean(axis=1)[:, None]).max(axis=1) + 1.0)


def within_along_x(
    points: np.ndarray, others: np.ndarray, reach: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols): every pair of ``points`` (N x 2) and ``others`` (M x 2) whose x lie
    within ``reach[row]`` of each other, with a pixel spare: an other further than a point's
    reach plus one along x is further than its reach whatever the float32 rounding of a
    distance measured later. Found by sorting ``others`` along x, not by measuring every
    pair; rows in order, each row's columns in the order of their x."""
    order = np.argsort(others[:, 0], kind="stable")
    xs = others[order, 0].astype(np.float64)
    x = points[:, 0].astype(np.float64)
    lo = np.searchsorted(xs, x - reach - 1.0, side="left")
    hi = np.searchsorted(xs, x + reach + 1.0, side="right")
    counts = np.maximum(hi - lo, 0)
    rows = np.repeat(np.arange(len(points)), counts)
    first = np.repeat(lo - (np.cumsum(counts) - counts), counts)
    return rows, order[np.arange(len(rows)) + first]


def near_pairs(quads: np.ndarray, frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols): the pairs of ``quads`` and ``frames`` (float32, N x 4 x 2 and M x 4 x 2)
    whose centres lie no further apart than the smaller of their reaches (:func:`reach`),
    the only pairs that can be one object. Only frames whose centres lie within a quad's
    reach along x are measured (sorted along x), not every pair: a read asks this of
    thousands of quads against thousands of frames. Distances as ``np.linalg.norm`` takes
    them, in float32."""
    q, f = np.asarray(quads).reshape(-1, 4, 2), np.asarray(frames).reshape(-1, 4, 2)
    if not len(q) or not len(f):
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    cq, cf = q.mean(axis=1), f.mean(axis=1)
    rq, rf = reach(q), reach(f)
    rows, cols = within_along_x(cq, cf, rq)
    d = cf[cols] - cq[rows]
    apart = lengths(d)
    near = apart <= np.minimum(rf[cols], rq[rows])
    return rows[near], cols[near]


def _area(q: Quad) -> float:
    return float(cv2.contourArea(q.astype(np.float32)))


def same_place(det: Quad, truth: Quad) -> bool:
    """Each one's centre lies inside the other (grown by a tenth), whatever their sizes."""
    return inside(det.mean(0), truth, 1.1) and inside(truth.mean(0), det, 1.1)


def same_object(det: Quad, truth: Quad) -> bool:
    """Each one's centre lies inside the other and their areas agree within a factor 3.

    The factor is loose because hand-drawn truth boxes are loose: a corner index's box is
    axis-aligned, so a slanted index's box is larger than the index, a tight one smaller.
    """
    if not same_place(det, truth):
        return False
    ratio = _area(det) / max(_area(truth), 1.0)
    return 1 / 3 < ratio < 3


def aligned(det: Quad, truth: Quad, tolerance_deg: float = 25.0) -> bool:
    """The quads' vertical axes agree (up to a half turn)."""

    def axis(q: Quad) -> tuple[float, float]:
        v = (q[3] + q[2]) / 2 - (q[0] + q[1]) / 2
        n = max(float(np.linalg.norm(v)), 1e-6)
        return float(v[0]) / n, float(v[1]) / n

    a, b = axis(det), axis(truth)
    return abs(a[0] * b[0] + a[1] * b[1]) > math.cos(math.radians(tolerance_deg))


def near_any(det: Quad, truths: list[Quad], grow: float = 1.4) -> bool:
    """Whether a detection touches any truth (too close to count as a clean negative)."""
    c = det.mean(0)
    return any(inside(c, t, grow) or inside(t.mean(0), det, 1.0) for t in truths)


def same_objects(dets: np.ndarray, truths: np.ndarray) -> np.ndarray:
    """:func:`same_object` for many pairs of float32 quads at once (P x 4 x 2 each): the
    same answers, as OpenCV's point-in-polygon test and contour area count them, without a
    call per pair (the faint look and joker faces ask it hundreds of times a read)."""
    a = np.asarray(dets)
    b = np.asarray(truths)
    if a.dtype != np.float32 or b.dtype != np.float32:
        raise TypeError("same_objects takes float32 quads (as the detector gives them)")
    a, b = a.reshape(-1, 4, 2), b.reshape(-1, 4, 2)
    ca, cb = a.mean(axis=1), b.mean(axis=1)
    grown_a = ca[:, None] + (a - ca[:, None]) * np.float32(1.1)
    grown_b = cb[:, None] + (b - cb[:, None]) * np.float32(1.1)
    placed = _inside_many(ca, grown_b) & _inside_many(cb, grown_a)
    ratio = _areas(a) / np.maximum(_areas(b), 1.0)
    return np.asarray(placed & (ratio > 1 / 3) & (ratio < 3), bool)


def _inside_many(points: np.ndarray, polys: np.ndarray) -> np.ndarray:
    """Per pair, ``cv2.pointPolygonTest(poly, point, False) >= 0``, edge by edge as OpenCV
    counts crossings for float contours (differences in float32, products in float64): a
    point on an edge or a vertex is inside."""
    px, py = points[:, 0], points[:, 1]
    on_edge = np.zeros(len(points), bool)
    crossings = np.zeros(len(points), np.int64)
    vx, vy = polys[:, -1, 0], polys[:, -1, 1]
    for i in range(polys.shape[1]):
        v0x, v0y = vx, vy
        vx, vy = polys[:, i, 0], polys[:, i, 1]
        skip = ((v0y <= py) & (vy <= py)) | ((v0y > py) & (vy > py)) | ((v0x < px) & (vx < px))
        along = (v0x <= px) & (px <= vx) | (vx <= px) & (px <= v0x)
        on_edge |= skip & (py == vy) & ((px == vx) | ((py == v0y) & along))
        dist = (py - v0y).astype(np.float64) * (vx - v0x) - (px - v0x).astype(np.float64) * (
            vy - v0y
        )
        on_edge |= ~skip & (dist == 0)
        dist = np.where(vy < v0y, -dist, dist)
        crossings += ~skip & (dist > 0)
    return np.asarray(on_edge | (crossings % 2 == 1), bool)


def _areas(quads: np.ndarray) -> np.ndarray:
    """Per quad, ``cv2.contourArea`` of it as float32 points: the shoelace sum in float64,
    term by term in OpenCV's order."""
    total = np.zeros(len(quads), np.float64)
    prev = quads[:, -1].astype(np.float64)
    for i in range(quads.shape[1]):
        p = quads[:, i].astype(np.float64)
        total += prev[:, 0] * p[:, 1] - prev[:, 1] * p[:, 0]
        prev = p
    return np.abs(total * 0.5)
