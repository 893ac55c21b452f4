"""Which crops a real card photo's boxes give the cards recogniser (vision.train.crops_from)."""

from __future__ import annotations

import numpy as np

from vision.labels import cards_spec
from vision.synth import Truth
from vision.train import crops_from


def _photo_with(box: tuple[int, int, int, int]) -> np.ndarray:
    """A plain table with one axis-aligned box whose top half is dark, bottom half light."""
    x0, y0, x1, y1 = box
    image = np.full((240, 320, 3), 128, np.uint8)
    image[y0 : (y0 + y1) // 2, x0:x1] = 20
    image[(y0 + y1) // 2 : y1, x0:x1] = 235
    return image


def _quad(box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _positives(box: tuple[int, int, int, int]) -> list[np.ndarray]:
    spec = cards_spec()
    image = _photo_with(box)
    truths = [Truth("7H", _quad(box))]
    xs, ys = crops_from(
        "cards", spec, image, truths, np.random.default_rng(0), jitters=4, real=True
    )
    return [x for x, y in zip(xs, ys, strict=True) if y == spec.index("7H")]


def test_a_landscape_box_gives_quarter_turned_positives() -> None:
    # A card lying on its side: the index box is wide. Its crops are turned a quarter so the
    # index stands (upright or upside down, both the card): the box's dark top half ends up
    # on one side of the crop, not at its top.
    found = _positives((100, 100, 180, 140))
    assert len(found) == 4
    w, h = cards_spec().crop
    for x in found:
        assert x.shape == (h, w, 3)
        left, right = float(x[:, : w // 3].mean()), float(x[:, -w // 3 :].mean())
        top, bottom = float(x[: h // 3].mean()), float(x[-h // 3 :].mean())
        assert abs(left - right) > 100 > abs(top - bottom)


def test_a_portrait_box_gives_upright_positives_and_a_square_one_none() -> None:
    h = cards_spec().crop[1]
    found = _positives((120, 80, 150, 130))
    assert len(found) == 4
    for x in found:
        top, bottom = float(x[: h // 3].mean()), float(x[-h // 3 :].mean())
        assert bottom - top > 100
    # A squarish box holds a slanted index whose turn is unknown: no jittered positives.
    assert _positives((120, 80, 160, 120)) == []
