"""Which engine plays which game, so a stored log can be replayed by name."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from host.rules.base import Event, Game, LogError, Rules, RuleViolation

# game name -> module defining RULES (imported lazily: engines never import each other)
ENGINES = {
    "allin": "host.rules.allin",
    "rummikub": "host.rules.rummikub",
    "fourcolor": "host.rules.fourcolor",
    "cactus": "host.rules.cactus",
}


def rules_for(game: str) -> Rules[Any]:
    try:
        module = import_module(ENGINES[game])
    except KeyError:
        raise LogError(f"unknown game {game!r}: expected one of {', '.join(ENGINES)}") from None
    rules: Rules[Any] = module.RULES
    return rules


def load_game(events: list[Event]) -> Game[Any]:
    """Rebuild a game from its log; the setup event names the game."""
    if not events or events[0].type != "setup":
        raise LogError("a game log must start with a 'setup' event")
    game = events[0].get("game")
    if not isinstance(game, str):
        raise LogError("the setup event has no 'game' name")
    rules = rules_for(game)
    try:
        rules.initial(events[0])
    except RuleViolation as exc:
        # A stored setup the engine refuses is a bad log, like an illegal later event.
        raise LogError(f"event 0 (setup) is not legal: {exc}") from None
    return Game(rules, events)
