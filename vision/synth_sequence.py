"""Generated frame sequences for the stability tests: a table with cards, a hand (skin-coloured
palm with an arm reaching in from the image border) that lays a card down and later takes one
away, and a simulated reader that misreads now and then and cannot read what the hand covers.
Every frame comes with its ground truth, so a test can say exactly what should be stable when.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth_table import table_texture

Image = NDArray[np.uint8]

SKIN_TONES_BGR: tuple[tuple[int, int, int], ...] = (
    (150, 180, 230),  # light
    (110, 150, 205),  # medium
    (75, 110, 165),  # brown
    (55, 80, 125),  # dark
)


@dataclass
class SeqFrame:
    image: Image
    reads: list[dict[str, Any]]
    truth: dict[str, list[list[float]]]  # label -> quad of each card on the table now
    hand_over_table: bool  # the hand covers more than 1% of the frame
    hand_still: bool = False


@dataclass
class CardSpot:
    label: str
    quad: NDArray[np.float64]
    appears: int = 0  # first frame index it lies on the table
    leaves: int = 10**9  # first frame index it is gone


@dataclass
class HandScript:
    """Where the hand is in each frame: None (away) or its palm centre in pixels."""

    path: list[tuple[float, float] | None] = field(default_factory=list)


def _card_quad(cx: float, cy: float, w: float, h: float, angle: float) -> NDArray[np.float64]:
    box = cv2.boxPoints(((cx, cy), (w, h), angle))
    return np.asarray(box, dtype=np.float64)


def _draw_card(img: Image, quad: NDArray[np.float64], label: str) -> None:
    pts = quad.astype(np.int32)
    cv2.fillConvexPoly(img, pts, (245, 245, 240), cv2.LINE_AA)
    cv2.polylines(img, [pts], True, (60, 60, 60), 1, cv2.LINE_AA)
    c = quad.mean(axis=0)
    cv2.putText(
        img,
        label,
        (int(c[0]) - 12, int(c[1]) + 5),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.5,
        (30, 30, 160),
        1,
        cv2.LINE_AA,
    )


def _hand_mask(shape: tuple[int, int], palm: tuple[float, float], scale: float) -> Image:
    """A palm, four fingers and an arm running to the bottom edge of the image."""
    h, w = shape
    mask = np.zeros((h, w), np.uint8)
    px, py = palm
    r = 34 * scale
    cv2.ellipse(mask, (int(px), int(py)), (int(r), int(r * 1.15)), 0, 0, 360, 255, -1)
    for i, dx in enumerate((-0.6, -0.2, 0.2, 0.6)):
        top = (int(px + dx * r), int(py - r * (1.9 - 0.15 * abs(i - 1.5))))
        cv2.line(mask, (int(px + dx * r), int(py - r * 0.5)), top, 255, int(r * 0.33))
    cv2.line(
        mask,
        (int(px + r * 0.9), int(py)),
        (int(px + r * 1.5), int(py - r * 0.8)),
        255,
        int(r * 0.35),
    )
    arm_w = int(r * 1.3)
    cv2.line(mask, (int(px), int(py + r * 0.8)), (int(px + 0.25 * (h - py)), h + 40), 255, arm_w)
    return mask


def _paint_hand(
    img: Image, mask: Image, tone: tuple[int, int, int], shade: NDArray[np.float32]
) -> None:
    shadow = cv2.GaussianBlur(mask, (0, 0), 6)
    shadow = np.roll(shadow, (10, 8), axis=(0, 1)).astype(np.float32) / 255.0
    dark = img.astype(np.float32) * (1 - 0.35 * shadow[..., None])
    img[:] = np.clip(dark, 0, 255).astype(np.uint8)
    sel = mask > 0
    skin = np.asarray(tone, np.float32)[None, :] * (1 + 0.08 * shade[sel][:, None])
    img[sel] = np.clip(skin, 0, 255).astype(np.uint8)


def hand_sequence(
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (640, 480),
    surface: str | None = None,
    tone: tuple[int, int, int] | None = None,
    misread_rate: float = 0.08,
    dropout_rate: float = 0.05,
    labels: tuple[str, ...] = ("AS", "KH", "7D", "QC"),
) -> list[SeqFrame]:
    """Frames 0-11: three cards lie still. 12-31: a hand comes in from the bottom, stops over
    the table for 5 frames while it lays a fourth card, and leaves. 32-49: still. 50-65: the
    hand takes the first card away. 66-95: still."""
    w, h = size
    base = table_texture(rng, h, w, surface)
    tone = tone or SKIN_TONES_BGR[int(rng.integers(len(SKIN_TONES_BGR)))]
    cw, ch = 70.0, 100.0
    spots = [
        CardSpot(labels[0], _card_quad(w * 0.25, h * 0.35, cw, ch, float(rng.uniform(-20, 20)))),
        CardSpot(labels[1], _card_quad(w * 0.50, h * 0.30, cw, ch, float(rng.uniform(-20, 20)))),
        CardSpot(labels[2], _card_quad(w * 0.75, h * 0.35, cw, ch, float(rng.uniform(-20, 20)))),
        CardSpot(
            labels[3],
            _card_quad(w * 0.55, h * 0.68, cw, ch, float(rng.uniform(-20, 20))),
            appears=22,
        ),
    ]
    spots[0].leaves = 58

    path: list[tuple[float, float] | None] = [None] * 96
    # In: from below the frame to the new card's spot, pause, out again.
    target4 = spots[3].quad.mean(axis=0)
    for i, t in enumerate(np.linspace(0, 1, 8)):
        path[12 + i] = (float(target4[0]), float(h + 60 - t * (h + 60 - target4[1])))
    for i in range(20, 25):
        path[i] = (float(target4[0]), float(target4[1]))
    for i, t in enumerate(np.linspace(0, 1, 8)[1:]):
        path[25 + i] = (float(target4[0]), float(target4[1] + t * (h + 80 - target4[1])))
    target1 = spots[0].quad.mean(axis=0)
    for i, t in enumerate(np.linspace(0, 1, 7)):
        path[50 + i] = (float(target1[0]), float(h + 60 - t * (h + 60 - target1[1])))
    path[57] = (float(target1[0]), float(target1[1]))
    for i, t in enumerate(np.linspace(0, 1, 9)[1:]):
        path[58 + i] = (float(target1[0]), float(target1[1] + t * (h + 80 - target1[1])))

    frames: list[SeqFrame] = []
    scale = float(rng.uniform(0.9, 1.2))
    # Made once and reused: skin shading, and a few sensor-noise fields cycled frame to frame.
    shade = np.asarray(
        cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 8), np.float32
    )
    noises = [rng.normal(0, 2.5, (h, w, 3)).astype(np.float32) for _ in range(5)]
    for f, palm in enumerate(path):
        img = base.copy()
        present = [s for s in spots if s.appears <= f < s.leaves]
        for s in present:
            _draw_card(img, s.quad, s.label)
        hand = np.zeros((h, w), np.uint8)
        if palm is not None:
            hand = _hand_mask((h, w), palm, scale)
            _paint_hand(img, hand, tone, shade)
        img = np.clip(img + noises[f % len(noises)], 0, 255).astype(np.uint8)
        reads: list[dict[str, Any]] = []
        for s in present:
            card_mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(card_mask, s.quad.astype(np.int32), 255)
            covered = np.count_nonzero(card_mask & hand) / max(int(np.count_nonzero(card_mask)), 1)
            if covered > 0.6 or rng.random() < dropout_rate:
                continue
            label = s.label
            if covered > 0.05 or rng.random() < misread_rate:
                label = str(
                    rng.choice([x for x in ("2S", "3H", "9D", "JC", *labels) if x != label])
                )
            jitter = rng.normal(0, 0.7, (4, 2))
            reads.append(
                {
                    "label": label,
                    "confidence": float(rng.uniform(0.6, 0.99)),
                    "quad": (s.quad + jitter).tolist(),
                }
            )
        over = palm is not None and bool(np.count_nonzero(hand) > 0.01 * h * w)
        still = palm is not None and f > 0 and path[f - 1] == palm
        frames.append(
            SeqFrame(img, reads, {s.label: s.quad.tolist() for s in present}, over, still)
        )
    return frames
