"""Four Color Cards: the best split of a hand into combinations, and a hand's hu.

No combination mixes two *groups* of card types: per colour, {general, advisor, elephant} and
{chariot, horse, cannon}; and the four soldiers (the only cards whose combinations mix colours).
So a hand is nine independent small problems. Each group has at most 5^3 or 5^4 count states,
and every state's best answer is computed once, at import, by a memoised search; the best split
of any hand is then nine table look-ups.

Two answers per state: the *winning* split (every card in a combination, highest hu) if there
is one, and the *closest* split (fewest cards left over, then highest hu) for hands that are
not winning shapes. Both objectives add up over groups, so the per-group optima combine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal

from host.rules.fourcolor_combos import (
    ALL_COMBINATIONS,
    CARD_TYPES,
    COMBINATIONS_WITH,
    INDEX,
    N_TYPES,
    PIECES,
    SOLDIER,
    Combination,
    counts_of,
    hu_value,
    sort_cards,
)

WinFrom = Literal["self", "other"]
Plan = tuple[tuple[str, tuple[int, ...]], ...]  # (kind, card indices) per combination

_P = len(PIECES)
GROUPS: Final[tuple[tuple[int, ...], ...]] = tuple(
    [tuple(c * _P + p for p in (0, 1, 2)) for c in range(4)]
    + [tuple(c * _P + p for p in (3, 4, 5)) for c in range(4)]
    + [tuple(c * _P + PIECES.index(SOLDIER) for c in range(4))]
)


def _group_combinations(group: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    inside = set(group)
    return tuple(c for c in ALL_COMBINATIONS if set(c[1]) <= inside)


# Every combination lies inside exactly one group: the decomposition is exact.
assert sum(len(_group_combinations(g)) for g in GROUPS) == len(ALL_COMBINATIONS)
assert sorted(i for g in GROUPS for i in g) == list(range(N_TYPES))


@dataclass(frozen=True, slots=True)
class _Best:
    win_hu: int  # -1: no winning split
    win_plan: Plan
    left: int  # cards left over in the closest split
    close_hu: int
    close_plan: Plan
    close_left: tuple[int, ...]  # card indices left over


def _solve_group(group: tuple[int, ...]) -> dict[tuple[int, ...], _Best]:
    combos = _group_combinations(group)
    position = {card: k for k, card in enumerate(group)}
    local = [
        (kind, cards, hu_value(kind, False), [position[c] for c in cards]) for kind, cards in combos
    ]

    @cache
    def best(counts: tuple[int, ...]) -> _Best:
        first = next((k for k, n in enumerate(counts) if n), None)
        if first is None:
            return _Best(0, (), 0, 0, (), ())
        # Leave one copy of the first card over (only the closest split may do that).
        rest = list(counts)
        rest[first] -= 1
        sub = best(tuple(rest))
        answer = _Best(
            -1, (), sub.left + 1, sub.close_hu, sub.close_plan, (group[first], *sub.close_left)
        )
        for kind, cards, hu, where in local:
            if group[first] not in cards:
                continue
            rest = list(counts)
            for k in where:
                rest[k] -= 1
            if min(rest) < 0:
                continue
            sub = best(tuple(rest))
            step = ((kind, cards),)
            win_hu, win_plan = answer.win_hu, answer.win_plan
            if sub.win_hu >= 0 and sub.win_hu + hu > win_hu:
                win_hu, win_plan = sub.win_hu + hu, step + sub.win_plan
            left, close_hu, close_plan, close_left = (
                answer.left,
                answer.close_hu,
                answer.close_plan,
                answer.close_left,
            )
            if (-sub.left, sub.close_hu + hu) > (-left, close_hu):
                left, close_hu = sub.left, sub.close_hu + hu
                close_plan, close_left = step + sub.close_plan, sub.close_left
            answer = _Best(win_hu, win_plan, left, close_hu, close_plan, close_left)
        return answer

    table: dict[tuple[int, ...], _Best] = {}
    size = len(group)
    for code in range(5**size):
        counts = tuple((code // 5**k) % 5 for k in range(size))
        table[counts] = best(counts)
    return table


_TABLES: Final[tuple[tuple[tuple[int, ...], dict[tuple[int, ...], _Best]], ...]] = tuple(
    (group, _solve_group(group)) for group in GROUPS
)


@dataclass(frozen=True, slots=True)
class Split:
    """A hand cut into combinations; ``leftover`` are the cards in none (empty: winning)."""

    combinations: tuple[Combination, ...]
    leftover: tuple[str, ...]

    @property
    def winning(self) -> bool:
        return not self.leftover

    @property
    def hu(self) -> int:
        return sum(c.hu for c in self.combinations)


def _plan_to_combinations(plan: Iterable[tuple[str, tuple[int, ...]]]) -> list[Combination]:
    return [Combination(kind, tuple(CARD_TYPES[i] for i in cards)) for kind, cards in plan]


def best_win_hu(counts: Sequence[int]) -> int:
    """The highest hu of a split of the counts with no card left over; -1 if there is none."""
    total = 0
    for group, table in _TABLES:
        hu = table[tuple([counts[i] for i in group])].win_hu
        if hu < 0:
            return -1
        total += hu
    return total


def split_counts(counts: Sequence[int]) -> Split:
    """The best split of a hand given as 28 counts (each 0..4, in ``CARD_TYPES`` order).

    A winning shape if one exists (highest hu among those); otherwise the split leaving the
    fewest cards over, then the highest hu.
    """
    bests = [table[tuple([counts[i] for i in group])] for group, table in _TABLES]
    if all(b.win_hu >= 0 for b in bests):
        return Split(tuple(_plan_to_combinations(p for b in bests for p in b.win_plan)), ())
    plan = _plan_to_combinations(p for b in bests for p in b.close_plan)
    leftover = sort_cards(CARD_TYPES[i] for b in bests for i in b.close_left)
    return Split(tuple(plan), leftover)


def best_split(cards: Iterable[str]) -> Split:
    """The best split of canonical card tokens (see :func:`split_counts`)."""
    counts = counts_of(cards)
    if max(counts, default=0) > 4:
        raise ValueError("a hand cannot hold more than 4 copies of a card")
    return split_counts(counts)


def split_with_win_card(
    hand: Iterable[str], win_card: str, win_from: WinFrom, self_drawn_at_hand: bool = True
) -> Split:
    """The best split of the hand plus the card that completes it.

    RULINGS.md §3: the combination completed by a card taken from another player counts at
    its exposed value (and is listed as exposed); one completed by the winner's own draw counts
    at its hand value, unless the option says exposed.
    """
    counts = counts_of(hand)
    w = INDEX[win_card]
    counts[w] += 1
    if max(counts) > 4:
        raise ValueError("a hand cannot hold more than 4 copies of a card")
    if win_from == "self" and self_drawn_at_hand:
        return split_counts(counts)
    best_total, best = -1, None
    for kind, cards in COMBINATIONS_WITH[w]:
        rest = list(counts)
        for i in cards:
            rest[i] -= 1
        if min(rest) < 0:
            continue
        rest_hu = best_win_hu(rest)
        if rest_hu < 0:
            continue
        total = rest_hu + hu_value(kind, True)
        if total > best_total:
            completed = Combination(kind, tuple(CARD_TYPES[i] for i in cards), exposed=True)
            best_total, best = total, Split((completed, *split_counts(rest).combinations), ())
    return best if best is not None else split_counts(counts)
