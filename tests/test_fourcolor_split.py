"""Four Color Cards: best split, the winning-card ruling, flower hu, threshold, settlement."""

from __future__ import annotations

from collections import Counter

import pytest
from fourcolor_brute import closest, win_hu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.rules.fourcolor import best_split, score_hand, settle, split_with_win_card
from host.rules.fourcolor_combos import ALL_COMBINATIONS, CARD_TYPES
from host.rules.fourcolor_score import starting_points
from host.rules.notation import NotationError, split_tokens

# A 21-card winning hand: 2+2+1+5+3+0+3 = 16 hu in hand.
WINNING = split_tokens("rG rA rE gG gA gE yR yH yC rS gS yS wS gR gR gR wA wA rR rR rR")


def test_best_split_of_a_winning_hand() -> None:
    split = best_split(WINNING)
    assert split.winning and split.leftover == ()
    assert split.hu == 16
    kinds = Counter(c.kind for c in split.combinations)
    assert kinds == {
        "general_advisor_elephant": 2,
        "chariot_horse_cannon": 1,
        "four_soldiers": 1,
        "pong": 2,
        "pair": 1,
    }
    assert sorted(c for combo in split.combinations for c in combo.cards) == sorted(WINNING)


def test_the_split_of_highest_hu_wins() -> None:
    # Four red generals with an advisor and an elephant: general kong (6) would strand the
    # advisor and elephant, so the only winning split is 3 singles + general-advisor-elephant.
    split = best_split(split_tokens("rG rG rG rG rA rE"))
    assert split.winning and split.hu == 3 * 1 + 2
    # Alone, four generals are a general kong (6 in hand) rather than four singles (4).
    assert best_split(split_tokens("wG wG wG wG")).hu == 6
    # Three red soldiers and one of each other colour: four colours (5) would strand two red
    # soldiers (no soldier pair), so a soldier pong (3) and three colours (3) it is.
    assert best_split(split_tokens("rS rS rS gS yS wS")).hu == 3 + 3
    assert not best_split(split_tokens("rS rS gS gS")).winning


def test_soldiers_pick_the_richest_mix() -> None:
    # r r g g y w: four colours (5) + a soldier pair? No pair of soldiers exists, so the hand
    # only splits as two three-colour sets (3 + 3).
    split = best_split(split_tokens("rS rS gS gS yS wS"))
    assert split.winning and split.hu == 6
    assert {c.kind for c in split.combinations} == {"three_soldiers"}


def test_a_hand_that_is_no_winning_shape_shows_what_is_left() -> None:
    split = best_split(split_tokens("rR rH rC yA gS"))
    assert not split.winning
    assert split.leftover == ("gS", "yA")
    assert split.hu == 1
    assert score_hand(split_tokens("rR rH rC yA gS")).explain() == (
        "not a winning shape: gS yA fit in no combination"
    )


def test_win_card_taken_from_another_player_counts_exposed() -> None:
    hand = [c for c in WINNING]
    hand.remove("rR")  # waiting on the third red chariot
    by_other = split_with_win_card(hand, "rR", "other")
    by_self = split_with_win_card(hand, "rR", "self")
    assert by_self.hu == 16  # the pong rR rR rR at its hand value 3
    assert by_other.hu == 16 - 3 + 1  # ... at its exposed value 1
    completed = [c for c in by_other.combinations if c.exposed]
    assert [(c.kind, c.cards) for c in completed] == [("pong", ("rR", "rR", "rR"))]
    # The option: a self-drawn winning card may count exposed too.
    assert split_with_win_card(hand, "rR", "self", self_drawn_at_hand=False).hu == 14


def test_the_winner_picks_where_the_taken_card_counts_least_badly() -> None:
    # yR completes either the pong yR yR yR (exposed 1) or, with yR yR yR held, a kong
    # (exposed 6) — the split that scores more is taken.
    hand = split_tokens("yR yR yR gS yS wS")
    split = split_with_win_card(hand, "yR", "other")
    assert split.hu == 6 + 3
    # A general kong completed by a taken general counts 8, more than its hand value 6.
    assert split_with_win_card(split_tokens("rG rG rG"), "rG", "other").hu == 8
    assert split_with_win_card(split_tokens("rG rG rG"), "rG", "self").hu == 6


def test_flower_hu_counts_identical_cards_held_and_exposed() -> None:
    hand = split_tokens("rR rR rR gS yS wS")
    score = score_hand(hand, exposed=[["gA", "gA", "gA"]], flower="gA")
    assert score.flower_hu == 3  # at most 4 - 1: the flower itself is the fourth copy
    assert score.hu == 3 + 3 + 1 + 3
    assert score_hand(hand, flower="wG").flower_hu == 0
    with pytest.raises(NotationError, match="5× 'rR'"):
        score_hand([*hand, "rR"], flower="rR")


def test_threshold_and_settlement_with_the_stake() -> None:
    score = score_hand(WINNING)
    assert score.meets_threshold and score.stake == 16 - 10 + 1
    delta = settle(["ann", "bob", "cat", "dan"], "bob", score)
    assert delta == {"ann": -7, "bob": 21, "cat": -7, "dan": -7}
    assert sum(delta.values()) == 0
    exactly = score_hand(WINNING, threshold=16)
    assert exactly.meets_threshold and exactly.stake == 1  # the +1 stake alone


def test_false_hu_pays_threshold_plus_one_to_everyone() -> None:
    low = score_hand(split_tokens("rG rA rE gS yS wS"))  # 2 + 3 = 5 hu
    assert low.winning_shape and not low.meets_threshold
    assert low.explain() == "5 hu falls short of the threshold of 10"
    assert score_hand(WINNING).explain() == "16 hu reaches the threshold of 10"
    assert settle(["ann", "bob", "cat"], "ann", low) == {"ann": -22, "bob": 11, "cat": 11}
    not_a_shape = score_hand(split_tokens("rG rA"))
    assert not not_a_shape.meets_threshold and not_a_shape.stake == -11
    assert not_a_shape.explain() == "not a winning shape: rA fits in no combination"
    assert score_hand(split_tokens("rG rA rE"), threshold=2).stake == 1


def test_starting_points_are_ten_per_player() -> None:
    assert starting_points(["a", "b"]) == 20
    assert starting_points(["a", "b", "c", "d"]) == 40


def test_box_limits_are_enforced_across_hand_melds_and_win_card() -> None:
    with pytest.raises(NotationError, match="5× 'yC'"):
        score_hand(split_tokens("yC yC"), exposed=[["yC", "yC"]], win_card="yC")


# -- the fast splitter against the brute-force reference ------------------------------------
def _fits_box(cards: list[str]) -> bool:
    return max(Counter(cards).values(), default=0) <= 4


any_cards = st.lists(st.sampled_from(CARD_TYPES), max_size=21).filter(_fits_box)
few_cards = st.lists(st.sampled_from(CARD_TYPES), max_size=9).filter(_fits_box)
# Hands built from combinations, so that most are winning shapes (random ones rarely are).
built = (
    st.lists(st.sampled_from(ALL_COMBINATIONS), min_size=1, max_size=8)
    .map(lambda combos: [CARD_TYPES[i] for _, cards in combos for i in cards])
    .filter(lambda cards: len(cards) <= 21 and _fits_box(cards))
)
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@SETTINGS
@given(st.one_of(built, any_cards))
def test_splitter_matches_brute_force_on_winning_shapes(cards: list[str]) -> None:
    split = best_split(cards)
    expected = win_hu(cards)
    assert split.winning == (expected is not None)
    if expected is not None:
        assert split.hu == expected
        assert sorted(c for combo in split.combinations for c in combo.cards) == sorted(cards)


@SETTINGS
@given(st.one_of(built.filter(lambda c: len(c) <= 10), few_cards))
def test_splitter_matches_brute_force_on_closest_split(cards: list[str]) -> None:
    split = best_split(cards)
    assert (len(split.leftover), split.hu) == closest(cards)
    used = [c for combo in split.combinations for c in combo.cards] + list(split.leftover)
    assert sorted(used) == sorted(cards)


@SETTINGS
@given(built, st.data())
def test_win_card_ruling_matches_brute_force(cards: list[str], data: st.DataObject) -> None:
    win = data.draw(st.sampled_from(cards))
    hand = list(cards)
    hand.remove(win)
    split = split_with_win_card(hand, win, "other")
    expected = win_hu(cards, win_card=win)
    assert split.winning == (expected is not None)
    if expected is not None:
        assert split.hu == expected
