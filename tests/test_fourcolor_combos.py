"""Four Color Cards: the rule book's combinations and its hu table (RULINGS.md §3)."""

from __future__ import annotations

import pytest

from host.rules.fourcolor import Combination, MeldError, classify, meld, score_hand
from host.rules.fourcolor_combos import ALL_COMBINATIONS, CARD_TYPES, HU, KIND_ZH, explain
from host.rules.notation import NotationError, split_tokens

# The book's table 每种组合的胡数 (手上/场上), one example hand per line.
HU_TABLE = [
    ("pair", "rA rA", 0, 0),
    ("general", "rG", 1, 1),
    ("chariot_horse_cannon", "gR gH gC", 1, 1),
    ("general_advisor_elephant", "yG yA yE", 2, 2),
    ("pong", "wH wH wH", 3, 1),
    ("three_soldiers", "rS gS yS", 3, 3),
    ("four_soldiers", "rS gS yS wS", 5, 5),
    ("kong", "rC rC rC rC", 8, 6),
    ("general_kong", "gG gG gG gG", 6, 8),
]


@pytest.mark.parametrize(("kind", "cards", "in_hand", "exposed"), HU_TABLE)
def test_hu_table(kind: str, cards: str, in_hand: int, exposed: int) -> None:
    assert classify(cards.split()) == kind
    assert HU[kind] == (in_hand, exposed)
    assert KIND_ZH[kind]
    assert meld(cards.split(), exposed=False).hu == in_hand
    assert meld(cards.split(), exposed=True).hu == exposed
    # Scored as a whole hand, and as a meld laid face up.
    assert score_hand(cards.split()).hu == in_hand
    assert score_hand([], exposed=[cards.split()]).hu == exposed


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ("rS rS", "soldiers form no pair"),  # 注意: no soldier pair in this game
        ("gG gG", "generals form no pair or pong"),
        ("gG gG gG", "generals form no pair or pong"),  # no general pong
        ("rR gH rC", "chariot-horse-cannon must be of one colour"),
        ("rG rA wE", "general-advisor-elephant must be of one colour"),
        ("rS rS gS", "must all differ in colour"),
        ("rS gS", "3 or 4 of them"),
        ("yA", "a single advisor is no combination"),
        ("rR rH", "is not a combination"),
        ("rA rA rA rA rA", "no combination has more than 4 cards"),
        ("rA rE rR", "is not a combination"),
    ],
)
def test_not_combinations_say_why(cards: str, why: str) -> None:
    kind, reason = explain(cards.split())
    assert kind is None
    assert why in reason
    with pytest.raises(MeldError, match=why):
        meld(cards.split())


def test_a_single_soldier_is_dead_weight() -> None:
    # 小提示: a lone soldier makes no combination, so it is the card to discard first.
    score = score_hand(split_tokens("rG yS"))
    assert not score.winning_shape
    assert score.leftover == ("yS",)


def test_every_combination_is_enumerated() -> None:
    kinds = {kind for kind, _ in ALL_COMBINATIONS}
    assert kinds == set(HU)
    count = {kind: sum(1 for k, _ in ALL_COMBINATIONS if k == kind) for kind in HU}
    assert count == {
        "pair": 4 * 5,  # advisor, elephant, chariot, horse, cannon per colour
        "general": 4,
        "chariot_horse_cannon": 4,
        "general_advisor_elephant": 4,
        "pong": 4 * 6,  # every piece but the general, soldiers included
        "three_soldiers": 4,
        "four_soldiers": 1,
        "kong": 4 * 6,
        "general_kong": 4,
    }
    assert len(CARD_TYPES) == 28


def test_chinese_names_are_accepted() -> None:
    assert meld(["紅車", "紅馬", "紅包"]) == Combination(
        "chariot_horse_cannon", ("rR", "rH", "rC"), True
    )
    with pytest.raises(NotationError, match="unknown card 'rX'"):
        meld(["rX"])
