"""How a real photo's corner index stands in its axis-aligned box (vision.card_turns)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import synth
from vision.card_turns import SURE_ASPECT, box_turn, photo_turns
from vision.recognise import Recogniser
from vision.synth import Truth


def test_the_likelier_framing_says_the_turn_and_else_a_box_far_from_square() -> None:
    assert box_turn(0.6, 0.1, 1.0) == "upright"
    assert box_turn(0.05, 0.5, 1.0) == "sideways"
    # The model's word outweighs the box's shape: a tall box holding a sideways index.
    assert box_turn(0.02, 0.4, 0.7) == "sideways"
    # Too unsure, or too close between the two: the shape decides if it is far from square.
    assert box_turn(0.05, 0.01, 1.0) is None
    assert box_turn(0.4, 0.2, 1.0) is None
    assert box_turn(0.4, 0.2, SURE_ASPECT) == "sideways"
    assert box_turn(0.05, 0.01, 1 / SURE_ASPECT) == "upright"


def _boxed(t: Truth) -> tuple[Truth, str | None]:
    """The index as a hand-drawn box would give it (axis-aligned), and how it stands:
    within 30 degrees of upright, of sideways, or (``None``) slanted between."""
    q = t.quad
    box = np.array(
        [q.min(0), [q[:, 0].max(), q[:, 1].min()], q.max(0), [q[:, 0].min(), q[:, 1].max()]],
        np.float32,
    )
    down = (q[3] + q[2]) / 2 - (q[0] + q[1]) / 2
    off_upright = np.degrees(np.arctan2(abs(down[0]), abs(down[1])))
    stands = "upright" if off_upright < 30 else ("sideways" if off_upright > 60 else None)
    return Truth(t.label, box), stands


def test_indices_on_generated_tables_are_read_the_way_they_stand() -> None:
    # Generated indices at every slant, given to the reader as axis-aligned boxes: the turn
    # is decided for most of them, and for those within 30 degrees of upright or of
    # sideways it is the index's own. (Slanted near 45 degrees, either framing is as far off.)
    recogniser = Recogniser.named("cards")
    decided = wrong = total = 0
    for seed in range(6):
        scene = synth.card_scene(np.random.default_rng(4200 + seed), "cards", layout="apart")
        boxed = [_boxed(t) for t in scene.truths]
        turns = photo_turns(recogniser, scene.image, [b for b, _ in boxed])
        for turn, (_, stands) in zip(turns, boxed, strict=True):
            total += 1
            if turn is not None:
                decided += 1
                wrong += stands is not None and turn != stands
    assert total >= 40
    assert decided >= 0.7 * total
    assert wrong == 0


def test_a_label_outside_the_deck_is_a_clear_error() -> None:
    box = np.array([[10, 10], [30, 10], [30, 40], [10, 40]], np.float32)
    image = np.zeros((60, 60, 3), np.uint8)
    with pytest.raises(ValueError, match=r"\['Zq'\] are not cards of the 'cards' deck"):
        photo_turns(Recogniser.named("cards"), image, [Truth("7H", box), Truth("Zq", box)])
