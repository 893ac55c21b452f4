"""Rummikub in table mode: a real game, nobody knows the shuffled pool (setup without it)."""

from __future__ import annotations

import random

import pytest

from host.rules.base import Event, Game, RuleViolation
from host.rules.rummikub import RULES, UNSEEN, RummikubState, summary
from host.rules.rummikub_play import new_game, play_out
from tests.game_helpers import assert_replays_and_redoes


def as_table_mode(deck: Game[RummikubState]) -> Game[RummikubState]:
    """The same game as the table saw it: the setup without the pool, the racks entered."""
    setup = dict(deck.events[0].data)
    del setup["pool"], setup["game"]
    game = Game.start(RULES, **setup)
    for event in deck.events[1:]:
        game.apply(event)
    racks = dict(zip(deck.state.players, (list(r) for r in deck.state.racks), strict=True))
    assert game.state.awaiting_racks is not None and not game.state.finished
    game.apply(Event.of("racks", racks=racks))
    return game


@pytest.mark.parametrize("seed", [3, 11])
def test_a_bot_game_scores_the_same_as_with_the_deck_known(seed: int) -> None:
    deck = new_game(random.Random(seed), ["ann", "bob", "cy"])
    play_out(deck, random.Random(seed))
    table = as_table_mode(deck)
    assert summary(table.state) == summary(deck.state)
    assert table.state.finished
    assert_replays_and_redoes(table, undo_depth=6)


def start() -> Game[RummikubState]:
    return Game.start(RULES, players=["ann", "bob"])


def test_the_setup_counts_unseen_racks_and_pool() -> None:
    state = start().state
    assert state.table_mode and [len(r) for r in state.racks] == [14, 14]
    assert len(state.pool) == 112 - 28 and set(state.pool) == {UNSEEN}


def test_draws_count_and_racks_wait_for_the_end() -> None:
    game = start()
    game.apply(
        Event.of("play", player="ann", table=[["r10", "r11", "r12"]], tiles=["r10", "r11", "r12"])
    )
    game.apply(Event.of("draw", player="bob"))
    assert [len(r) for r in game.state.racks] == [11, 15]
    with pytest.raises(RuleViolation, match="once a table-mode game is over"):
        game.verify(Event.of("racks", racks={"ann": [], "bob": []}))


def test_bad_events_are_refused_with_reasons() -> None:
    game = start()
    opening = [["r10", "r11", "r12"]]
    cases = [
        (Event.of("play", player="ann", table=[["r1", "r2", "r3"]], tiles=["r1", "r2", "r3"]),
         "initial meld needs at least 30"),
        (Event.of("play", player="ann", table=opening, tiles=["r10", "r11"]),
         "gained r10 r11 r12"),
        (Event.of("play", player="bob", table=opening, tiles=["r10", "r11", "r12"]),
         "ann's turn"),
        (Event.of("play", player="ann", table=[["r10", "r10", "r10", "r10"]], tiles=["r10"] * 4),
         "cannot be"),
    ]  # fmt: skip
    for event, reason in cases:
        with pytest.raises(RuleViolation, match=reason):
            game.verify(event)
    assert len(game) == 1  # nothing recorded


def test_the_end_waits_for_the_racks_and_checks_them() -> None:
    game = start()
    game.apply(
        Event.of("play", player="ann", table=[["r10", "r11", "r12"]], tiles=["r10", "r11", "r12"])
    )
    game.apply(Event.of("draw", player="bob"))
    # ann lays her remaining 11 tiles: two runs and a group, onto the table she opened
    rest = [["k1", "k2", "k3", "k4"], ["b5", "b6", "b7", "b8"], ["o9", "b9", "k9"]]
    table = [["r10", "r11", "r12"], *rest]
    game.apply(Event.of("play", player="ann", table=table, tiles=[t for s in rest for t in s]))
    assert game.state.awaiting_racks is False and summary(game.state)["turn"] is None
    with pytest.raises(RuleViolation, match="enter every player's rack"):
        game.verify(Event.of("draw", player="bob"))
    bob = ["r3", "J", "k13", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o10", "o11", "o12"]
    with pytest.raises(RuleViolation, match="bob's rack holds 15 tiles, 14 were entered"):
        game.verify(Event.of("racks", racks={"ann": [], "bob": bob[:14]}))
    with pytest.raises(RuleViolation, match="cannot be"):
        game.verify(Event.of("racks", racks={"ann": [], "bob": [*bob[:14], "r10", "r10"][1:]}))
    with pytest.raises(RuleViolation, match="a rack for each of ann, bob"):
        game.verify(Event.of("racks", racks={"bob": bob}))
    game.apply(Event.of("racks", racks={"ann": [], "bob": [*bob[:14], "o13"]}))
    penalty = 3 + 30 + 13 + sum(range(1, 9)) + 10 + 11 + 12 + 13
    assert summary(game.state)["scores"] == {"ann": penalty, "bob": -penalty}
    assert game.state.finished and summary(game.state)["winner"] == "ann"
    assert_replays_and_redoes(game, undo_depth=3)


def test_time_up_draws_unseen_tiles() -> None:
    game = start()
    game.apply(Event.of("time_up", player="ann", table=[["r1", "r2"]]))  # restored, draw 3
    game.apply(Event.of("time_up", player="bob"))  # nothing touched: draw 1
    assert [len(r) for r in game.state.racks] == [17, 15]
    assert len(game.state.pool) == 112 - 28 - 4 and game.state.table == ()
