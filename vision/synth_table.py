"""Generated tables for calibration tests and benchmarks: a table top with the four corner
markers, photographed through a known perspective, so the calibration error can be measured in
millimetres against the truth."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import ARUCO_DICTIONARY, CORNER_IDS

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class CalibrationScene:
    image: NDArray[np.uint8]
    mm_to_image: FloatArray  # the true 3x3 homography, table mm -> image px
    width_mm: float
    height_mm: float

    def true_to_image(self, points_mm: FloatArray) -> FloatArray:
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.mm_to_image).reshape(-1, 2))


def table_texture(
    rng: np.random.Generator, height: int, width: int, kind: str | None = None
) -> NDArray[np.uint8]:
    """A table surface: wood grain, felt, or a plain light top, with low-frequency shading."""
    kind = kind or str(rng.choice(["wood", "felt", "plain"]))
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "wood":
        phase = rng.uniform(0, 6.28)
        waves = np.sin(yy / rng.uniform(6, 14) + 2.0 * np.sin(xx / rng.uniform(80, 200)) + phase)
        base = np.array([60, 110, 160], np.float32) * rng.uniform(0.8, 1.15)
        img = base[None, None, :] * (0.85 + 0.12 * waves[..., None])
    elif kind == "felt":
        base = np.array([60, 120, 40], np.float32) * rng.uniform(0.7, 1.2)
        img = np.broadcast_to(base, (height, width, 3)).astype(np.float32).copy()
    else:
        base = np.full(3, rng.uniform(170, 230), np.float32)
        img = np.broadcast_to(base, (height, width, 3)).astype(np.float32).copy()
    img += rng.normal(0, 6, (height, width, 1)).astype(np.float32)
    return np.asarray(np.clip(img, 0, 255), dtype=np.uint8)


def render_calibration_scene(
    rng: np.random.Generator,
    *,
    width_mm: float = 900.0,
    height_mm: float = 600.0,
    marker_mm: float = 60.0,
    image_size: tuple[int, int] = (1280, 960),
    tilt: float = 0.12,
    noise: float = 4.0,
) -> CalibrationScene:
    """Render the table top-down at 2 px/mm with markers centred on its corners (each turned a
    little, as a player would tape them), then view it through a random perspective."""
    ppm = 2.0
    margin = marker_mm
    cw, ch = round((width_mm + 2 * margin) * ppm), round((height_mm + 2 * margin) * ppm)
    canvas = table_texture(rng, ch, cw)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    side = round(marker_mm * ppm)
    quiet = round(side * 0.25)
    corners_mm = [(0.0, 0.0), (width_mm, 0.0), (width_mm, height_mm), (0.0, height_mm)]
    for i in CORNER_IDS:
        tile = np.full((side + 2 * quiet, side + 2 * quiet), 255, np.uint8)
        tile[quiet : quiet + side, quiet : quiet + side] = cv2.aruco.generateImageMarker(
            dictionary, i, side
        )
        cx, cy = (corners_mm[i][0] + margin) * ppm, (corners_mm[i][1] + margin) * ppm
        # Pixel centres sit at integer coordinates: the tile's centre is (n - 1) / 2.
        tc = ((tile.shape[1] - 1) / 2, (tile.shape[0] - 1) / 2)
        rot = cv2.getRotationMatrix2D(tc, float(rng.uniform(-12, 12)), 1.0)
        rot[0, 2] += cx - tc[0]
        rot[1, 2] += cy - tc[1]
        warped = cv2.warpAffine(tile, rot, (cw, ch), flags=cv2.INTER_LINEAR, borderValue=0)
        mask = cv2.warpAffine(np.full_like(tile, 255), rot, (cw, ch), borderValue=0)
        sel = mask > 127
        canvas[sel] = warped[sel][:, None]
    # Camera: the canvas corners land at jittered spots inside the frame.
    iw, ih = image_size
    pad = 0.06
    dst = np.array(
        [
            [pad * iw, pad * ih],
            [(1 - pad) * iw, pad * ih],
            [(1 - pad) * iw, (1 - pad) * ih],
            [pad * iw, (1 - pad) * ih],
        ],
        dtype=np.float64,
    )
    # Fit the table's aspect into the frame before the tilt, so the view is plausible.
    aspect = cw / ch
    fw, fh = dst[1, 0] - dst[0, 0], dst[3, 1] - dst[0, 1]
    if fw / fh > aspect:
        shrink = (fw - fh * aspect) / 2
        dst[[0, 3], 0] += shrink
        dst[[1, 2], 0] -= shrink
    else:
        shrink = (fh - fw / aspect) / 2
        dst[[0, 1], 1] += shrink
        dst[[2, 3], 1] -= shrink
    dst += rng.uniform(-tilt, tilt, (4, 2)) * np.array([iw, ih]) * 0.5
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], dtype=np.float64)
    canvas_to_image = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    blurred = cv2.GaussianBlur(canvas, (0, 0), 0.6)
    seen = cv2.warpPerspective(
        blurred, canvas_to_image, (iw, ih), flags=cv2.INTER_AREA, borderValue=(40, 40, 40)
    )
    img = seen.astype(np.float32) + np.asarray(rng.normal(0, noise, seen.shape), np.float32)
    image = np.asarray(np.clip(img, 0, 255), dtype=np.uint8)
    mm_to_canvas = np.array([[ppm, 0, margin * ppm], [0, ppm, margin * ppm], [0, 0, 1]])
    mm_to_image = canvas_to_image.astype(np.float64) @ mm_to_canvas
    return CalibrationScene(image, mm_to_image, width_mm, height_mm)
