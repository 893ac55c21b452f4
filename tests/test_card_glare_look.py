"""Card indices washed out by glare, looked for again at the photo's own size
(vision.glare_look)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.enrol_helpers import one_print_deck
from vision import detect_cards, glare_look, overlaps, synth, synth_unseen
from vision.evaluate import Score, score
from vision.matching import same_object
from vision.reader import TableReader

# A development table (not the bench's): a 10C lies under a bright spot, its paper clipped to
# white, its index's print 30-40 darker than the paper.
PRINT, SCENE = 30, 61015


@pytest.fixture(scope="module")
def glare_scene() -> synth.Scene:
    deck = synth_unseen.deck_print(PRINT)
    return synth_unseen.scene("cards", np.random.default_rng(SCENE), deck=deck)


def _covers(quads: list[np.ndarray], truth: np.ndarray) -> bool:
    return any(same_object(q, truth) for q in quads)


def test_an_index_on_clipped_paper_is_proposed_at_the_photos_own_size(
    glare_scene: synth.Scene,
) -> None:
    washed = [np.asarray(t.quad, np.float32) for t in glare_scene.truths if t.label == "10C"]
    assert len(washed) == 2
    first = detect_cards.card_candidates(glare_scene.image)
    assert not any(_covers(first, t) for t in washed)
    again = glare_look.proposals(glare_scene.image, [])
    assert any(_covers(again, t) for t in washed)


def test_proposals_are_kept_only_about_as_wide_as_the_indices_read(
    glare_scene: synth.Scene,
) -> None:
    every = glare_look.proposals(glare_scene.image, [])
    widths = [overlaps.short_side(q) for q in every]
    typical = float(np.median(widths))
    sized = glare_look.proposals(glare_scene.image, [typical])
    lo, hi = glare_look.SIZES
    assert 0 < len(sized) < len(every)
    assert all(lo * typical <= overlaps.short_side(q) <= hi * typical for q in sized)


def test_a_photo_seen_at_its_own_size_or_without_clipped_paper_is_not_looked_at_again(
    glare_scene: synth.Scene,
) -> None:
    image = glare_scene.image
    small = image[: detect_cards.CARD_WORK_SIDE, : detect_cards.CARD_WORK_SIDE]
    assert glare_look.looked_at_again(image)
    assert not glare_look.looked_at_again(small)
    assert glare_look.proposals(small, []) == []
    dimmed = (image.astype(np.float32) * 0.9).astype(np.uint8)  # nothing left at 250 or more
    assert not glare_look.looked_at_again(dimmed)
    assert glare_look.proposals(dimmed, []) == []


def test_an_enrolled_decks_index_under_glare_is_read() -> None:
    """A one-print deck enrolled once, read on the glare table: both 10C indices were never
    proposed; looked for again at the photo's own size, they are read."""
    reader = TableReader("cards")
    (scene,) = one_print_deck(reader, PRINT, range(SCENE, SCENE + 1))

    def read() -> Score:
        return score(reader.read(scene.image).objects, scene.truths, partial=scene.partial)

    looked = read()
    reader.glare = False
    first = read()
    assert first.confusions[("10C", "10C")] == 0
    assert looked.confusions[("10C", "10C")] >= 1
    assert looked.right > first.right
    assert looked.spurious <= first.spurious
