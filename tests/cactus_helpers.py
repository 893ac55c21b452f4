"""Helpers for Cactus Game tests: decks stacked so that chosen cards are dealt where wanted."""

from __future__ import annotations

from collections import Counter

from host.rules.base import Event, Game
from host.rules.cactus import ALL_CARDS, RULES, CactusState


def stacked(hands: list[str], more: str = "") -> list[str]:
    """The 90 white cards: the hands (5 each, seat order), then ``more``, then the rest."""
    front = [c for h in hands for c in h.split()] + more.split()
    rest = Counter(ALL_CARDS)
    rest.subtract(front)
    assert all(n >= 0 for n in rest.values()), "more copies stacked than the box holds"
    tail = []
    for card in ALL_CARDS:
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return [*front, *tail]


def start(players: list[str], hands: list[str], more: str = "") -> Game[CactusState]:
    return Game.start(RULES, players=players, deck=stacked(hands, more))


def play(player: str, card: str, **data: object) -> Event:
    return Event.of("play", player=player, card=card, **data)


def nope(player: str) -> Event:
    return Event.of("nope", player=player)


def resolve(**data: object) -> Event:
    return Event.of("resolve", **data)


def draw(player: str, count: int = 1) -> Event:
    return Event.of("draw", player=player, count=count)
