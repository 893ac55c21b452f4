"""Scoring a right read of a card's unlabelled other corner (vision.evaluate.other_corner).

Crafted case: a card labelled at its top-left index only (an upright 7H box, 30 × 50 px); its
other index lies diagonally across the card, half-turned, the same size.
"""

from __future__ import annotations

import numpy as np

from vision.detect import rect_quad
from vision.evaluate import score
from vision.reader import Found
from vision.synth import Truth

LABELLED = np.array([[100, 100], [130, 100], [130, 150], [100, 150]], np.float32)
CENTRE = LABELLED.mean(0)
H = 60.0  # the reader's quad is a little larger than the hand-drawn box
ACROSS = np.array([2.5 * H, 2.8 * H], np.float32)  # other corner: right and down of this one


def _read(label: str, centre: np.ndarray, down_deg: float = -90.0, h: float = H) -> Found:
    quad = rect_quad(centre.astype(np.float32), 0.62 * h, h, down_deg)
    return Found(label, 0.95, quad, [(label, 0.95)])


def _scored(reads: list[Found], truths: list[Truth] | None = None) -> dict[str, float | int]:
    return score(reads, truths or [Truth("7H", LABELLED)], other_corners=True).to_json()


def test_the_other_corner_read_right_is_not_spurious() -> None:
    for down in (-90.0, 90.0):  # read half-turned (as printed) or upright: the same place
        s = _scored([_read("7H", CENTRE + ACROSS, down)])
        assert (s["unlabelled_corner_right"], s["spurious"], s["spurious_raw"]) == (1, 0, 1)
    # Seen from a card turned a half turn, the other corner lies up and left.
    s = _scored([_read("7H", CENTRE - ACROSS)])
    assert s["unlabelled_corner_right"] == 1


def test_reads_failing_the_strict_check_stay_spurious() -> None:
    mirror = CENTRE + ACROSS * np.array([-1, 1], np.float32)  # no index at that corner
    cases = [
        _read("7H", mirror),
        _read("7D", CENTRE + ACROSS),  # another card
        _read("7H", CENTRE + ACROSS, down_deg=0.0),  # lying across the labelled index's axis
        _read("7H", CENTRE + ACROSS * 3, h=H * 3),  # the same shape, three times larger
        _read("7H", CENTRE + ACROSS * 0.3),  # on the card's face, near the labelled index
        _read("7H", CENTRE + ACROSS * 2.2),  # past the card's far edge
    ]
    for read in cases:
        s = _scored([read])
        assert (s["unlabelled_corner_right"], s["spurious"]) == (0, 1), read


def test_a_card_labelled_at_both_corners_or_read_twice_vouches_once() -> None:
    both = [Truth("7H", LABELLED), Truth("7H", LABELLED + ACROSS)]
    third = _read("7H", CENTRE - ACROSS)
    s = _scored([third], both)
    assert (s["unlabelled_corner_right"], s["spurious"]) == (0, 1)
    twice = [_read("7H", CENTRE + ACROSS), _read("7H", CENTRE - ACROSS)]
    s = _scored(twice)
    assert (s["unlabelled_corner_right"], s["spurious"]) == (1, 1)


def test_without_the_rule_the_other_corner_is_spurious_and_the_json_unchanged() -> None:
    s = score([_read("7H", CENTRE + ACROSS)], [Truth("7H", LABELLED)]).to_json()
    assert s["spurious"] == 1
    assert "unlabelled_corner_right" not in s and "spurious_raw" not in s


def test_the_spurious_reads_are_kept_for_listing_and_summed_over_photos() -> None:
    from vision.evaluate import Score

    twice = [_read("7H", CENTRE + ACROSS), _read("7D", CENTRE + ACROSS * 3)]
    s = score(twice, [Truth("7H", LABELLED)], other_corners=True)
    # The other corner read right vouches; the 7D on nothing labelled is the stray.
    assert s.spurious == 1 and [r.label for r in s.strays] == ["7D"]
    total = Score()
    total.add(s)
    total.add(s)
    assert total.spurious == len(total.strays) == 2
