"""Where the demo puts cards and tiles on a 1000 × 750 table image (the referee's zones)."""

from __future__ import annotations

import math
from typing import Any

WIDTH, HEIGHT = 1000, 750
Obj = dict[str, Any]


def quad(cx: float, cy: float, w: float, h: float) -> list[list[float]]:
    return [[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2],
            [cx - w / 2, cy + h / 2]]  # fmt: skip


def row(labels: list[str], cx: float, cy: float, w: float, h: float, gap: float) -> list[Obj]:
    """Labels side by side, centred on (cx, cy), ``gap`` pixels apart."""
    step = w + gap
    x0 = cx - step * (len(labels) - 1) / 2
    return [{"label": lab, "confidence": 1.0, "quad": quad(x0 + step * i, cy, w, h)}
            for i, lab in enumerate(labels)]  # fmt: skip


def groups_in_rows(
    groups: list[list[str]], top: float, bottom: float, w: float, h: float, width: float = WIDTH
) -> list[Obj]:
    """Sets laid left to right in rows, a wide gap between sets, a new row when one is full."""
    objects: list[Obj] = []
    x, y = 20.0, top + h / 2
    for group in groups:
        span = len(group) * (w + 2)
        if x + span > width - 20:
            x, y = 20.0, y + h * 1.6
            if y > bottom:
                raise ValueError("the table is full: too many sets for the demo layout")
        objects += row(group, x + span / 2 - w / 2 - 1, y, w, h, 2)
        x += span + w
    return objects


def seat_point(seat: int, seats: int, radius: float = 0.42) -> tuple[float, float]:
    """The middle of a seat's zone (seat 0 at the bottom edge, the others clockwise)."""
    angle = math.radians(seat * 360 / seats)
    return (WIDTH * (0.5 - math.sin(angle) * radius), HEIGHT * (0.5 + math.cos(angle) * radius))
