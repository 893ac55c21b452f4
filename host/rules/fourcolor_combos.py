"""Four Color Cards: the 28 card types and the combinations they form (RULINGS.md §3).

A card type is a colour (r g y w) and a piece (G A E R H C S); the box holds four identical
copies of each. A *combination* is a group of cards the rule book names, with a hu value that
depends on whether it lies in the hand or face up (exposed):

========================  ===============================  ====  =======
kind                      cards                            hand  exposed
========================  ===============================  ====  =======
pair                      2 identical, not S, not G        0     0
general                   1 general                        1     1
chariot_horse_cannon      R H C of one colour              1     1
general_advisor_elephant  G A E of one colour              2     2
pong                      3 identical, not G               3     1
three_soldiers            3 soldiers of 3 colours          3     3
four_soldiers             4 soldiers of 4 colours          5     5
kong                      4 identical, not G               8     6
general_kong              4 identical generals             6     8
========================  ===============================  ====  =======
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations as choose
from typing import Final

from host.rules.notation import (
    FOURCOLOR_COLOURS,
    FOURCOLOR_PIECE_NAMES,
    FOURCOLOR_PIECES,
    parse_token,
)

COLOURS: Final = FOURCOLOR_COLOURS  # r g y w
PIECES: Final = FOURCOLOR_PIECES  # G A E R H C S
COPIES: Final = 4
GENERAL, ADVISOR, ELEPHANT, CHARIOT, HORSE, CANNON, SOLDIER = PIECES

# Card types in notation order; a hand is often handled as a vector of 28 counts.
CARD_TYPES: Final[tuple[str, ...]] = tuple(f"{c}{p}" for c in COLOURS for p in PIECES)
INDEX: Final[dict[str, int]] = {card: i for i, card in enumerate(CARD_TYPES)}
N_TYPES: Final = len(CARD_TYPES)

PAIR = "pair"
SINGLE_GENERAL = "general"
CHARIOT_HORSE_CANNON = "chariot_horse_cannon"
GENERAL_ADVISOR_ELEPHANT = "general_advisor_elephant"
PONG = "pong"
THREE_SOLDIERS = "three_soldiers"
FOUR_SOLDIERS = "four_soldiers"
KONG = "kong"
GENERAL_KONG = "general_kong"

# kind -> (hu in hand, hu exposed), straight from the rule book's table.
HU: Final[dict[str, tuple[int, int]]] = {
    PAIR: (0, 0),
    SINGLE_GENERAL: (1, 1),
    CHARIOT_HORSE_CANNON: (1, 1),
    GENERAL_ADVISOR_ELEPHANT: (2, 2),
    PONG: (3, 1),
    THREE_SOLDIERS: (3, 3),
    FOUR_SOLDIERS: (5, 5),
    KONG: (8, 6),
    GENERAL_KONG: (6, 8),
}
KINDS: Final[tuple[str, ...]] = tuple(HU)
KIND_ZH: Final[dict[str, str]] = {
    PAIR: "對",
    SINGLE_GENERAL: "將",
    CHARIOT_HORSE_CANNON: "車馬包",
    GENERAL_ADVISOR_ELEPHANT: "將士象",
    PONG: "碰",
    THREE_SOLDIERS: "三色兵卒",
    FOUR_SOLDIERS: "四色兵卒",
    KONG: "槓",
    GENERAL_KONG: "將槓",
}

# Claim classes for priority: kongs and pongs outrank every other combination (chi, 吃).
PONG_KINDS: Final = frozenset({PONG, KONG, GENERAL_KONG})


def colour(card: str) -> str:
    return card[0]


def piece(card: str) -> str:
    return card[1]


def hu_value(kind: str, exposed: bool) -> int:
    hand, face_up = HU[kind]
    return face_up if exposed else hand


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=INDEX.__getitem__))


def explain(cards: Iterable[str]) -> tuple[str | None, str]:
    """The kind the cards form, or ``None`` and the reason in words."""
    group = sort_cards(cards)
    shown = " ".join(group)
    if not group:
        return None, "an empty group of cards is not a combination"
    if len(group) > 4:
        return None, f"{shown}: no combination has more than 4 cards"
    pieces = {piece(c) for c in group}
    colours = [colour(c) for c in group]
    identical = len(set(group)) == 1
    first = group[0]
    if pieces == {SOLDIER}:
        if identical:
            if len(group) == 3:
                return PONG, ""
            if len(group) == 4:
                return KONG, ""
            return None, f"{shown}: soldiers form no pair or single; they need 3 colours or a pong"
        if len(set(colours)) == len(group) >= 3:
            return (THREE_SOLDIERS if len(group) == 3 else FOUR_SOLDIERS), ""
        return (
            None,
            f"{shown}: soldiers of mixed colours must all differ in colour (3 or 4 of them)",
        )
    if identical:
        if piece(first) == GENERAL:
            if len(group) == 1:
                return SINGLE_GENERAL, ""
            if len(group) == 4:
                return GENERAL_KONG, ""
            return None, f"{shown}: generals form no pair or pong, only singles and a kong of 4"
        if len(group) == 1:
            return (
                None,
                f"{shown}: a single {FOURCOLOR_PIECE_NAMES[piece(first)]} is no combination",
            )
        return {2: PAIR, 3: PONG, 4: KONG}[len(group)], ""
    if len(group) == 3 and len(set(group)) == 3:
        for kind, wanted in (
            (GENERAL_ADVISOR_ELEPHANT, {GENERAL, ADVISOR, ELEPHANT}),
            (CHARIOT_HORSE_CANNON, {CHARIOT, HORSE, CANNON}),
        ):
            if pieces == wanted:
                if len(set(colours)) == 1:
                    return kind, ""
                return None, f"{shown}: {kind.replace('_', '-')} must be of one colour"
    return None, f"{shown} is not a combination"


def classify(cards: Iterable[str]) -> str | None:
    """The kind of combination the cards form, or ``None``."""
    return explain(cards)[0]


@dataclass(frozen=True, slots=True)
class Combination:
    """One combination of a split or one exposed meld."""

    kind: str
    cards: tuple[str, ...]
    exposed: bool = False

    @property
    def hu(self) -> int:
        return hu_value(self.kind, self.exposed)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "exposed": self.exposed,
            "hu": self.hu,
        }

    def __str__(self) -> str:
        where = "exposed" if self.exposed else "in hand"
        return f"{' '.join(self.cards)} ({self.kind}, {where}, {self.hu} hu)"


class MeldError(ValueError):
    """Cards offered as a combination that are not one; the message says why."""


def meld(cards: Iterable[str], exposed: bool = True) -> Combination:
    """The combination the cards (tokens, any spelling) form; :class:`MeldError` if none."""
    parsed = sort_cards(parse_token("fourcolor", c) for c in cards)
    kind, reason = explain(parsed)
    if kind is None:
        raise MeldError(reason)
    return Combination(kind, parsed, exposed)


def _all_combinations() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every combination that can exist, as (kind, sorted card indices)."""
    found: list[tuple[str, tuple[int, ...]]] = []
    for size in (1, 2, 3, 4):
        for types in choose(range(N_TYPES), size):
            kind = classify(CARD_TYPES[i] for i in types)
            if kind is not None:
                found.append((kind, types))
        for i in range(N_TYPES):  # identical cards: pair, pong, kong
            if size > 1:
                kind = classify([CARD_TYPES[i]] * size)
                if kind is not None:
                    found.append((kind, (i,) * size))
    return tuple(sorted(set(found), key=lambda kc: (kc[1], kc[0])))


ALL_COMBINATIONS: Final = _all_combinations()
"""(kind, card indices) of every possible combination: the splitter's alphabet."""

COMBINATIONS_WITH: Final[tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]] = tuple(
    tuple(c for c in ALL_COMBINATIONS if i in c[1]) for i in range(N_TYPES)
)
"""For each card type, the combinations that contain it."""


def counts_of(cards: Iterable[str]) -> list[int]:
    counts = [0] * N_TYPES
    for card in cards:
        counts[INDEX[card]] += 1
    return counts
