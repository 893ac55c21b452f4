"""A 6 and a 9 told apart by the bar a deck prints under its numbers (vision.turn_marks)."""

from __future__ import annotations

import numpy as np
import pytest

from host.cli.enroll import deck_order, default_grid
from vision import synth_unseen, turn_marks
from vision.crops import turned

ORDER = deck_order("rummikub")
Layout = tuple[np.ndarray, dict[str, np.ndarray]]


@pytest.fixture(scope="module")
def layout() -> Layout:
    """The unseen tile deck laid out for enrolment (development layout 11), tile by label."""
    cols, _ = default_grid(len(ORDER))
    scene = synth_unseen.layout_scene("rummikub", ORDER, cols, np.random.default_rng(11))
    return scene.image, {t.label: t.quad for t in scene.truths}


def test_the_enrolment_layout_gives_the_decks_bar(layout: Layout) -> None:
    image, quads = layout
    mark = turn_marks.deck_mark(image, [q for label, q in quads.items() if label[1:].isdigit()])
    assert mark is not None
    along, length = mark
    # The unseen deck prints a bar 0.36 of the tile wide, well below its number.
    assert 1.3 < along < 1.9 and 0.7 < length < 1.1, mark


def test_a_deck_without_a_bar_has_none() -> None:
    """The training deck's look underlines a 6 or a 9 at most: no bar under most numbers."""
    cols, _ = default_grid(len(ORDER))
    scene = synth_unseen.layout_scene(
        "rummikub", ORDER, cols, np.random.default_rng(11), unseen=False
    )
    tiles = [t.quad for t in scene.truths if t.label[1:].isdigit()]
    assert turn_marks.deck_mark(scene.image, tiles) is None


@pytest.mark.parametrize("label", ["b6", "r6", "k6", "b9", "r9", "k9"])
def test_a_6_or_9_is_named_by_its_bar_either_way_up(layout: Layout, label: str) -> None:
    """The frame's own up is no help (a read frames a number either way up); the bar is."""
    image, quads = layout
    mark = turn_marks.deck_mark(image, [q for k, q in quads.items() if k[1:].isdigit()])
    assert mark is not None
    quad = quads[label]
    assert turn_marks.number_seen(image, quad, mark) == label[1:]
    assert turn_marks.number_seen(image, turned(quad), mark) == label[1:]
    # The whole photo turned round: the tile now lies upside down.
    h, w = image.shape[:2]
    upside_down = np.ascontiguousarray(image[::-1, ::-1])
    moved = (np.array([w - 1, h - 1], np.float32) - quad).astype(np.float32)
    assert turn_marks.number_seen(upside_down, moved, mark) == label[1:]


def test_a_bar_at_another_distance_decides_nothing(layout: Layout) -> None:
    image, quads = layout
    assert turn_marks.number_seen(image, quads["b6"], (0.6, 0.9)) is None
    assert turn_marks.number_seen(image, quads["b6"], (1.6, 3.0)) is None


def test_only_a_read_6_or_9_whose_twin_is_enrolled_is_turned(layout: Layout) -> None:
    image, quads = layout
    mark = turn_marks.deck_mark(image, [q for k, q in quads.items() if k[1:].isdigit()])
    assert mark is not None
    labels = ["b9", "k6", "b7", "r9"]  # b6 read as b9, k6 and b7 right, r6 read as r9
    frames = [quads["b6"], quads["k6"], quads["b7"], quads["r6"]]
    assert turn_marks.turned_labels(image, labels, frames, mark, ORDER) == [
        "b6",
        "k6",
        "b7",
        "r6",
    ]
    # A profile without r6 enrolled leaves a read r9 alone.
    without = [c for c in ORDER if c != "r6"]
    assert turn_marks.turned_labels(image, labels, frames, mark, without)[3] == "r9"


def test_twins_are_the_6_and_the_9_of_one_colour() -> None:
    assert turn_marks.twin("o6") == "o9" and turn_marks.twin("k9") == "k6"
    assert turn_marks.twin("b8") is None and turn_marks.twin("CJ") is None


def test_a_neighbouring_tiles_edge_is_not_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside a number in a row, the next tile's edge is thin and long, and lies across the
    line to it, as a bar does; it is not on the number's own axis. A table scene of the
    unseen deck (development seed): every 6 and 9 on it named right or left undecided, and
    the charcoal 9 beside a neighbour's edge named only with the axis test."""
    scene = synth_unseen.scene("rummikub", np.random.default_rng(8_600_005))
    mark = (1.65, 0.9)
    twins = [t for t in scene.truths if t.label[1:] in ("6", "9")]
    seen = [turn_marks.number_seen(scene.image, t.quad, mark) for t in twins]
    assert all(v in (None, t.label[1:]) for v, t in zip(seen, twins, strict=True))
    assert seen.count(None) <= 1
    beside = twins[-1]
    assert beside.label == "k9" and seen[-1] == "9"
    monkeypatch.setattr(turn_marks, "BAR_ON_AXIS", 0.0)
    assert turn_marks.number_seen(scene.image, beside.quad, mark) is None
