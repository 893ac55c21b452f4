"""Builders for fake vision reads used across the app tests."""

from __future__ import annotations

from typing import Any

from host.table.reads import FrameRead


def obj(
    label: str, x: float, y: float, conf: float = 0.99, size: float = 40, alts: Any = ()
) -> dict[str, Any]:
    h = size / 2
    return {
        "label": label,
        "confidence": conf,
        "quad": [[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]],
        "alternatives": list(alts),
    }


def frame(*objects: dict[str, Any], hand: bool = False, n: int | None = None) -> FrameRead:
    return FrameRead.model_validate(
        {"objects": list(objects), "hand": hand, "width": 1000, "height": 750, "frame": n}
    )


def centre_tiles(*labels: str, conf: float = 0.99) -> list[dict[str, Any]]:
    """Tiles in a row in the middle of the table, 50 px apart."""
    return [obj(label, 400 + 50 * i, 375, conf) for i, label in enumerate(labels)]
