"""Normalised crops: rectangles take the affine warp, any other quad the perspective one, and
both bring the quad's content out upright."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import crop

SIZE = (24, 32)


def _pattern() -> np.ndarray:
    """A 240 × 320 picture whose top-left quarter is red, the rest grey with a white bar."""
    img = np.full((320, 240, 3), 90, np.uint8)
    img[:160, :120] = (0, 0, 220)
    img[200:240, 40:200] = 255
    return img


def _placed(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The pattern turned by ``angle`` onto a larger dark table, and its corners there."""
    table = np.full((700, 700, 3), 30, np.uint8)
    pattern = _pattern()
    h, w = pattern.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (350 - w / 2, 350 - h / 2)
    cv2.warpAffine(pattern, m, (700, 700), table, cv2.INTER_LINEAR, cv2.BORDER_TRANSPARENT)
    quad = cv2.transform(corners[None], m)[0].astype(np.float32)
    return table, quad


def test_a_turned_rectangle_comes_out_upright_through_the_affine_warp() -> None:
    table, quad = _placed(33.0)
    out = crop(table, quad, SIZE)
    w, h = SIZE
    m = cv2.getAffineTransform(quad[:3], np.array([[0, 0], [w, 0], [w, h]], np.float32))
    same = cv2.warpAffine(table, m, SIZE, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(out, same)
    # Upright: red top left, grey top right, the white bar across the lower part.
    assert out[4, 4, 2] > 180 and out[4, 4, 0] < 40
    assert abs(int(out[4, 20, 2]) - 90) < 20
    assert out[22, 12].min() > 230 and out[28, 12].max() < 120
    # The perspective warp of the same rectangle is the same map, up to rounding.
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    p = cv2.warpPerspective(
        table,
        cv2.getPerspectiveTransform(quad, dst),
        SIZE,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    assert np.abs(p.astype(int) - out.astype(int)).mean() < 1.0


def test_a_quad_seen_in_perspective_takes_the_perspective_warp() -> None:
    # A pattern photographed at a slant: its outline is a trapezoid, no parallelogram.
    pattern = _pattern()
    h, w = pattern.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    quad = np.array([[260, 150], [440, 150], [520, 560], [180, 560]], np.float32)
    table = np.full((700, 700, 3), 30, np.uint8)
    m = cv2.getPerspectiveTransform(corners, quad)
    cv2.warpPerspective(pattern, m, (700, 700), table, cv2.INTER_LINEAR, cv2.BORDER_TRANSPARENT)
    out = crop(table, quad, SIZE)
    expected = cv2.resize(pattern, SIZE, interpolation=cv2.INTER_AREA)
    # The red quarter ends half way down: an affine warp of three corners would bend it.
    assert np.abs(out.astype(int) - expected.astype(int)).mean() < 12
    assert out[14, 4, 2] > 150 and out[18, 4, 2] < 130
