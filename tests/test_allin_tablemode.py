"""All In in table mode: real cards, each round entered as its showdown (hands as read)."""

from __future__ import annotations

from typing import Any

import pytest

from host.rules.allin import RULES, AllInState, summary
from host.rules.allin_bot import play_game
from host.rules.base import Event, Game, RuleViolation
from tests.game_helpers import assert_replays_and_redoes


def showdowns(deck: Game[AllInState]) -> list[Event]:
    """Each round of a deck-mode game as the table would enter it."""
    events = []
    start_runes = deck.state_at(0).runes
    for i in range(1, len(deck)):
        before, after = deck.state_at(i - 1), deck.state_at(i)
        if len(after.results) == len(before.results):
            continue
        result = after.results[-1]
        names = before.players
        # runes from rune effects: what the play phase added before the showdown
        gained = {p: b - a for p, b, a in zip(names, before.runes, start_runes, strict=True)}
        events.append(
            Event.of(
                "showdown",
                hands={p: list(h) for p, h in zip(names, result.hands, strict=True)},
                predictions={p: names[t] for p, t in zip(names, result.predictions, strict=True)},
                runes={p: n for p, n in gained.items() if n},
            )
        )
        start_runes = after.runes
    return events


@pytest.mark.parametrize(("players", "seed"), [(["ann", "bob", "cy"], 5), (["ann", "bob"], 9)])
def test_a_bot_game_scores_the_same_as_with_the_deck_known(players: list[str], seed: int) -> None:
    deck = play_game(players, seed)
    assert deck.state.finished
    game = Game.start(RULES, players=players)
    for event in showdowns(deck):
        game.apply(event)
    want, got = summary(deck.state), summary(game.state)
    for key in ("scores", "winner", "finished", "round", "rounds"):
        assert got[key] == want[key], key
    assert_replays_and_redoes(game, undo_depth=3)


HANDS = {
    "ann": ["Ac", "Am", "Ab", "At", "2c"],
    "bob": ["3c", "4m", "5b", "7t", "9c"],
}


def test_one_round_by_hand() -> None:
    game = Game.start(RULES, players=["ann", "bob"])
    game.apply(Event.of("showdown", hands=HANDS, predictions={"ann": "ann", "bob": "ann"}))
    state = summary(game.state)
    assert state["rounds"][0]["best"] == "ann" and state["round"] == 2
    assert state["rounds"][0]["shares"] == {"ann": 1, "bob": 1}  # a pot of 2, shared


def test_bad_events_are_refused_with_reasons() -> None:
    game = Game.start(RULES, players=["ann", "bob"])
    twice = {"ann": HANDS["ann"], "bob": ["Ac", *HANDS["bob"][1:]]}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "pass", "player": "ann"}, "record each round as a 'showdown'"),
        ({"type": "showdown", "hands": {"ann": HANDS["ann"]}, "predictions": {}},
         "each of ann, bob"),
        ({"type": "showdown", "hands": {**HANDS, "bob": ["3c"]}, "predictions": {}}, "5 cards"),
        ({"type": "showdown", "hands": {**HANDS, "bob": ["zz", *HANDS["bob"][1:]]},
          "predictions": {"ann": "bob", "bob": "bob"}}, "zz"),
        ({"type": "showdown", "hands": twice, "predictions": {"ann": "bob", "bob": "bob"}},
         "Ac is shown 2 times"),
        ({"type": "showdown", "hands": HANDS, "predictions": {"ann": "eve", "bob": "bob"}},
         "not at the table"),
        ({"type": "showdown", "hands": HANDS, "predictions": {"ann": "bob", "bob": "bob"},
          "runes": {"ann": 500}}, "the supply holds"),
    ]  # fmt: skip
    for raw, reason in cases:
        with pytest.raises(RuleViolation, match=reason):
            game.verify(Event.from_json(raw))
    assert len(game) == 1
