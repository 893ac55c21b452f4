"""A card index printed narrow is framed across its ink (vision/ink_frames.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import datasets, ink_frames
from vision.detect import rect_quad
from vision.evaluate import score
from vision.reader import TableReader


def _width(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad[1] - quad[0]))


def _paper(card: tuple[int, int, int] = (235, 235, 235)) -> np.ndarray:
    return np.full((200, 200, 3), card, np.uint8)


def _narrow_index(image: np.ndarray, x: int, colour: tuple[int, int, int]) -> None:
    """A narrow rank (a tall Q's outline) over a narrow suit, 10 px wide, at column ``x``."""
    cv2.rectangle(image, (x, 62), (x + 9, 98), colour, 2)
    cv2.ellipse(image, (x + 5, 118), (4, 10), 0, 0, 360, colour, -1)


def test_a_narrow_index_off_centre_in_a_wide_frame_is_framed_across_its_ink() -> None:
    image = _paper()
    _narrow_index(image, 103, (20, 20, 20))  # right of the frame's middle, as in a fan
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 90.0)
    out = ink_frames.fitted(image, quad)
    # Narrowed, but to no less than FLOOR of the frame: a narrow index's frame is still tall.
    assert _width(out) == np.float32(ink_frames.FLOOR * 50.0)
    assert np.allclose(np.linalg.norm(out[3] - out[0]), 80.0)  # its height is kept
    centre = out.mean(0)
    assert 106.0 < centre[0] < 110.0  # on the ink (x 103..112), not the frame's middle (100)
    assert abs(centre[1] - 100.0) < 1e-3
    assert np.allclose(out[1] - out[0], [_width(out), 0.0])  # and its turn is kept


def test_dust_beside_a_narrow_index_does_not_widen_it() -> None:
    image = _paper()
    _narrow_index(image, 88, (20, 20, 20))
    cv2.rectangle(image, (106, 80), (107, 81), (20, 20, 20), -1)  # a speck in the middle third
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 90.0)
    assert _width(ink_frames.fitted(image, quad)) < 50.0


def test_a_half_turned_frame_is_narrowed_the_same_way_up() -> None:
    image = _paper()
    _narrow_index(image, 103, (30, 30, 200))  # red print
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 270.0)  # upside down
    out = ink_frames.fitted(image, quad)
    assert _width(out) < 50.0
    assert np.allclose(out[1] - out[0], [-_width(out), 0.0])  # TL..TR still runs leftwards
    assert 106.0 < out.mean(0)[0] < 110.0


def test_an_index_as_wide_as_usual_keeps_its_frame() -> None:
    image = _paper()
    cv2.putText(image, "K", (80, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.4, (20, 20, 20), 4)
    cv2.ellipse(image, (100, 122), (11, 10), 0, 0, 360, (20, 20, 20), -1)
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 90.0)
    assert ink_frames.fitted(image, quad) is quad


def test_ink_that_reaches_the_middle_from_the_frames_side_keeps_it() -> None:
    image = _paper()
    _narrow_index(image, 93, (20, 20, 20))
    cv2.line(image, (76, 70), (110, 70), (20, 20, 20), 3)  # a stroke running out of the frame
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 90.0)
    assert ink_frames.fitted(image, quad) is quad


def test_specks_or_a_suit_alone_are_no_measure() -> None:
    # A blurred light index on a dark card leaves the dark-ink mask a few specks, and a suit
    # alone says nothing of the rank's width beside it: neither narrows the frame.
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 90.0)
    specks = _paper((60, 30, 20))
    for y in (70, 100, 125):
        cv2.circle(specks, (100, y), 3, (0, 0, 0), -1)
    assert ink_frames.fitted(specks, quad) is quad
    suit = _paper()
    cv2.rectangle(suit, (96, 108), (105, 128), (20, 20, 20), -1)
    assert ink_frames.fitted(suit, quad) is quad


def test_a_blank_frame_keeps_its_frame() -> None:
    quad = rect_quad(np.array([100.0, 100.0], np.float32), 50.0, 80.0, 90.0)
    assert ink_frames.fitted(_paper(), quad) is quad


def test_a_narrow_font_decks_queens_are_read_at_their_labelled_boxes(shared: object) -> None:
    # A photo of the real dev fold: four queens of a narrow-font deck, each named right but
    # framed over three times the hand-drawn box's area until framed across their ink.
    photo = next(
        p for p in datasets.load("cards") if p.path.name == "WIN_20240627_17_14_49_Pro_jpg.jpg"
    )
    image = cv2.imread(str(photo.path))
    queens = [t for t in photo.truths if t.label in ("QD", "QS")]
    assert len(queens) == 4
    fitted = TableReader("cards").read(image).objects
    assert score(fitted, queens, photo.ignore).right == 4
    loose = TableReader("cards", ink_frames=False).read(image).objects
    assert score(loose, queens, photo.ignore).right == 0


@pytest.mark.parametrize(
    ("name", "label"),
    # Training photos of the narrow-font deck: each index read right, but its frame was
    # widened to its neighbours' unfitted 0.62-wide frames (vision/card_size.py) and shifted
    # over the next card's pip or bare paper, before its ink was looked at.
    [
        ("WIN_20240627_11_36_55_Pro_jpg.jpg", "9C"),
        ("WIN_20240627_12_52_37_Pro_jpg.jpg", "4D"),
        ("WIN_20240627_12_54_48_Pro_jpg.jpg", "5H"),
    ],
)
def test_a_narrow_fonts_frames_are_fitted_before_their_neighbours_size_is_taken(
    shared: object, name: str, label: str
) -> None:
    photo = next(p for p in datasets.load("cards") if p.path.name == name)
    image = cv2.imread(str(photo.path))
    truths = [t for t in photo.truths if t.label == label]
    assert truths
    read = TableReader("cards").read(image).objects
    assert score(read, truths, photo.ignore).right == len(truths)
