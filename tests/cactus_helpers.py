"""Helpers for Cactus Game tests: decks stacked so that chosen cards are dealt where wanted."""

from __future__ import annotations

import game_helpers

from host.rules.base import Event, Game
from host.rules.cactus import ALL_CARDS, RULES, CactusState


def stacked(hands: list[str], more: str = "") -> list[str]:
    """The 90 white cards: the hands (5 each, seat order), then ``more``, then the rest."""
    return game_helpers.stacked(ALL_CARDS, [c for h in hands for c in h.split()] + more.split())


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
