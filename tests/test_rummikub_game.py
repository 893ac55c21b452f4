"""The event-sourced Rummikub game, scoring and series; seeded bots play whole games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from host.rules.base import Event, Game, LogError, RuleViolation, events_from_jsonl
from host.rules.notation import BOX
from host.rules.registry import load_game
from host.rules.rummikub import (
    RULES,
    GameScore,
    RummikubState,
    ScoreError,
    rack_value,
    score_game,
    score_series,
    summary,
)
from host.rules.rummikub_play import new_game, play_out, shuffled_pool


def all_tiles(state: RummikubState) -> Counter[str]:
    tiles = Counter(state.pool)
    for rack in state.racks:
        tiles.update(rack)
    for s in state.table:
        tiles.update(s)
    return tiles


def ordered_pool(first_racks: list[list[str]]) -> list[str]:
    """A pool that deals the given racks (14 tiles each) first, the rest in box order."""
    dealt = [t for rack in first_racks for t in rack]
    rest = Counter(BOX["rummikub"]) - Counter(dealt)
    return dealt + sorted(rest.elements())


RACK_A = ["r10", "r11", "r12", "k1", "k2", "k3", "k4", "b9", "b9", "o5", "o6", "o7", "DJ", "J"]
RACK_B = ["k13", "r13", "b13", "o13", "k5", "r5", "b5", "o2", "o3", "r7", "r8", "k9", "b1", "MJ"]


def fresh(**options: object) -> Game[RummikubState]:
    return Game.start(
        RULES, players=["ann", "bob"], pool=ordered_pool([RACK_A, RACK_B]), options=options
    )


# -- scoring ------------------------------------------------------------------------------
def test_rack_penalty_counts_every_joker_30() -> None:
    assert rack_value(["r3", "k13", "J", "DJ", "CJ", "MJ"]) == 16 + 4 * 30


def test_winner_gains_what_the_losers_lose() -> None:
    result = score_game({"ann": [], "bob": ["r3", "J"], "cy": ["k13"]})
    assert result.winner == "ann"
    assert result.scores == {"ann": 46, "bob": -33, "cy": -13}


def test_pool_exhausted_lowest_rack_wins_and_losers_pay_the_difference() -> None:
    result = score_game({"ann": ["k9"], "bob": ["r3", "r4"], "cy": ["o13", "J"]}, pool_empty=True)
    assert result.winner == "bob"
    assert result.scores == {"ann": -2, "bob": 2 + 36, "cy": -36}
    assert sum(result.scores.values()) == 0


def test_pool_exhausted_tie_goes_to_fewer_tiles_then_turn_order() -> None:
    assert score_game({"a": ["r3", "r4"], "b": ["k7"]}, pool_empty=True).winner == "b"
    assert score_game({"a": ["r7"], "b": ["k7"]}, pool_empty=True).winner == "a"


def test_a_finished_game_needs_exactly_one_empty_rack() -> None:
    with pytest.raises(ScoreError, match="exactly one player must have an empty rack"):
        score_game({"a": ["r3"], "b": ["k7"]})


def test_book_score_sheet_series() -> None:
    # The book's four-player sheet: round winners +24, +22, +47, +41 (the scan lost the
    # minus signs of player 乙's losses, which the zero-sum rows restore).
    rounds = [
        {"甲": 24, "乙": -5, "丙": -16, "丁": -3},
        {"甲": -6, "乙": -11, "丙": 22, "丁": -5},
        {"甲": -32, "乙": -13, "丙": -2, "丁": 47},
        {"甲": -10, "乙": -25, "丙": 41, "丁": -6},
    ]
    games = [GameScore(max(r, key=lambda n: r[n]), r, False) for r in rounds]
    series = score_series(["甲", "乙", "丙", "丁"], games)
    assert series.totals == {"甲": -24, "乙": -54, "丙": 45, "丁": 33}
    assert series.wins == {"甲": 1, "乙": 0, "丙": 2, "丁": 1}
    assert series.finished and series.winner == "丙" and not series.tied


def test_series_ties_on_wins_are_broken_by_score() -> None:
    one = GameScore("a", {"a": 10, "b": -10}, False)
    two = GameScore("b", {"a": -4, "b": 4}, False)
    series = score_series(["a", "b"], [one, two])
    assert series.wins == {"a": 1, "b": 1}
    assert series.winner == "a" and series.finished
    assert not score_series(["a", "b"], [one]).finished


# -- the event-sourced game -----------------------------------------------------------------
def test_setup_deals_14_each_from_the_front_of_the_pool() -> None:
    game = fresh()
    assert game.state.racks == (tuple(RACK_A), tuple(RACK_B))
    assert len(game.state.pool) == 112 - 28
    assert summary(game.state) == {
        "game": "rummikub",
        "players": ["ann", "bob"],
        "scores": {"ann": 0, "bob": 0},
        "winner": None,
        "finished": False,
        "turn": "ann",
    }


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"players": ["solo"]}, "2 to 4 players"),
        ({"players": ["a", "a"]}, "distinct names"),
        ({"players": ["a", "b"], "options": {"mirror_value": "half"}}, "mirror_value"),
        ({"players": ["a", "b"], "options": {"speed": 1}}, "unknown Rummikub option"),
    ],
)
def test_bad_setups_are_refused(setup: dict[str, object], message: str) -> None:
    with pytest.raises(RuleViolation, match=message):
        Game.start(RULES, pool=shuffled_pool(random.Random(1)), **setup)


def test_setup_pool_must_be_the_whole_box() -> None:
    with pytest.raises(RuleViolation, match="whole box"):
        Game.start(RULES, players=["a", "b"], pool=shuffled_pool(random.Random(1))[:-1])


def test_opening_play_then_draw_then_reasons_for_refusals() -> None:
    game = fresh()
    opening = Event.of(
        "play", player="ann", table=[["r10", "r11", "r12"]], tiles=["r10", "r11", "r12"]
    )
    game.apply(opening)
    assert game.state.opened == (True, False) and game.state.current == "bob"
    # bob cannot open with 3 + 2 + 5 = 10 points
    weak = Event.of(
        "play",
        player="bob",
        table=[["r10", "r11", "r12"], ["o2", "o3", "J"]],
        tiles=["o2", "o3", "J"],
    )
    with pytest.raises(RuleViolation, match="not on your rack: J"):
        game.verify(weak)
    wrong_turn = Event.of("draw", player="ann")
    assert game.rules.check(game.state, wrong_turn) == "it is bob's turn, not ann's"
    top = game.state.pool[0]
    game.apply(Event.of("draw", player="bob"))
    assert game.state.racks[1][-1] == top and game.state.current == "ann"


def test_played_tiles_must_match_the_table() -> None:
    game = fresh()
    lying = Event.of("play", player="ann", table=[["r10", "r11", "r12"]], tiles=["r10"])
    assert "the table gained r10 r11 r12" in str(game.rules.check(game.state, lying))


def test_time_up_restores_and_draws_three() -> None:
    game = fresh()
    game.apply(
        Event.of("play", player="ann", table=[["r10", "r11", "r12"]], tiles=["r10", "r11", "r12"])
    )
    table_before = game.state.table
    pool_before = game.state.pool
    game.apply(Event.of("time_up", player="bob", table=[["r10", "r11"], ["r12", "k13"]]))
    assert game.state.table == table_before
    assert game.state.racks[1] == (*RACK_B, *pool_before[:3])


def test_time_up_strict_option_draws_one_per_tile_not_put_back() -> None:
    game = fresh(strict_penalty=True)
    game.apply(Event.of("time_up", player="ann", table=[["r10", "r11"]], not_put_back=5))
    assert len(game.state.racks[0]) == 14 + 5


def test_time_up_with_a_legal_table_must_be_a_play() -> None:
    game = fresh()
    legal = Event.of("time_up", player="ann", table=[["r10", "r11", "r12"]])
    assert "record it as a 'play'" in str(game.rules.check(game.state, legal))


def test_emptying_the_rack_wins_and_scores() -> None:
    ann = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "k13", "b13", "o13"]
    game = Game.start(RULES, players=["ann", "bob"], pool=ordered_pool([ann, RACK_B]))
    play = Event.of("play", player="ann", table=[ann[:11], ann[11:]], tiles=ann)
    game.apply(play)
    lost = rack_value(RACK_B)
    assert lost == 13 + 13 + 13 + 13 + 5 + 5 + 5 + 2 + 3 + 7 + 8 + 9 + 1 + 30
    assert summary(game.state) == {
        "game": "rummikub",
        "players": ["ann", "bob"],
        "scores": {"ann": lost, "bob": -lost},
        "winner": "ann",
        "finished": True,
        "turn": None,
    }
    assert game.rules.check(game.state, Event.of("draw", player="bob")) == "the game is over"


def test_pool_runs_out_then_a_round_of_passes_ends_the_game() -> None:
    game = new_game(random.Random(3), ["ann", "bob"])
    while game.state.pool:
        game.apply(Event.of("draw", player=game.state.current))
    assert not game.state.finished
    game.apply(Event.of("draw", player=game.state.current))
    assert not game.state.finished
    game.apply(Event.of("draw", player=game.state.current))
    assert game.state.finished
    result = summary(game.state)
    assert sum(result["scores"].values()) == 0
    totals = {p: rack_value(r) for p, r in zip(game.state.players, game.state.racks, strict=True)}
    assert result["winner"] == min(totals, key=lambda p: totals[p])


def test_end_event_needs_an_empty_pool() -> None:
    game = new_game(random.Random(4), ["ann", "bob"])
    assert "tiles are left in the pool" in str(
        game.rules.check(game.state, Event.of("end", reason="pool_empty"))
    )
    while game.state.pool:
        game.apply(Event.of("draw", player=game.state.current))
    game.apply(Event.of("end", reason="pool_empty"))
    assert game.state.finished
    assert game.rules.check(game.state, Event.of("draw", player="ann")) == "the game is over"


# -- whole games by seeded bots -------------------------------------------------------------
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (7, 2)])
def test_random_games_end_conserve_tiles_are_zero_sum_and_replay(seed: int, players: int) -> None:
    rng = random.Random(seed)
    names = ["ann", "bob", "cy", "dee"][:players]
    game = new_game(rng, names, strict_penalty=seed % 2 == 1)
    play_out(game, rng)
    state = game.state
    assert state.finished
    for index in range(len(game)):
        assert all_tiles(game.state_at(index)) == Counter(BOX["rummikub"])
    result = summary(state)
    assert sum(result["scores"].values()) == 0
    assert result["winner"] in names
    replayed = load_game(events_from_jsonl(game.to_jsonl()))
    assert replayed.state == state
    assert summary(replayed.state) == result


def test_a_tampered_log_is_refused_on_replay() -> None:
    game = new_game(random.Random(5), ["ann", "bob"])
    game.apply(Event.of("draw", player="ann"))
    events = [*game.events, Event.of("draw", player="ann")]
    with pytest.raises(LogError, match="event 2 \\(draw\\) is not legal: it is bob's turn"):
        load_game(events)


def test_a_seed_replays_the_same_game() -> None:
    logs = []
    for _ in range(2):
        rng = random.Random(11)
        game = new_game(rng, ["ann", "bob"])
        play_out(game, rng)
        logs.append(game.to_jsonl())
    assert logs[0] == logs[1]


def test_series_from_finished_games() -> None:
    results = []
    for seed in (1, 7):
        rng = random.Random(seed)
        game = new_game(rng, ["ann", "bob"])
        play_out(game, rng)
        assert game.state.result is not None
        results.append(game.state.result)
    series = score_series(["ann", "bob"], results)
    assert series.finished and series.games == 2
    assert sum(series.wins.values()) == 2 and sum(series.totals.values()) == 0
