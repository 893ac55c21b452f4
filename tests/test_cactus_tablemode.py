"""Cactus Game in table mode: real cards, hands counted, plays as seen on the discard pile."""

from __future__ import annotations

import pytest

from host.rules.base import Event, Game, RuleViolation
from host.rules.cactus import RULES, UNSEEN, CactusState, summary
from host.rules.cactus_bot import play_game
from tests.game_helpers import assert_replays_and_redoes


def as_table_mode(deck: Game[CactusState]) -> Game[CactusState]:
    """The deck-mode game as the table saw it: no deck; a gimme's resolve says what was given."""
    setup = {k: v for k, v in deck.events[0].data.items() if k not in ("deck", "game")}
    game = Game.start(RULES, **setup)
    for i, event in enumerate(deck.events[1:], start=1):
        before, pending = deck.state_at(i - 1), deck.state_at(i - 1).pending
        if (
            event.type == "resolve"
            and pending is not None
            and pending.card == "gimme"
            and not pending.cancelled
            and pending.target is not None
            and pending.name in before.hands[pending.target]
        ):
            event = Event.of("resolve", card=pending.name)
        game.apply(event)
    return game


@pytest.mark.parametrize("seed", [1, 4])
def test_a_bot_game_scores_the_same_as_with_the_deck_known(seed: int) -> None:
    deck = play_game(["ann", "bob", "cy"], seed)
    assert deck.state.finished
    table = as_table_mode(deck)
    assert summary(table.state) == summary(deck.state)  # hand sizes included
    assert set(table.state.deck) <= {UNSEEN}
    assert_replays_and_redoes(table, undo_depth=5)


def test_bad_events_are_refused_with_reasons() -> None:
    game = Game.start(RULES, players=["ann", "bob"])
    game.apply(Event.of("play_set", player="ann", cards=["walter", "walter", "wild"]))
    assert summary(game.state)["scores"]["ann"] == 3
    assert summary(game.state)["hands"] == {"ann": 2, "bob": 5}
    cases = [
        (Event.of("play_set", player="bob", cards=["ace", "charlie", "ace"]),
         "charlie and ace are different characters"),
        (Event.of("play_set", player="ann", cards=["ace", "ace", "ace"]), "bob's turn"),
        (Event.of("play_set", player="bob", cards=["zzz", "ace", "ace"]), "zzz"),
        (Event.of("play", player="bob", card="nope"), "out of turn"),
        (Event.of("play_set", player="bob", cards=["wild"] * 3), "4× wild seen on the table"),
    ]  # fmt: skip
    for event, reason in cases:
        with pytest.raises(RuleViolation, match=reason):
            game.verify(event)
    game.apply(Event.of("draw", player="bob"))
    with pytest.raises(RuleViolation, match="ann holds 2 card"):
        game.verify(Event.of("play_set", player="ann", cards=["ace", "ace", "ace"]))
    assert len(game) == 3


def test_a_gimme_resolves_as_the_table_says() -> None:
    game = Game.start(RULES, players=["ann", "bob"])
    game.apply(Event.of("play", player="ann", card="gimme", target="bob", name="ace"))
    with pytest.raises(RuleViolation, match="can give only a ace, not walter"):
        game.verify(Event.of("resolve", card="walter"))
    game.apply(Event.of("resolve", card="ace"))
    assert summary(game.state)["hands"] == {"ann": 5, "bob": 4}
