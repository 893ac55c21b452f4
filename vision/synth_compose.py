"""Compositing rendered card faces into table scenes with exact ground truth: paste a card at a
quad (later cards cover earlier ones, and an owner map remembers who shows where), then put
the whole scene through a camera (perspective tilt, lighting, blur, noise, JPEG)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth_table import table_texture

Image = NDArray[np.uint8]
Quad = NDArray[np.float64]


@dataclass
class SceneObject:
    label: str
    quad: Quad  # the card's corners: top-left, top-right, bottom-right, bottom-left of its face
    index_quad: Quad  # where the card says what it is (the region a reader must see)
    group: str = ""  # "hand", "meld0", "pile", ...
    visible: float = 1.0  # fraction of index_quad not covered by later cards

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "quad": np.round(self.quad, 1).tolist(),
            "index_quad": np.round(self.index_quad, 1).tolist(),
            "group": self.group,
            "visible": round(self.visible, 3),
        }


@dataclass
class Canvas:
    image: Image
    owner: NDArray[np.int32]
    objects: list[SceneObject] = field(default_factory=list)

    @classmethod
    def table(cls, rng: np.random.Generator, size: tuple[int, int]) -> Canvas:
        w, h = size
        return cls(table_texture(rng, h, w), np.full((h, w), -1, np.int32))

    def paste(
        self, face: Image, quad: Quad, label: str, index_rect: tuple[float, ...], group: str = ""
    ) -> SceneObject:
        """Warp ``face`` onto ``quad``; ``index_rect`` (x0, y0, x1, y1, relative to the face)
        is the part that identifies the card."""
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        h, w = self.owner.shape
        # Work in the card's neighbourhood only (its shadow reaches a few blur radii out).
        sigma = max(1.0, fw * 0.03)
        pad = int(3 * sigma) + 4
        rx0 = max(0, int(np.floor(quad[:, 0].min())) - pad)
        ry0 = max(0, int(np.floor(quad[:, 1].min())) - pad)
        rx1 = min(w, int(np.ceil(quad[:, 0].max())) + pad)
        ry1 = min(h, int(np.ceil(quad[:, 1].max())) + pad)
        if rx1 <= rx0 or ry1 <= ry0:
            rx0, ry0, rx1, ry1 = 0, 0, 1, 1
        shift = np.array([[1, 0, -rx0], [0, 1, -ry0], [0, 0, 1]], np.float64)
        mr = shift @ m
        size = (rx1 - rx0, ry1 - ry0)
        warped = cv2.warpPerspective(face, mr, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), mr, size)
        # A soft shadow under the card lifts it off the table, as in a photo.
        shadow = cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32) / 255
        shifted = np.roll(shadow, (2, 2), axis=(0, 1))
        roi = self.image[ry0:ry1, rx0:rx1]
        roi[:] = np.clip(roi * (1 - 0.3 * shifted[..., None]), 0, 255).astype(np.uint8)
        sel = mask > 127
        roi[sel] = warped[sel]
        ident = len(self.objects)
        self.owner[ry0:ry1, rx0:rx1][sel] = ident
        x0, y0, x1, y1 = index_rect
        rel = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) * [fw, fh]
        index_quad = cv2.perspectiveTransform(rel.reshape(-1, 1, 2), m).reshape(4, 2)
        obj = SceneObject(label, quad.astype(np.float64), index_quad.astype(np.float64), group)
        self.objects.append(obj)
        return obj

    def settle_visibility(self) -> None:
        h, w = self.owner.shape
        for ident, obj in enumerate(self.objects):
            region = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(region, np.round(obj.index_quad).astype(np.int32), 1)
            area = int(region.sum())
            shown = int(np.count_nonzero((self.owner == ident) & (region > 0)))
            obj.visible = shown / area if area else 0.0


def card_quad(cx: float, cy: float, w: float, h: float, angle_deg: float) -> Quad:
    """Corners TL, TR, BR, BL of an upright w x h card turned by ``angle_deg`` (clockwise on
    screen) about its centre."""
    a = np.deg2rad(angle_deg)
    ux, uy = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c = np.array([cx, cy])
    return np.array(
        [
            c - ux * w / 2 - uy * h / 2,
            c + ux * w / 2 - uy * h / 2,
            c + ux * w / 2 + uy * h / 2,
            c - ux * w / 2 + uy * h / 2,
        ]
    )


def camera(rng: np.random.Generator, canvas: Canvas, strength: float = 1.0) -> Image:
    """Photograph the canvas: tilt, uneven light, blur, sensor noise and JPEG; the objects'
    quads move with the tilt."""
    img = canvas.image
    h, w = img.shape[:2]
    jitter = rng.uniform(-0.05, 0.05, (4, 2)) * [w, h] * strength
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))
    warped = cv2.warpPerspective(
        img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    for obj in canvas.objects:
        obj.quad = _warp_points(obj.quad, m)
        obj.index_quad = _warp_points(obj.index_quad, m)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1 + strength * 0.25 * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    light *= rng.uniform(0.75, 1.15)
    f = warped.astype(np.float32) * light[..., None]
    if rng.random() < 0.3 * strength:  # a glare spot
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.08 * w) ** 2))
        f += 90 * spot[..., None]
    f += rng.normal(0, 3 * strength, f.shape).astype(np.float32)
    out = np.asarray(np.clip(f, 0, 255), np.uint8)
    sigma = rng.uniform(0, 1.0 * strength)
    if sigma > 0.2:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), sigma), np.uint8)
    quality = int(rng.integers(55, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8) if ok else out


def _warp_points(quad: Quad, m: NDArray[Any]) -> Quad:
    moved = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), m)
    return np.asarray(moved, np.float64).reshape(4, 2)


def rectify(image: Image, quad: Quad, size: tuple[int, int]) -> Image:
    """The region inside ``quad`` (TL, TR, BR, BL) warped upright to ``size`` (w, h)."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return np.asarray(cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA), np.uint8)


def pil_to_bgr(img: Any) -> Image:
    return np.asarray(cv2.cvtColor(np.asarray(img.convert("RGB")), cv2.COLOR_RGB2BGR), np.uint8)


def face_quad(card: Quad, rect: tuple[float, float, float, float]) -> Quad:
    """The region ``rect`` (x0, y0, x1, y1, relative to an upright face) of a card lying at
    ``card`` (TL TR BR BL), in the same coordinates as ``card``."""
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(card, np.float32))
    x0, y0, x1, y1 = rect
    rel = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return np.asarray(cv2.perspectiveTransform(rel.reshape(-1, 1, 2), m), np.float64).reshape(4, 2)


def uncovered(region: Quad, covering: list[Quad], frame: tuple[int, int] | None = None) -> float:
    """The fraction of ``region`` that none of the ``covering`` quads hides (and, given the
    photo's ``frame`` (width, height), that lies inside it)."""
    lo = np.floor(region.min(axis=0))
    span = np.ceil(region.max(axis=0) - lo).astype(int) + 2
    scale = min(1.0, 64.0 / max(1, int(span.max())))
    shape = (max(1, int(span[1] * scale)), max(1, int(span[0] * scale)))
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round((region - lo) * scale).astype(np.int32), 1)
    area = int(mask.sum())
    for q in covering:
        cv2.fillConvexPoly(mask, np.round((q - lo) * scale).astype(np.int32), 0)
    if frame is not None:
        xs = lo[0] + np.arange(shape[1]) / scale
        ys = lo[1] + np.arange(shape[0]) / scale
        mask[(ys < 0) | (ys >= frame[1]), :] = 0
        mask[:, (xs < 0) | (xs >= frame[0])] = 0
    return int(mask.sum()) / area if area else 0.0
