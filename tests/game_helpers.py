"""Helpers shared by the engines' tests: stacked decks, and the replay/undo properties."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from host.rules.base import Game, events_from_jsonl


def stacked(box: Sequence[str], front: Sequence[str]) -> list[str]:
    """Every card of ``box``: ``front`` first, then the rest in box order."""
    rest = Counter(box)
    rest.subtract(front)
    assert all(n >= 0 for n in rest.values()), "more copies stacked than the box holds"
    tail = []
    for card in box:
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return [*front, *tail]


def assert_replays_and_redoes(game: Game[Any], undo_depth: int) -> None:
    """The JSON-lines log replays to the same state; undoing events and redoing them too."""
    state = game.state
    replayed = Game(game.rules, events_from_jsonl(game.to_jsonl()))
    assert replayed.state == state and replayed.events == game.events
    undone = [game.undo() for _ in range(min(undo_depth, len(game) - 1))]
    for event in reversed(undone):
        game.apply(event)
    assert game.state == state
