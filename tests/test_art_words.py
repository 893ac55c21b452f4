"""A joker's word read on the face of a card whose two corner indices read surely is its art."""

from __future__ import annotations

import numpy as np
import pytest

from vision import art_words, detect, overlaps, reader, synth
from vision.card_mates import MATE_SURE
from vision.reader import TableReader

WORDS = overlaps.WORD_LABELS


def frame(cx: float, cy: float, w: float = 20, h: float = 40) -> np.ndarray:
    """An upright index frame (TL TR BR BL) centred at (cx, cy)."""
    return detect.rect_quad(np.array([cx, cy], np.float32), w, h, 90.0)


# A card's two corner indices: top left and bottom right, 2.5 heights apart each way (as
# card_mates.Frames places them), the second half-turned.
TOP = frame(100, 100)
BOTTOM = np.roll(frame(200, 200), 2, axis=0)
MIDDLE = frame(150, 150, 18, 60)  # a word frame on the card's face


def test_a_word_on_a_card_face_is_named_as_that_cards_art() -> None:
    got = art_words.on_art([TOP, BOTTOM, MIDDLE], ["KD", "KD", "X"], [0.95, 0.9, 0.99], WORDS)
    assert got == [None, None, "KD"]


def test_a_word_beyond_the_faces_middle_is_kept() -> None:
    # Beyond the span between the two indices: a joker lying beside the king, not on it.
    beside = frame(215, 150, 18, 60)
    at_corner = frame(105, 160, 18, 60)  # across within the span, but by the top index
    got = art_words.on_art(
        [TOP, BOTTOM, beside, at_corner], ["KD", "KD", "X", "X"], [0.95, 0.9, 0.99, 0.99], WORDS
    )
    assert got == [None, None, None, None]


def test_only_sure_indices_of_one_card_mark_a_face() -> None:
    doubtful = art_words.on_art(
        [TOP, BOTTOM, MIDDLE], ["KD", "KD", "X"], [0.95, MATE_SURE - 0.01, 0.99], WORDS
    )
    two_cards = art_words.on_art([TOP, BOTTOM, MIDDLE], ["KD", "QD", "X"], [0.95, 0.9, 0.99], WORDS)
    assert doubtful == [None, None, None]
    assert two_cards == [None, None, None]


def test_indices_that_cannot_be_one_cards_corners_mark_no_face() -> None:
    far = np.roll(frame(600, 600), 2, axis=0)  # 12 heights away: another card
    got = art_words.on_art([TOP, far, frame(350, 350)], ["KD", "KD", "X"], [0.95, 0.9, 0.99], WORDS)
    assert got == [None, None, None]


def test_only_words_are_taken_for_art() -> None:
    # A card lying over the king's middle keeps its index: the rule tried for every read lost
    # real hands' indices (models/LIMITS.md, 2026-12-05).
    got = art_words.on_art(
        [TOP, BOTTOM, frame(150, 150)], ["KD", "KD", "7S"], [0.95, 0.9, 0.99], WORDS
    )
    assert got == [None, None, None]


def test_two_words_of_one_joker_mark_no_face_for_each_other() -> None:
    # A joker's two corner words read as one card: words are left out of the faces.
    got = art_words.on_art([TOP, BOTTOM, MIDDLE], ["X", "X", "X"], [0.99, 0.99, 0.99], WORDS)
    assert got == [None, None, None]


# A generated standard-deck table (development seed) with a joker, both its words read.
JOKER_TABLE = 18_000_029


@pytest.fixture(scope="module")
def joker_table() -> synth.Scene:
    return synth.card_scene(np.random.default_rng(JOKER_TABLE), "cards")


def test_the_reader_drops_a_word_on_a_faces_art_and_keeps_it_elsewhere(
    joker_table: synth.Scene, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = [t for t in joker_table.truths if t.label == "X"]
    assert words
    plain = TableReader("cards").read(joker_table.image).objects
    assert sum(o.label == "X" for o in plain) == len(words)

    # The same table where the reads so far mark a card's face over every word read: the
    # reader drops them, and only them; turned off, it keeps them.
    def over_every_word(*args: object) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, str]]:
        big = np.array([1e-6, 0.0]), np.array([0.0, 1e-6])
        return [(np.array([-1e5, -1e5]), *big, "KD")]

    monkeypatch.setattr(art_words, "FACE_SPAN", (0.0, 1.0))
    monkeypatch.setattr(art_words, "faces", over_every_word)
    dropped = TableReader("cards").read(joker_table.image).objects
    assert [o.label for o in dropped] == [o.label for o in plain if o.label != "X"]
    monkeypatch.setattr(reader, "ART_WORDS", False)
    kept = TableReader("cards").read(joker_table.image).objects
    assert [o.label for o in kept] == [o.label for o in plain]
