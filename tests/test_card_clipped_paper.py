"""Faint card print on paper that the light clipped to white (detect_cards.CLIPPED_PAPER)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import detect_cards, synth
from vision.evaluate import score
from vision.reader import TableReader


def _table(paper: int, print_grey: int) -> np.ndarray:
    """A dark table with a dark card on it, and a pale card whose print is ``paper -
    print_grey`` darker than its face: strokes of an index's size."""
    img = np.full((240, 320, 3), 30, np.uint8)
    img[20:220, 170:300] = paper
    cv2.putText(img, "7", (190, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (print_grey,) * 3, 3)
    return img


def _extra_mask(img: np.ndarray) -> list[np.ndarray]:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert float(np.percentile(grey, 1)) <= detect_cards.WASHED_GREY  # not washed out as a whole
    plain = detect_cards.card_ink_masks(img, (9,), washed=True)
    more = detect_cards.card_ink_masks(img, (9,), washed=True, clipped=True)
    assert np.array_equal(more[0], plain[0])
    return more[len(plain) :]


def test_faint_print_on_clipped_paper_is_looked_at_from_the_washed_level() -> None:
    img = _table(paper=255, print_grey=233)  # an ink score of about 22: under the floor
    (extra,) = _extra_mask(img)
    stroke = (img[..., 0] < 245) & (img[..., 0] > 200)
    assert extra[stroke].mean() > 0.9
    assert detect_cards.card_ink_masks(img, (9,))[0][stroke].mean() < 0.1


def test_paper_that_is_not_clipped_adds_no_mask() -> None:
    assert _extra_mask(_table(paper=240, print_grey=218)) == []


@pytest.mark.parametrize(("seed", "label"), [(12_900_030, "9b"), (12_900_085, "7b")])
def test_a_pale_index_on_a_dark_table_under_bright_light_is_read(
    seed: int, label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Generated All In tables (not the bench's seeds), dark table, bright light or glare: the
    # table keeps the photo from counting as washed out, and the index's print lay under the
    # ink floor on its clipped face.
    scene = synth.card_scene(np.random.default_rng(seed), "allin")
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    assert float(np.percentile(grey, 1)) <= detect_cards.WASHED_GREY
    truths = [t for t in scene.truths if t.label == label]
    reader = TableReader("allin")
    right = score(reader.read(scene.image).objects, truths).right
    monkeypatch.setattr(detect_cards, "CLIPPED_PAPER", 256)  # no paper is ever clipped
    assert score(reader.read(scene.image).objects, truths).right == right - 1
