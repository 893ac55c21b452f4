"""A word index spelt down a card's corner ("JOKER", "RUNE") is framed whole from a frame over
a part of it (vision.word_frames), and an index of a rank and suit keeps its own frame."""

from __future__ import annotations

from functools import cache

import numpy as np

from vision import synth, synth_unseen, word_frames
from vision.matching import same_object

# A scene of the unseen card style whose deck print spells its joker down the corner.
PRINT, SCENE = 21, 61017


@cache
def scene(game: str) -> synth.Scene:
    deck = synth_unseen.deck_print(PRINT)
    return synth_unseen.scene(game, np.random.default_rng(SCENE), deck=deck)


def _middle_quarter(quad: np.ndarray) -> np.ndarray:
    """The part of ``quad`` a quarter of its length long around its middle, full width: a
    letter or two of a word, as an index-shaped proposal frames it."""
    q = quad.astype(np.float32)
    down = ((q[3] + q[2]) / 2 - (q[0] + q[1]) / 2) / 8
    return np.asarray(
        [q[0] + 3 * down, q[1] + 3 * down, q[2] - 3 * down, q[3] - 3 * down], np.float32
    )


def _area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def test_a_frame_over_part_of_a_spelt_word_is_carried_over_the_whole_word() -> None:
    for game, label in (("cards", "X"), ("allin", "R")):
        words = [t for t in scene(game).truths if t.label == label]
        assert len(words) == 2, game  # both corners of the card, one upside down
        for t in words:
            part = _middle_quarter(t.quad)
            assert not same_object(part, t.quad)  # the part alone does not frame the index
            whole = word_frames.along_word(scene(game).image, part)
            assert same_object(whole, t.quad), (game, t.quad.tolist(), whole.tolist())
            # Along the word only: the frame keeps the part's width.
            assert abs(np.linalg.norm(whole[1] - whole[0]) - np.linalg.norm(part[1] - part[0])) < 1


def test_an_index_with_blank_paper_past_it_keeps_its_frame() -> None:
    """Past an ace's rank and suit the corner is blank paper: the frame stays the index's own.
    (Where a card's pips continue the index's column, as a ten's do, the frame is carried
    over them: the reader carries only reads of a word card, vision.reader.ENROLLED_WORDS.)"""
    aces = [t for t in scene("cards").truths if t.label == "AS"]
    assert len(aces) == 2
    for t in aces:
        carried = word_frames.along_word(scene("cards").image, t.quad)
        assert _area(carried) < 1.2 * _area(t.quad)


def test_a_frame_on_bare_table_comes_back_as_is() -> None:
    table = np.full((200, 200, 3), (180, 90, 60), np.uint8)
    frame = np.asarray([[80, 60], [110, 60], [110, 110], [80, 110]], np.float32)
    assert np.array_equal(word_frames.along_word(table, frame), frame)
