"""A tiny stand-in engine and table adapter for the referee's tests.

It has the shape every real engine has (``RULES``, ``summary``) and a Rummikub-deck adapter,
so the referee, store, API and dashboard are tested without depending on any real game.
Tally: players take turns; ``done`` scores the values of the tiles lying in the centre.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from host.rules.base import Event, RuleViolation
from host.rules.notation import tile_value
from host.table.adapter import Facts, NeedsInput, TableAdapter
from host.table.stable import TableView
from host.table.zones import CENTRE, by_zone


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    turn: str
    target: int


class TallyRules:
    game = "tally"

    def initial(self, setup: Event) -> State:
        players = tuple(setup.get("players") or ())
        if len(players) < 2:
            raise RuleViolation("tally needs at least 2 players")
        return State(
            players,
            (0,) * len(players),
            players[0],
            int((setup.get("options") or {}).get("target", 20)),
        )

    def check(self, state: State, event: Event) -> str | None:
        if max(state.scores) >= state.target:
            return "the game is over"
        if event.type not in ("point", "pass"):
            return f"unknown event {event.type!r}"
        if event.get("player") != state.turn:
            return f"it is {state.turn}'s turn, not {event.get('player')}'s"
        points = event.get("points", 0)
        if not isinstance(points, int) or not 0 <= points <= 100:
            return f"points must be 0..100, not {points!r}"
        return None

    def evolve(self, state: State, event: Event) -> State:
        i = state.players.index(state.turn)
        scores = list(state.scores)
        scores[i] += int(event.get("points", 0))
        return replace(
            state, scores=tuple(scores), turn=state.players[(i + 1) % len(state.players)]
        )


RULES = TallyRules()


def summary(state: State) -> dict[str, Any]:
    scores = dict(zip(state.players, state.scores, strict=True))
    finished = max(state.scores) >= state.target
    winner = max(scores, key=lambda p: scores[p]) if finished else None
    return {"scores": scores, "winner": winner, "finished": finished}


class TallyAdapter(TableAdapter):
    game = "tally"
    deck = "rummikub"
    timer_seconds = 60
    triggers = ("done",)

    def facts(self, view: TableView) -> Facts:
        zones = by_zone(view.objects, self.players, view.width, view.height)
        return {"centre": [o.label for o in zones[CENTRE]]}

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        if name == "done":
            points = sum(tile_value(t) for t in facts.get("centre", []))
            return [Event.of("point", player=state.turn, points=points)]
        if name == "time_up":
            return [Event.of("pass", player=state.turn)]
        raise NeedsInput(f"tally: no trigger {name!r}")


ADAPTER = TallyAdapter


def install(monkeypatch: Any) -> None:
    """Make 'tally' a known game for the registry and the adapters."""
    from host.rules import registry
    from host.table import adapter

    monkeypatch.setitem(registry.ENGINES, "tally", "tally")
    monkeypatch.setitem(adapter.ADAPTERS, "tally", "tally")
