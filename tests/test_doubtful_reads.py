"""A card the deck profile's own gate takes for clutter (a doubtful card) is read where
several framings of one object agree on it (vision.doubtful_reads)."""

from __future__ import annotations

import numpy as np

from vision import doubtful_reads
from vision.doubtful_reads import agreeing_framings
from vision.recognise import Read


def _tile(x: float, y: float = 0.0) -> np.ndarray:
    return np.array([[x, y], [x + 40, y], [x + 40, y + 56], [x, y + 56]], np.float32)


def _nothing(named: str, p: float) -> Read:
    """A read judged nothing by the gate, with the profile's likeliest card ``named``."""
    return Read("none", 0.93, [(named, p), ("k4", round(1 - p, 2))], 0.93)


def test_three_agreeing_framings_read_a_doubtful_card() -> None:
    quads = [_tile(0), _tile(3, 2), _tile(-2, 3)]
    reads = [_nothing("CJ", 0.62), _nothing("CJ", 0.71), _nothing("CJ", 0.65)]
    out = agreeing_framings(quads, reads, {"CJ", "DJ"})
    assert [r.label for r in out] == ["none", "CJ", "none"]  # the surest framing only
    assert out[1].confidence == 0.71 and out[1].overlap_rank == 0.0
    # Not doubtful: the gate's word stands.
    assert agreeing_framings(quads, reads, {"DJ"}) == reads
    assert agreeing_framings(quads, reads, []) == reads


def test_too_few_weak_or_scattered_framings_read_nothing() -> None:
    cj = {"CJ"}
    assert doubtful_reads.AGREEING_FRAMINGS == 3
    two = [_tile(0), _tile(3, 2)]
    assert agreeing_framings(two, [_nothing("CJ", 0.8)] * 2, cj)[0].label == "none"
    three = [_tile(0), _tile(3, 2), _tile(-2, 3)]
    weak = [_nothing("CJ", 0.7), _nothing("CJ", 0.7), _nothing("CJ", 0.55)]
    assert all(r.label == "none" for r in agreeing_framings(three, weak, cj))
    apart = [_tile(0), _tile(3, 2), _tile(60)]  # the third frames a neighbour
    reads = [_nothing("CJ", 0.7)] * 3
    assert all(r.label == "none" for r in agreeing_framings(apart, reads, cj))


def test_an_object_read_there_outranks_the_agreement() -> None:
    quads = [_tile(0), _tile(3, 2), _tile(-2, 3), _tile(1, 1)]
    reads = [_nothing("CJ", 0.7)] * 3 + [Read("k4", 0.9, [("k4", 0.9)], 0.05)]
    assert agreeing_framings(quads, reads, {"CJ"}) == reads
