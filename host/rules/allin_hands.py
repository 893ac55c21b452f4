"""All In hand ranking (RULINGS §1): categories, side A/B values and the book's tie-break.

The book does not use poker kickers: two hands of one category compare the highest card
*within the pattern* (the pair, the two pairs, the straight, the triple of a full house; for
high card the highest card), by rank and then by suit. Rune cards are never part of a hand.

A card is coded as ``rank * 4 + suit_strength`` (suit strength 3 = strongest suit), so one
integer comparison orders two cards by rank and then suit. A hand's ``key`` is the value of
its category followed by its pattern cards (highest first) and then the other cards: the
first card decides between hands at one table (their cards are disjoint), the rest makes the
order strict over every possible hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from host.rules.notation import (
    ALLIN_SUIT_NAMES,
    ALLIN_SUITS,
    RANK_VALUE,
    RANKS,
    RUNE,
    STANDARD_TO_ALLIN_SUIT,
    NotationError,
    parse_cards,
    standard_to_allin,
)

HAND_SIZE: Final = 5
RUNES_PER_RUNE_CARD: Final = 2
DEFAULT_SUIT_ORDER: Final[str] = "cmbt"  # clock > mask > beetle > tree (RULINGS §1)

# Hand categories, strongest first on side A.
CATEGORIES: Final[tuple[str, ...]] = (
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
)
VALUES: Final[dict[str, dict[str, int]]] = {
    "A": {
        "straight_flush": 10,
        "four_of_a_kind": 7,
        "full_house": 6,
        "flush": 5,
        "straight": 4,
        "three_of_a_kind": 3,
        "two_pair": 2,
        "pair": 1,
        "high_card": 0,
    },
}
# Side B swaps straight and full house in both value and order; values stay distinct, so a
# category's value is also its place in the order on either side.
VALUES["B"] = {**VALUES["A"], "full_house": 4, "straight": 6}
LABELS: Final[dict[str, str]] = {
    "straight_flush": "straight flush",
    "four_of_a_kind": "four of a kind",
    "full_house": "full house",
    "flush": "flush",
    "straight": "straight",
    "three_of_a_kind": "three of a kind",
    "two_pair": "two pair",
    "pair": "pair",
    "high_card": "high card",
}
_WHEEL: Final = (14, 5, 4, 3, 2)
# How many of the C(52, 5) = 2,598,960 hands without rune cards fall in each category (the
# textbook frequencies): what an exhaustive ranking must reproduce.
TEXTBOOK_COUNTS: Final[dict[str, int]] = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}


class HandRank(NamedTuple):
    """A ranked hand. ``key`` orders hands (greater is better) under one side and suit order."""

    name: str  # category, e.g. "straight"
    value: int  # runes the category scores on this side
    key: tuple[int, ...]
    pattern: tuple[str, ...]  # the cards forming the pattern, highest first
    rune_cards: int

    @property
    def runes(self) -> int:
        """Runes the hand scores: its category's value plus 2 per rune card."""
        return self.value + RUNES_PER_RUNE_CARD * self.rune_cards

    @property
    def label(self) -> str:
        return LABELS[self.name]

    def describe(self) -> str:
        text = f"{self.label} ({' '.join(self.pattern)})" if self.pattern else self.label
        if self.rune_cards:
            text += f" + {self.rune_cards} rune card{'s' if self.rune_cards > 1 else ''}"
        return text


_STANDARD_SUIT_NAMES: Final[dict[str, str]] = {
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
    "clubs": "C",
}


def parse_suit_order(text: str, deck: str = "allin") -> str:
    """Suit order strongest first as 4 All In letters, from ``cmbt``, ``c>m>b>t``,
    ``clock,mask,beetle,tree``; with ``deck="standard"``: ``SHDC``, ``spades,hearts,…``
    (mapped onto the All In suits like the cards)."""
    parts = [p for p in text.replace(">", " ").replace(",", " ").split() if p]
    if deck == "standard":
        letters = {**{s: s for s in STANDARD_TO_ALLIN_SUIT}, **_STANDARD_SUIT_NAMES}
        mapping = {k: STANDARD_TO_ALLIN_SUIT[v] for k, v in letters.items()}
        hint = "spades S, hearts H, diamonds D, clubs C"
    else:
        mapping = {s: s for s in ALLIN_SUITS}
        mapping.update({name: letter for letter, name in ALLIN_SUIT_NAMES.items()})
        hint = "clock c, mask m, beetle b, tree t"
    folded = {k.lower(): v for k, v in mapping.items()}
    # "cmbt" is four letters run together. A run of known letters of another length ("cmb")
    # is split too, so that the error says a suit is missing rather than that "cmb" is no suit.
    run = parts[0] if len(parts) == 1 and parts[0].lower() not in folded else ""
    if len(run) == 4 or (len(run) > 1 and all(ch.lower() in folded for ch in run)):
        parts = list(run)
    order = []
    for part in parts:
        if part.lower() not in folded:
            raise NotationError(f"unknown suit {part!r} in suit order {text!r} ({hint})", part)
        order.append(folded[part.lower()])
    if sorted(order) != sorted(ALLIN_SUITS):
        raise NotationError(
            f"suit order {text!r} must name each of the 4 suits once ({hint}), strongest first"
        )
    return "".join(order)


def suit_strengths(suit_order: str = DEFAULT_SUIT_ORDER) -> dict[str, int]:
    """Suit letter → strength (3 = strongest) for a valid 4-letter order."""
    return {suit: 3 - i for i, suit in enumerate(suit_order)}


_CODE_CACHE: dict[tuple[str, str], dict[str, int]] = {}


def card_codes(suit_order: str = DEFAULT_SUIT_ORDER) -> dict[str, int]:
    """Token → integer code (rank*4 + suit strength) for every non-rune All In card."""
    cached = _CODE_CACHE.get(("allin", suit_order))
    if cached is None:
        strength = suit_strengths(suit_order)
        cached = {f"{r}{s}": RANK_VALUE[r] * 4 + strength[s] for r in RANKS for s in ALLIN_SUITS}
        _CODE_CACHE[("allin", suit_order)] = cached
    return cached


def token_of(code: int, suit_order: str = DEFAULT_SUIT_ORDER) -> str:
    rank = code >> 2
    rank = 14 if rank == 1 else rank  # the ace counted low in A-2-3-4-5
    return f"{RANKS[rank - 2]}{suit_order[3 - (code & 3)]}"


def _plan_ranks(ranks: tuple[int, ...]) -> tuple[str, tuple[int, ...], int, bool]:
    """For ranks sorted high to low: category without flushes, the order that lists the
    pattern cards first, the pattern length, and whether it is the ace-low straight."""
    n = len(ranks)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    if n == HAND_SIZE and len(counts) == HAND_SIZE:
        if ranks[0] - ranks[4] == 4:
            return "straight", (0, 1, 2, 3, 4), 5, False
        if ranks == _WHEEL:
            return "straight", (1, 2, 3, 4, 0), 5, True  # the ace counts as 1
        return "high_card", (0, 1, 2, 3, 4), 1, False
    if len(counts) == n:
        return "high_card", tuple(range(n)), 1 if n else 0, False
    # Group by multiplicity then rank: the pattern is the biggest groups.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    perm = tuple(i for rank, _ in groups for i in range(n) if ranks[i] == rank)
    if shape[0] == 4:
        return "four_of_a_kind", perm, 4, False
    if shape[0] == 3:
        if len(shape) > 1 and shape[1] == 2:
            return "full_house", perm, 5, False
        return "three_of_a_kind", perm, 3, False
    if len(shape) > 1 and shape[1] == 2:
        return "two_pair", perm, 4, False
    return "pair", perm, 2, False


# rank tuple → plan; at most 6,188 five-card rank multisets (plus the shorter rune hands)
_PLANS: dict[tuple[int, ...], tuple[str, tuple[int, ...], int, bool]] = {}
_FLUSHED: Final[dict[str, str]] = {"straight": "straight_flush", "high_card": "flush"}


def rank_codes(codes: Sequence[int]) -> tuple[str, tuple[int, ...], int]:
    """Category, ordered codes and pattern length for card codes (no runes): the fast core.

    The ordered codes list the pattern cards first (highest first), then the rest; the ace of
    A-2-3-4-5 is recoded as rank 1 so that the 5 is the straight's highest card.
    """
    cs = sorted(codes, reverse=True)
    ranks = tuple([c >> 2 for c in cs])
    plan = _PLANS.get(ranks)
    if plan is None:
        plan = _PLANS[ranks] = _plan_ranks(ranks)
    name, perm, length, wheel = plan
    ordered = [cs[i] for i in perm]
    if wheel:
        ordered[4] = 4 + (ordered[4] & 3)
    if length == 5 or name == "high_card":
        suit = cs[0] & 3
        if len(cs) == HAND_SIZE and all(c & 3 == suit for c in cs) and name in _FLUSHED:
            name, length = _FLUSHED[name], 5
    return name, tuple(ordered), length


def evaluate(
    cards: Iterable[str],
    side: str = "A",
    suit_order: str = DEFAULT_SUIT_ORDER,
    *,
    deck: str = "allin",
) -> HandRank:
    """Rank a shown hand of 5 cards (tokens of ``deck``: "allin" or "standard").

    Rune cards (standard deck: jokers) are left out of the hand and add 2 runes each.
    """
    if side not in VALUES:
        raise ValueError(f"unknown side {side!r}: All In's player aid has sides A and B")
    tokens = list(cards)
    codes_of = card_codes(suit_order)
    # Fast path: canonical All In tokens, no card twice, at most the box's 2 rune cards.
    runes = tokens.count(RUNE)
    distinct = len(set(tokens)) + max(runes - 1, 0) == len(tokens)
    known = all(t in codes_of or t == RUNE for t in tokens)
    if deck != "allin" or runes > 2 or not distinct or not known:
        tokens = _parsed(tokens, deck)
    if len(tokens) != HAND_SIZE:
        raise NotationError(
            f"an All In hand is {HAND_SIZE} cards, got {len(tokens)}: {' '.join(tokens)}"
        )
    codes = [codes_of[t] for t in tokens if t != RUNE]
    rune_cards = len(tokens) - len(codes)
    name, ordered, length = rank_codes(codes)
    value = VALUES[side][name]
    pattern = tuple(token_of(c, suit_order) for c in ordered[:length])
    return HandRank(name, value, (value, *ordered), pattern, rune_cards)


def _parsed(raw: list[str], deck: str) -> list[str]:
    """Tokens as typed → canonical All In tokens, box-checked (errors name the card)."""
    tokens = parse_cards(deck, raw)
    if deck == "standard":
        tokens = [standard_to_allin(t) for t in tokens]
    elif deck != "allin":
        raise ValueError(f"All In is played with the allin or standard deck, not {deck!r}")
    return tokens


def hand_key(codes: Sequence[int], side: str = "A") -> tuple[int, ...]:
    """The comparable key of a hand given as card codes (runes left out): bench/test speed."""
    name, ordered, _ = rank_codes(codes)
    return (VALUES[side][name], *ordered)
