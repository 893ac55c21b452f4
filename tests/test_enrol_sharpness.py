"""A blurred enrolment capture gets a warning: its crops are blurred where a table's are not
(on development seeds such a profile read 57% of the cards right, a sharp one 82%)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import enrol_layout, synth_unseen
from vision.enrol_session import SHARP_CARDS, Enrolment
from vision.reader import TableReader

CARDS = ["AS", "2S", "3S"]


def _layout(seed: int) -> np.ndarray:
    return synth_unseen.layout_scene("cards", CARDS, 3, np.random.default_rng(seed)).image


@pytest.fixture(scope="module")
def reader() -> TableReader:
    return TableReader("cards")


def test_sharpness_tells_a_blurred_layout_from_a_sharp_one() -> None:
    blurred, sharp = _layout(4), _layout(6)  # seeds whose photo the generator blurs / not
    b = enrol_layout.sharpness(blurred, enrol_layout.outlines(blurred))
    s = enrol_layout.sharpness(sharp, enrol_layout.outlines(sharp))
    assert b < SHARP_CARDS < s, (b, s)


def test_a_blurred_capture_is_warned_about(reader: TableReader) -> None:
    for seed, blurred in ((4, True), (6, False)):
        session = Enrolment(reader, "test", CARDS, 3, 1)
        result = session.capture(1, _layout(seed))
        assert result.complete, result.problems
        assert any("blurred" in w for w in result.warnings) == blurred, result.warnings
