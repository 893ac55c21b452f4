"""The unseen deck style as one physical deck: a deck print fixes font and index geometry for
every card, so the deck enrolled is the deck read (without one, each card drawn is printed
its own way)."""

from __future__ import annotations

import numpy as np

from vision import synth_unseen


def _index_quads(seed: int, deck: synth_unseen.DeckPrint | None) -> np.ndarray:
    _, quads = synth_unseen.render_card("7H", "standard", np.random.default_rng(seed), 280, deck)
    return np.asarray(quads)


def test_a_deck_print_prints_every_copy_of_a_card_alike() -> None:
    deck = synth_unseen.deck_print(3)
    assert np.allclose(_index_quads(1, deck), _index_quads(2, deck))
    tile_a = synth_unseen.render_tile("b7", np.random.default_rng(1), 96, deck)
    tile_b = synth_unseen.render_tile("b7", np.random.default_rng(2), 96, deck)
    # Same print: the number's ink lies in the same place (paper and ink shade still vary).
    ink_a, ink_b = tile_a.min(axis=2) < 150, tile_b.min(axis=2) < 150
    assert (ink_a == ink_b).mean() > 0.97


def test_without_a_deck_print_each_card_is_printed_its_own_way() -> None:
    differ = [
        not np.allclose(_index_quads(1, None), _index_quads(seed, None)) for seed in range(2, 6)
    ]
    assert any(differ)


def test_deck_prints_are_seeded() -> None:
    assert synth_unseen.deck_print(5) == synth_unseen.deck_print(5)
    assert len({synth_unseen.deck_print(s) for s in range(6)}) > 1
