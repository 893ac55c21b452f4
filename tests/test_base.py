"""The event-sourced base, on a tiny counting game defined here."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from host.rules.base import Event, Game, LogError, RuleViolation, events_from_jsonl


@dataclass(frozen=True)
class Count:
    total: int
    limit: int


class CountRules:
    game = "count"

    def initial(self, setup: Event) -> Count:
        return Count(0, int(setup["limit"]))

    def check(self, state: Count, event: Event) -> str | None:
        if event.type != "add":
            return f"unknown event {event.type!r}"
        if state.total + event["n"] > state.limit:
            return f"adding {event['n']} would pass the limit {state.limit}"
        return None

    def evolve(self, state: Count, event: Event) -> Count:
        return Count(state.total + event["n"], state.limit)

    def summary(self, state: Count) -> dict[str, object]:
        return {"game": self.game, "players": [], "scores": {}, "winner": None, "finished": False}


def test_fold_undo_and_round_trip() -> None:
    game = Game.start(CountRules(), limit=10)
    game.apply(Event.of("add", n=3))
    game.apply(Event.of("add", n=4))
    assert game.state.total == 7
    assert not game.can(Event.of("add", n=4))
    with pytest.raises(RuleViolation, match="would pass the limit 10"):
        game.apply(Event.of("add", n=4))
    assert len(game) == 3  # the refused event is not recorded
    last = game.undo()
    assert game.state.total == 3
    game.apply(last)
    assert game.state.total == 7
    again = Game(CountRules(), events_from_jsonl(game.to_jsonl()))
    assert again.state == game.state and again.events == game.events


def test_undo_never_drops_the_setup() -> None:
    game = Game.start(CountRules(), limit=1)
    with pytest.raises(RuleViolation, match="nothing to undo"):
        game.undo()


def test_bad_logs_name_the_problem() -> None:
    with pytest.raises(LogError, match="line 2: not JSON"):
        events_from_jsonl('{"type": "setup", "limit": 1}\n{oops\n')
    with pytest.raises(LogError, match="line 1: event has no 'type'"):
        events_from_jsonl(json.dumps({"n": 1}))
    with pytest.raises(LogError, match="must start with a 'setup'"):
        Game(CountRules(), [Event.of("add", n=1)])
    with pytest.raises(LogError, match="event 1 \\(add\\) is not legal: adding 5"):
        Game(CountRules(), [Event.of("setup", limit=1), Event.of("add", n=5)])
