"""Pieces the card-game engines share: rules from one step function, seats, reshuffles.

An engine written as ``step(state, event) -> state`` that raises :class:`RuleViolation` with
the reason gets ``check`` (try the step) and ``evolve`` (the step) from :class:`StepRules`,
so the explanation of a refusal and the effect of an acceptance come from the same code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from host.rules.base import Event, RuleViolation

S = TypeVar("S")


class StepRules(Generic[S]):
    game: str

    def step(self, state: S, event: Event) -> S:
        raise NotImplementedError

    def check(self, state: S, event: Event) -> str | None:
        try:
            self.step(state, event)
        except RuleViolation as exc:
            return str(exc)
        return None

    def evolve(self, state: S, event: Event) -> S:
        return self.step(state, event)


def seats(setup: Event, title: str, fewest: int, most: int) -> tuple[tuple[str, ...], int]:
    """The players in seat order and the first player's seat (``first``, default seat 0)."""
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise RuleViolation("setup needs 'players': a list of names in seat order")
    if not fewest <= len(players) <= most:
        raise RuleViolation(f"{title} is for {fewest}–{most} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise RuleViolation("player names must differ")
    first = setup.get("first", players[0])
    if first not in players:
        raise RuleViolation(f"first player {first!r} is not one of {', '.join(players)}")
    return tuple(players), players.index(first)


def reshuffled(
    deck: Sequence[str],
    discard: Sequence[str],
    event: Event,
    card: Callable[[Any], str],
    most_drawn: int,
) -> tuple[str, ...]:
    """The deck after a ``shuffle`` event: the discard pile, in the recorded order, goes under
    what is left of the deck. Allowed once the deck holds fewer than ``most_drawn`` cards."""
    if len(deck) >= most_drawn:
        raise RuleViolation(f"shuffle: the deck still holds {len(deck)} cards")
    if not discard:
        raise RuleViolation("shuffle: the discard pile is empty")
    order = event.get("order")
    if not isinstance(order, list):
        raise RuleViolation("shuffle needs 'order': the discard pile's cards in their new order")
    cards = tuple(card(t) for t in order)
    if Counter(cards) != Counter(discard):
        raise RuleViolation(
            f"shuffle: the order must be the discard pile's {len(discard)} cards "
            f"({' '.join(sorted(discard))}), got {' '.join(cards) or 'none'}"
        )
    return (*deck, *cards)
