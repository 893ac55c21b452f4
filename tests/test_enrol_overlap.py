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
    """Dev print 23, scene 61 042: a frame shifted off a QS lay half a hundredth nearer some
    enrolled card (0.891 against 0.886) and named QD at 0.59; the QS frame named it at 0.94."""
    table_reader = TableReader("cards")
    monkeypatch.setattr(table_reader, "profile", object())  # only whether there is one counts
    shifted = Read("QD", 0.59, [("QD", 0.59), ("6S", 0.17)], 0.01, overlap_rank=0.891)
    own = Read("QS", 0.94, [("QS", 0.94)], 0.01, overlap_rank=0.886)
    assert table_reader._rank(own) > table_reader._rank(shifted)
    # Among frames named as surely, the one most like an enrolled card still wins.
    other = Read("QS", 0.94, [("QS", 0.94)], 0.01, overlap_rank=0.8)
    assert table_reader._rank(own) > table_reader._rank(other)
    monkeypatch.setattr(reader_module, "RANK_NAMED", 0.0)
    assert table_reader._rank(own) < table_reader._rank(shifted)


def test_an_enrolled_decks_card_is_not_lost_to_a_frame_shifted_off_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table-level case: a one-print deck (development print 23) enrolled once from its
    layout photo, the QS of development table 61 042 at x 267 read right only with
    RANK_NAMED; without, the QD frame shifted off it is kept and the QS is lost (measured:
    all 10 indices right, none spurious; without, 9 with 1)."""
    table_reader = TableReader("cards")
    (scene,) = one_print_deck(table_reader, 23, range(61_042, 61_043))
    # The scene holds a second QS (another card's corner, at x 61), read right either way.
    (queen,) = [t.quad for t in scene.truths if t.label == "QS" and t.quad[:, 0].mean() > 200]

    def read_there() -> list[str]:
        objects = table_reader.read(scene.image).objects
        return [o.label for o in objects if same_object(o.quad, queen)]

    assert read_there() == ["QS"]
    monkeypatch.setattr(reader_module, "RANK_NAMED", 0.0)
    assert read_there() == []
