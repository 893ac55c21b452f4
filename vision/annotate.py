"""Draw a reading onto its image: every quad, its label and confidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognise import LOW_CONFIDENCE


class _Reading(Protocol):
    @property
    def objects(self) -> list:  # type: ignore[type-arg]
        ...


def render(image: npt.NDArray[Any], reading: _Reading) -> npt.NDArray[Any]:
    out = image.copy()
    scale = max(0.4, max(image.shape[:2]) / 1600)
    for o in reading.objects:
        sure = o.confidence >= LOW_CONFIDENCE
        colour = (40, 200, 40) if sure else (0, 160, 255)
        pts = o.quad.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        cv2.line(
            out, tuple(o.quad[0].astype(int)), tuple(o.quad[1].astype(int)), (255, 0, 255), 2
        )  # the top edge, as the reader sees it
        text = f"{o.label} {o.confidence:.2f}"
        x, y = int(o.quad[:, 0].min()), int(o.quad[:, 1].min()) - 4
        cv2.putText(
            out, text, (x, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 4, cv2.LINE_AA
        )
        cv2.putText(
            out, text, (x, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA
        )
    return out


def draw(image: npt.NDArray[Any], reading: _Reading, path: Path) -> bool:
    ext = path.suffix.lower() or ".png"
    ok, buf = cv2.imencode(
        ext if ext in (".png", ".jpg", ".jpeg") else ".png", render(image, reading)
    )
    if not ok:
        return False
    try:
        path.write_bytes(buf.tobytes())
    except OSError:
        return False
    return True
