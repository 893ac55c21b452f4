"""Grouping Four Color cards into exposed melds, on generated tables with known melds."""

from __future__ import annotations

import numpy as np
import pytest

from vision import synth_fourcolor as fourcolor
from vision.melds import group_melds
from vision.synth_compose import card_quad


@pytest.mark.parametrize("seed", range(6))
def test_melds_on_generated_tables_match_the_truth(seed: int) -> None:
    scene = fourcolor.render_scene(np.random.default_rng(seed), size=(800, 600))
    melds, fanned = group_melds([o.quad for o in scene.objects])
    assert sorted(map(tuple, melds)) == sorted(map(tuple, scene.melds))
    assert fanned == [i for i, o in enumerate(scene.objects) if o.group == "hand"]


def test_melds_also_group_index_quads() -> None:
    scene = fourcolor.render_scene(np.random.default_rng(7), size=(800, 600), hand=False)
    melds, _ = group_melds([o.index_quad for o in scene.objects])
    assert sorted(map(tuple, melds)) == sorted(map(tuple, scene.melds))


def test_meld_order_follows_the_row_even_upside_down() -> None:
    quads = [card_quad(100 + 30 * k, 100, 25, 80, 0.0) for k in range(3)]
    quads.append(card_quad(300, 100, 25, 80, 0.0))  # a lone general further along
    melds, fanned = group_melds(quads[::-1])  # given right to left: 0 is the lone card
    assert melds == [[3, 2, 1], [0]]
    assert fanned == []
    # The row seen from the other side of the table: the cards' own left-to-right order.
    turned = [card_quad(100 + 30 * k, 100, 25, 80, 180.0) for k in range(3)]
    melds, _ = group_melds(turned)
    assert melds == [[2, 1, 0]]
