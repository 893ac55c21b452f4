"""Where the demo puts cards and tiles on a 1000 × 750 table image (the referee's zones).

The frame is the size vision's own training scenes are rendered at (vision/synth.py and its
Four Color / Cactus siblings), and every object is laid at a size inside the range those scenes
draw, so the demo shows the recognisers what they learnt to read: tiles 70 px tall (scenes:
70–130), playing cards 170 px (170–300), Four Color cards 120 px (120–225), Cactus cards
170 px (165–255). Cards that share a place overlap the way real hands and displays do, each
leaving its identifying corner (or top) in sight.
"""

from __future__ import annotations

import math
from typing import Any

WIDTH, HEIGHT = 1000, 750
Obj = dict[str, Any]


def quad(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> list[list[float]]:
    """Corners TL TR BR BL, in the object's own upright frame, of a w × h object centred at
    (cx, cy) and turned ``angle`` degrees clockwise on screen."""
    a = math.radians(angle)
    right, down = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))
    return [[round(cx + sx * w / 2 * right[0] + sy * h / 2 * down[0], 2),
             round(cy + sx * w / 2 * right[1] + sy * h / 2 * down[1], 2)]
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]  # fmt: skip


def row(
    labels: list[str], cx: float, cy: float, w: float, h: float, gap: float, angle: float = 0.0
) -> list[Obj]:
    """Labels side by side along the objects' own "right", centred on (cx, cy), ``gap`` pixels
    apart (a negative gap overlaps them: each covers the right-hand part of the one before)."""
    step = w + gap
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    first = -step * (len(labels) - 1) / 2
    return [{"label": lab, "confidence": 1.0,
             "quad": quad(cx + (first + step * i) * ux, cy + (first + step * i) * uy, w, h, angle)}
            for i, lab in enumerate(labels)]  # fmt: skip


def groups_in_rows(
    groups: list[list[str]], top: float, bottom: float, w: float, h: float, width: float = WIDTH
) -> list[Obj]:
    """Sets laid left to right in rows, a wide gap between sets, a new row when one is full."""
    objects: list[Obj] = []
    x, y = 12.0, top + h / 2
    for group in groups:
        span = len(group) * (w + 2)
        if x + span > width - 12:
            x, y = 12.0, y + h * 1.4
            if y + h / 2 > bottom:
                raise ValueError("the table is full: too many sets for the demo layout")
        objects += row(group, x + span / 2 - 1, y, w, h, 2)
        x += span + w * 0.8
    return objects


def seat_point(seat: int, seats: int, radius: float = 0.42) -> tuple[float, float]:
    """The middle of a seat's zone (seat 0 at the bottom edge, the others clockwise)."""
    angle = math.radians(seat * 360 / seats)
    return (WIDTH * (0.5 - math.sin(angle) * radius), HEIGHT * (0.5 + math.cos(angle) * radius))


def seat_angle(seat: int, seats: int) -> float:
    """How a seat's cards lie: upright to their player, their tops toward the table's middle."""
    return seat * 360 / seats
