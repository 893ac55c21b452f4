"""The shared card photos at their cameras' own aspect ratio.

The playing-card photos were resized to 640 × 640 from their cameras' frames ("stretched",
says the dataset's README), so every card in them is squashed one way or the other; a camera
over a real table squashes nothing. Which way is told by the file name: ``IMG_*`` photos
are a phone's portrait frames (3:4), ``WIN_*`` photos a webcam's (16:9). Measured with
:func:`outline_widening` (card outlines lying square to the picture, against a 63 × 88 mm
card): the ``IMG_20220921`` series' 61 outlines are a median 1.27 times too wide for their
height (quartiles 1.24-1.30), near the 4 / 3 a 3:4 frame made square gives, and restored
its 50 are 0.97 (0.95-0.99); the ``IMG_77xx``/``IMG_78xx`` series' restored outlines are
1.05 (1.04-1.06, 51 of them). In the ``WIN_`` photos hardly a card lies square and alone on
the pale desk; at 16:9 their cards look a card's shape by eye, at 1:1 too narrow.

:func:`restored` turns a photo back to its camera's aspect, its labels alike, so that the
benchmark can also say how the readers do on photos as a camera takes them
(``bench/vision.py``, ``natural_aspect``).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.datasets import Photo
from vision.synth import CARD_ASPECT, Quad, Truth

Image = npt.NDArray[Any]

# Width / height of the frames each camera took, by the file name's start.
CAMERA_ASPECT: dict[str, float] = {"IMG_": 3 / 4, "WIN_": 16 / 9}


def scale_for(name: str, width: int, height: int) -> tuple[float, float] | None:
    """(x, y) factors that give a ``width`` × ``height`` photo named ``name`` its camera's
    aspect, the photo only ever enlarged (no pixel of it lost); None where the name says
    nothing of the camera."""
    aspect = next((a for prefix, a in CAMERA_ASPECT.items() if name.startswith(prefix)), None)
    if aspect is None:
        return None
    r = aspect / (width / height)
    return (r, 1.0) if r >= 1.0 else (1.0, 1.0 / r)


def restored(photo: Photo, image: Image) -> tuple[Image, list[Truth], list[Quad]]:
    """The photo's ``image`` at its camera's aspect (:func:`scale_for`), with its labelled
    indices and ignored regions moved alike; the photo as it is where its camera is unknown."""
    h, w = image.shape[:2]
    scale = scale_for(photo.path.name, w, h)
    if scale is None:
        return image, photo.truths, photo.ignore
    size = (round(w * scale[0]), round(h * scale[1]))
    out = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
    k = np.array([size[0] / w, size[1] / h], np.float32)
    truths = [Truth(t.label, np.asarray(t.quad, np.float32) * k) for t in photo.truths]
    return out, truths, [np.asarray(q, np.float32) * k for q in photo.ignore]


def outline_widening(image: Image) -> list[float]:
    """For each card outline lying square to the picture (within 6 degrees, at least 3000 px
    and nine tenths of its rectangle), how many times as wide for its height it is as a
    63 × 88 mm card, upright or sideways: 1.0 where the photo keeps its camera's aspect."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if not 3000 <= area <= 250_000:
            continue
        _, (rw, rh), angle = cv2.minAreaRect(c)
        if area < 0.9 * rw * rh or min(angle % 90.0, 90.0 - angle % 90.0) > 6.0:
            continue
        _, _, bw, bh = cv2.boundingRect(c)
        r = bw / bh
        widening = r / CARD_ASPECT if r < 1.0 else r * CARD_ASPECT
        if 0.6 < widening < 1.8:  # a card's, not a table edge's or a pile's
            out.append(widening)
    return out
