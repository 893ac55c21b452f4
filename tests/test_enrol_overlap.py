"""With a deck profile, which of overlapping card reads is kept: the frame most like an
enrolled card, a surer name counting a little (``reader.RANK_NAMED``)."""

from __future__ import annotations

import pytest

from tests.enrol_helpers import one_print_deck
from vision import reader as reader_module
from vision.matching import same_object
from vision.reader import TableReader
from vision.recognise import Read


def test_a_surely_named_frame_outranks_a_doubtful_one_a_little_nearer_a_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dev print 28, scene 61 008: a frame shifted off the 5C lay a hundredth nearer some
    enrolled card (0.974 against 0.969) and named 5D at 0.38; the 5C frame named it at 0.97."""
    table_reader = TableReader("cards")
    monkeypatch.setattr(table_reader, "profile", object())  # only whether there is one counts
    shifted = Read("5D", 0.38, [("5D", 0.38), ("5C", 0.35)], 0.01, overlap_rank=0.974)
    own = Read("5C", 0.97, [("5C", 0.97)], 0.01, overlap_rank=0.969)
    assert table_reader._rank(own) > table_reader._rank(shifted)
    # Among frames named as surely, the one most like an enrolled card still wins.
    other = Read("5C", 0.97, [("5C", 0.97)], 0.01, overlap_rank=0.9)
    assert table_reader._rank(own) > table_reader._rank(other)
    monkeypatch.setattr(reader_module, "RANK_NAMED", 0.0)
    assert table_reader._rank(own) < table_reader._rank(shifted)


def test_an_enrolled_decks_card_is_not_lost_to_a_frame_shifted_off_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table-level case: a one-print deck (development print 28) enrolled once from its
    layout photo, the 5C of development table 61 008 read right only with RANK_NAMED."""
    table_reader = TableReader("cards")
    (scene,) = one_print_deck(table_reader, 28, range(61_008, 61_009))
    # The scene holds a second 5C (another card's corner), read right either way.
    (five,) = [t.quad for t in scene.truths if t.label == "5C" and t.quad[:, 0].mean() > 500]

    def read_there() -> list[str]:
        objects = table_reader.read(scene.image).objects
        return [o.label for o in objects if same_object(o.quad, five)]

    assert read_there() == ["5C"]
    monkeypatch.setattr(reader_module, "RANK_NAMED", 0.0)
    assert read_there() == ["5D"]
