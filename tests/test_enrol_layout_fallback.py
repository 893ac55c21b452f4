"""Every card or tile found in the layout gets crops in the profile, even where the strict
look finds no index (a joker spelt downwards, a rune the model calls nothing, a pale tile
number the detector misses): a deck left incomplete is refused, or reads that card as its
nearest neighbour."""

from __future__ import annotations

import numpy as np

from vision import enrol_layout, synth_unseen

SIZE = (32, 48)


def _sure_nothing(batch: np.ndarray) -> np.ndarray:
    """A model that calls everything nothing (a deck it never saw)."""
    return np.full(len(batch), 0.99, np.float32)


def _layout(game: str, labels: list[str]) -> synth_unseen.Layout:
    return synth_unseen.layout_scene(game, labels, len(labels), np.random.default_rng(3))


def test_a_card_the_model_calls_nothing_still_gives_its_corner_indices() -> None:
    layout = _layout("standard", ["7H"])
    (quad,) = enrol_layout.outlines(layout.image)
    strict = enrol_layout.card_index_crops(layout.image, quad, SIZE, _sure_nothing, strict=False)
    assert strict  # index-shaped corner proposals exist
    found = enrol_layout.card_index_crops(layout.image, quad, SIZE, _sure_nothing)
    assert len(found) == len(strict)
    assert all(c.shape == (SIZE[1], SIZE[0], 3) for c in found)


def test_a_tile_without_a_proposal_is_enrolled_by_its_outline() -> None:
    layout = _layout("rummikub", ["b7"])
    (quad,) = enrol_layout.outlines(layout.image)
    blank = layout.image.copy()
    # Paint the number out: the detector then proposes nothing on the tile.
    c = quad.mean(axis=0).astype(int)
    paper = blank[int(quad[0][1]) + 6, c[0]].tolist()
    h = int(np.linalg.norm(quad[3] - quad[0]))
    w = int(np.linalg.norm(quad[1] - quad[0]))
    blank[c[1] - h // 2 + 5 : c[1] + h // 2 - 5, c[0] - w // 2 + 5 : c[0] + w // 2 - 5] = paper
    found = enrol_layout.tile_crops(blank, quad, SIZE, _sure_nothing)
    assert len(found) == 1 + enrol_layout.JITTERS
    assert all(c.shape == (SIZE[1], SIZE[0], 3) for c in found)
