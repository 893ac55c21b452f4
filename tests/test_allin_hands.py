"""All In hand ranking: categories, side A/B, the book's tie-break, runes, golden master."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from treys import Card, Evaluator

from host.rules.allin_hands import (
    CATEGORIES,
    VALUES,
    card_codes,
    evaluate,
    parse_suit_order,
    rank_codes,
)
from host.rules.allin_hands import (
    TEXTBOOK_COUNTS as TEXTBOOK,
)
from host.rules.notation import ALLIN_SUITS, RANKS, NotationError

# Textbook five-card frequencies out of C(52, 5) = 2,598,960.
TREYS_CLASS = {
    "Straight Flush": "straight_flush",
    "Royal Flush": "straight_flush",
    "Four of a Kind": "four_of_a_kind",
    "Full House": "full_house",
    "Flush": "flush",
    "Straight": "straight",
    "Three of a Kind": "three_of_a_kind",
    "Two Pair": "two_pair",
    "Pair": "pair",
    "High Card": "high_card",
}
TREYS_SUIT = {"c": "s", "m": "h", "b": "d", "t": "c"}


def ev(hand: str, side: str = "A", suits: str = "cmbt") -> tuple[str, int, int]:
    r = evaluate(hand.split(), side, suits)
    return r.name, r.value, r.runes


def beats(a: str, b: str, side: str = "A", suits: str = "cmbt") -> bool:
    return evaluate(a.split(), side, suits).key > evaluate(b.split(), side, suits).key


@pytest.mark.parametrize(
    ("hand", "name", "a", "b"),
    [
        ("9c 10c Jc Qc Kc", "straight_flush", 10, 10),
        ("7c 7m 7b 7t 2c", "four_of_a_kind", 7, 7),
        ("7c 7m 7b 2t 2c", "full_house", 6, 4),
        ("2m 9m Jm Km 4m", "flush", 5, 5),
        ("10c Jm Qb Kt Ac", "straight", 4, 6),
        ("Ac 2m 3b 4t 5c", "straight", 4, 6),
        ("7c 7m 7b 2t 3c", "three_of_a_kind", 3, 3),
        ("7c 7m 2b 2t 3c", "two_pair", 2, 2),
        ("7c 7m 2b 4t 3c", "pair", 1, 1),
        ("Qc Km 2b 4t 3c", "high_card", 0, 0),
        ("Qc Kc Ac 2c 3m", "high_card", 0, 0),  # no wrap-around straight
    ],
)
def test_categories_and_values_on_both_sides(hand: str, name: str, a: int, b: int) -> None:
    assert ev(hand, "A")[:2] == (name, a)
    assert ev(hand, "B")[:2] == (name, b)


def test_side_b_swaps_straight_and_full_house_in_order_too() -> None:
    straight, full_house = "4c 5m 6b 7t 8c", "2c 2m 2b 3t 3c"
    assert beats(full_house, straight, "A")
    assert beats(straight, full_house, "B")
    assert [VALUES["B"][c] for c in CATEGORIES] != sorted(VALUES["B"].values(), reverse=True)


def test_book_example_six_high_straight_beats_the_wheel() -> None:
    # RULINGS §1: in A-2-3-4-5 the ace counts as 1, its highest card is the 5.
    assert beats("4c 5m 6b 7t 8c", "Ac 2m 3b 4t 5c")
    assert evaluate(["Ac", "2m", "3b", "4t", "5c"]).pattern[0] == "5c"
    assert beats("2c 3m 4b 5t 6t", "Ac 2m 3b 4t 5c")


def test_pattern_decides_not_poker_kickers() -> None:
    # Same pair rank: the pair's best suit decides (clock > beetle), the kickers never do.
    assert beats("Kc Km 2b 3t 4c", "Kb Kt Ac Qm Jb")
    # Two pair: the higher pair's highest card decides, not the second pair.
    assert beats("Qc Qm 2b 2t 3c", "Qb Qt Jc Jm Ab")
    # High card: the highest card by rank, then suit.
    assert beats("Ac 2m 4b 6t 8c", "Am Kc Qb Jt 9c")
    # Full houses compare their three of a kind.
    assert beats("3c 3m 3b 2c 2m", "2b 2t Ac Am Ab") is False
    assert beats("3c 3m 3b 2c 2m", "2b 2t 2c Am Ab") is True
    # Flushes: the highest card; straight flushes: the top card.
    assert beats("2m 4m 6m 8m Am", "3c 5c 7c 9c Kc")
    assert beats("9t 10t Jt Qt Kt", "8c 9c 10c Jc Qc")


def test_suit_order_is_a_setting() -> None:
    assert beats("Kc Km 2b 3t 4c", "Kb Kt Ac Qm Jb", suits="cmbt")
    assert beats("Kb Kt Ac Qm Jb", "Kc Km 2b 3t 4c", suits="tbmc")


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("cmbt", "cmbt"),
        ("t>b>m>c", "tbmc"),
        ("clock,mask,beetle,tree", "cmbt"),
        ("Tree Beetle Mask Clock", "tbmc"),
    ],
)
def test_suit_order_spellings(text: str, order: str) -> None:
    assert parse_suit_order(text) == order


def test_standard_deck_suit_order_maps_like_the_cards() -> None:
    assert parse_suit_order("SHDC", "standard") == "cmbt"
    assert parse_suit_order("clubs,diamonds,hearts,spades", "standard") == "tbmc"


@pytest.mark.parametrize("text", ["cmb", "cmbb", "cmbx", "clock,mask"])
def test_bad_suit_order_is_named(text: str) -> None:
    with pytest.raises(NotationError, match="suit"):
        parse_suit_order(text)


@pytest.mark.parametrize("text", ["cmb", "cmbtc", "CMB"])
def test_a_short_or_long_letter_run_says_a_suit_is_missing_or_repeated(text: str) -> None:
    with pytest.raises(NotationError, match="must name each of the 4 suits once"):
        parse_suit_order(text)


def test_rune_cards_are_never_part_of_a_hand() -> None:
    assert ev("R 2c 3c 4c 5c") == ("high_card", 0, 2)  # four to a straight flush: nothing
    assert ev("R R Ac Am 2b") == ("pair", 1, 5)
    assert ev("R 9c 9m 9b 9t") == ("four_of_a_kind", 7, 9)
    assert (
        evaluate(["R", "7c", "7m", "2b", "2t"]).describe() == "two pair (7c 7m 2b 2t) + 1 rune card"
    )


def test_standard_deck_maps_onto_all_in() -> None:
    r = evaluate(["AS", "KS", "QS", "JS", "10S"], deck="standard")
    assert (r.name, r.pattern[0]) == ("straight_flush", "Ac")
    assert evaluate(["X", "X", "2H", "2D", "5C"], deck="standard").runes == 5


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("2c 3c 4c 5c", "is 5 cards, got 4"),
        ("2c 3c 4c 5c 6c 7c", "is 5 cards, got 6"),
        ("2c 3c 4c 5c 2c", "'2c' cannot exist"),
        ("2c 3c 4c 5c 1x", "unknown card '1x'"),
        ("R R R 2c 3c", "'R' cannot exist"),
    ],
)
def test_bad_hands_are_named(hand: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        evaluate(hand.split())


def test_order_is_strict_over_distinct_hands() -> None:
    rng = random.Random(5)
    deck = [*card_codes(), "R", "R"]
    keys: dict[tuple[int, ...], frozenset[str]] = {}
    for _ in range(4000):
        hand = rng.sample(deck, 5)
        key = evaluate(hand).key
        cards = frozenset(c for c in hand if c != "R")
        assert keys.setdefault(key, cards) == cards


def test_golden_master_category_counts_over_all_hands() -> None:
    # Every one of the 2,598,960 hands without rune cards, counted by category.
    codes = sorted(card_codes().values())
    counts = Counter(rank_codes(hand)[0] for hand in itertools.combinations(codes, 5))
    assert counts == TEXTBOOK
    values_b = Counter()
    for name, n in counts.items():
        values_b[VALUES["B"][name]] += n
    assert values_b[6] == TEXTBOOK["straight"] and values_b[4] == TEXTBOOK["full_house"]


def test_categories_agree_with_treys_on_sampled_hands() -> None:
    evaluator = Evaluator()
    cards = [f"{r}{s}" for r in RANKS for s in ALLIN_SUITS]
    rng = random.Random(2024)
    for _ in range(20000):
        hand = rng.sample(cards, 5)
        treys_hand = [Card.new(c[:-1].replace("10", "T") + TREYS_SUIT[c[-1]]) for c in hand]
        theirs = evaluator.class_to_string(
            evaluator.get_rank_class(evaluator.evaluate(treys_hand, []))
        )
        assert evaluate(hand).name == TREYS_CLASS[theirs], hand
