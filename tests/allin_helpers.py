"""Helpers for All In tests: decks stacked so that chosen cards are dealt where wanted."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import game_helpers

from host.rules.allin import ALL_CARDS, RULES, AllInState
from host.rules.base import Event, Game


def stacked(*front: str) -> list[str]:
    """All 54 cards: ``front`` first (hands 5 by 5 in seat order, then the display), the rest
    in box order."""
    return game_helpers.stacked(ALL_CARDS, front)


def hands_deck(hands: list[str], display: str = "", more: str = "") -> list[str]:
    cards = [c for h in hands for c in h.split()] + display.split() + more.split()
    return stacked(*cards)


def start(
    players: list[str], hands: list[str], display: str = "", more: str = "", **options: Any
) -> Game[AllInState]:
    deck = hands_deck(hands, display, more)
    return Game.start(RULES, players=players, deck=deck, options=options)


def at_showdown(
    players: list[str], hands: list[str], **changes: Any
) -> tuple[Game[AllInState], AllInState]:
    """A state whose predictions are due, the hands as given (cards elsewhere left as dealt)."""
    game = start(players, hands)
    fields: dict[str, Any] = {
        "phase": "predict",
        "hands": tuple(tuple(h.split()) for h in hands),
        "last_placer": len(players) - 1,
        "turn": 0,
    }
    state = replace(game.state, **{**fields, **changes})
    return game, state


def fold(state: AllInState, *events: Event) -> AllInState:
    for event in events:
        reason = RULES.check(state, event)
        assert reason is None, reason
        state = RULES.evolve(state, event)
    return state


def predict(player: str, target: str) -> Event:
    return Event.of("predict", player=player, target=target)
