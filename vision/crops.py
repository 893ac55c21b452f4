"""Normalised crops: the pixels inside a quad, warped upright to the recogniser's crop size."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[Any]
Quad = npt.NDArray[np.float32]


# A quad whose opposite sides differ by less than this (px) is a parallelogram: almost every
# proposal is a rectangle (rect_quad, scaled, reframed), and an affine warp of it is the same
# map as the perspective one, cheaper (held-out photos, best of 7 interleaved: 17.5 -> 14.6
# us a tile crop, 23.9 -> 18.7 us a card crop on the AMD EPYC; a pixel here and there differs
# by the warps' rounding, mean 0.009 of 255).
PARALLELOGRAM_PX = 0.05


def crop(image: Image, quad: Quad, size: tuple[int, int]) -> Image:
    """The quad's content (TL TR BR BL) as a ``size`` = (w, h) BGR image."""
    w, h = size
    q = quad.astype(np.float32)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = q.tolist()  # floats: numpy per op costs more
    if max(abs(ax + cx - bx - dx), abs(ay + cy - by - dy)) <= PARALLELOGRAM_PX:
        m = cv2.getAffineTransform(q[:3], dst[:3])
        return cv2.warpAffine(
            image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(
        image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def crops(image: Image, quads: list[Quad], size: tuple[int, int]) -> npt.NDArray[Any]:
    """A batch N × h × w × 3 of crops."""
    w, h = size
    if not quads:
        return np.zeros((0, h, w, 3), np.uint8)
    return np.stack([crop(image, q, size) for q in quads])


def turned(quad: Quad) -> Quad:
    """The same quad seen upside down (its top edge becomes the bottom)."""
    return np.roll(quad, 2, axis=0)


def scaled(quad: Quad, factor: float) -> Quad:
    """The quad grown (or shrunk) by ``factor`` about its centre."""
    c = quad.mean(0)
    out: Quad = (c + (quad - c) * np.float32(factor)).astype(np.float32)
    return out


def reframed(quad: Quad, width: float, height: float, shift: float) -> Quad:
    """The quad with its width and height scaled and its centre moved ``shift`` × its height
    along its own down axis (TL TR BR BL kept)."""
    c = quad.mean(0)
    across = (quad[1] + quad[2] - quad[0] - quad[3]) / 4  # centre to the right edge
    down = (quad[3] + quad[2] - quad[0] - quad[1]) / 4  # centre to the bottom edge
    c = c + 2 * shift * down
    out: Quad = np.stack(
        [
            c - width * across - height * down,
            c + width * across - height * down,
            c + width * across + height * down,
            c - width * across + height * down,
        ]
    ).astype(np.float32)
    return out
