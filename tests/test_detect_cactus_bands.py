"""Cactus name bands half under another card are still proposed."""

from __future__ import annotations

import cv2
import numpy as np

from vision import detect_cactus


def test_a_band_with_a_corner_under_another_card_is_proposed() -> None:
    image = np.full((400, 600, 3), 120, np.uint8)
    cv2.rectangle(image, (200, 150), (320, 193), (200, 60, 160), -1)  # the band, 120 x 43
    # A white card lying across the band's lower right corner, turned: the band's outline
    # fills its bounding box less (about 0.77) than a whole band's does.
    cover = cv2.boxPoints(((338.1, 223.0), (120, 160), 72.7)).astype(np.int32)
    cv2.fillConvexPoly(image, cover, (250, 250, 250))
    bands = detect_cactus.band_candidates(image)
    assert len(bands) == 1
    centre = bands[0].mean(axis=0)
    assert np.linalg.norm(centre - [255.0, 171.0]) < 20.0
