"""The Cactus Game engine: sets, nope chains, every action, turn ends, supply, winning."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cactus_helpers import draw, nope, play, resolve, stacked, start

from host.rules.base import Event, Game, RuleViolation
from host.rules.cactus import ALL_CARDS, RULES, SCORE_CARDS, check_set, target_score
from host.rules.notation import NotationError

ABC = ["ann", "bob", "cy"]
F1 = "charlie charlie ace gimme steal_card"
F2 = "charlie ace ace gimme steal_card"
F3 = "charlie charlie ace ace steal_card"


# -- the box and the set checker --------------------------------------------------------------
def test_the_box_holds_36_characters_and_54_actions() -> None:
    assert len(ALL_CARDS) == 90
    characters = sum(ALL_CARDS.count(c) for c in ("charlie", "ace", "walter", "wild"))
    assert characters == 36 and ALL_CARDS.count("nope") == 10


@pytest.mark.parametrize(
    ("cards", "character", "points"),
    [
        ("charlie charlie charlie", "charlie", 1),
        ("ace ace wild", "ace", 2),
        ("walter wild wild", "walter", 3),
        ("wild wild wild", "wild", 3),
        ("查理 萬用 查理", "charlie", 1),
    ],
)
def test_valid_sets_score_by_character(cards: str, character: str, points: int) -> None:
    assert check_set(cards.split()) == (True, character, points, None)


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("charlie charlie", "a set is 3 cards of one character, got 2"),
        ("charlie charlie charlie charlie", "got 4"),
        ("charlie ace wild", "charlie and ace are different characters"),
        ("charlie charlie nope", "nope is an action card"),
    ],
)
def test_invalid_sets_say_why(cards: str, reason: str) -> None:
    valid, character, points, why = check_set(cards.split())
    assert (valid, character, points) == (False, None, 0) and reason in str(why)


def test_unknown_or_impossible_cards_are_notation_errors() -> None:
    with pytest.raises(NotationError, match="unknown card 'charly'"):
        check_set(["charly", "charlie", "charlie"])
    with pytest.raises(NotationError, match="4× 'wild' cannot exist"):
        check_set(["wild"] * 4)


@pytest.mark.parametrize(("n", "target"), [(2, 7), (3, 7), (4, 5), (5, 5), (6, 4)])
def test_win_threshold_by_player_count(n: int, target: int) -> None:
    assert target_score(n) == target
    game = Game.start(RULES, players=[f"p{i}" for i in range(n)], deck=list(ALL_CARDS))
    assert game.state.target == target and all(len(h) == 5 for h in game.state.hands)
    assert len(game.state.deck) == 90 - 5 * n and game.state.supply == SCORE_CARDS


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"players": ["a"]}, "2–6 players, not 1"),
        ({"players": list("abcdefg")}, "not 7"),
        ({"deck": list(ALL_CARDS[:-1])}, "90 white cards"),
        ({"options": {"x": 1}}, "no options"),
    ],
)
def test_bad_setups(setup: dict[str, object], message: str) -> None:
    with pytest.raises(RuleViolation, match=message):
        Game.start(RULES, **{"players": ["a", "b"], "deck": list(ALL_CARDS), **setup})


# -- sets, drawing, turn ends -----------------------------------------------------------------
def test_a_set_scores_and_ends_the_turn() -> None:
    game = start(ABC, ["ace ace wild nope gimme", F2, F3])
    game.apply(Event.of("play_set", player="ann", cards=["ace", "wild", "ace"]))
    s = game.state
    assert s.scores == (2, 0, 0) and s.supply == SCORE_CARDS - 2 and s.turn == 1
    assert s.hands[0] == ("nope", "gimme") and s.discard[-3:] == ("ace", "wild", "ace")


def test_bad_sets_and_cards_not_held_are_refused() -> None:
    game = start(ABC, ["ace ace charlie nope gimme", F2, F3])
    with pytest.raises(RuleViolation, match="charlie and ace are different characters"):
        game.apply(Event.of("play_set", player="ann", cards=["ace", "ace", "charlie"]))
    with pytest.raises(RuleViolation, match="ann does not hold walter"):
        game.apply(Event.of("play_set", player="ann", cards=["walter", "wild", "wild"]))
    with pytest.raises(RuleViolation, match="characters are played as sets of three"):
        game.apply(play("ann", "ace"))
    with pytest.raises(RuleViolation, match="it is ann's turn, not bob's"):
        game.apply(draw("bob"))


def test_draw_one_ends_the_turn_and_draw_three_needs_an_empty_hand() -> None:
    game = start(ABC, [F1, F2, F3], "walter ace charlie")
    with pytest.raises(RuleViolation, match="may draw 3 only when their turn begins handless"):
        game.apply(draw("ann", 3))
    game.apply(draw("ann"))
    assert game.state.hands[0][-1] == "walter" and game.state.turn == 1
    empty = replace(game.state, hands=((), (), ()), turn=0, started_empty=True)
    after = RULES.evolve(empty, draw("ann", 3))
    assert after.hands[0] == ("ace", "charlie", after.hands[0][2]) and after.turn == 1


def test_the_turn_goes_on_after_actions_that_neither_score_nor_draw() -> None:
    game = start(ABC, ["gimme gimme steal_card peek_steal nope", F2, "walter " * 4 + "ace"])
    game.apply(play("ann", "gimme", target="cy", name="walter"))
    game.apply(resolve())
    assert game.state.turn == 0 and game.state.hands[0][-1] == "walter"
    assert game.state.hands[2].count("walter") == 3
    game.apply(play("ann", "gimme", target="bob", name="walter"))
    assert "ann holds" not in game.state.log[-1]
    game.apply(resolve())
    assert game.state.log[-1] == "bob holds no walter" and game.state.turn == 0


# -- nope chains ------------------------------------------------------------------------------
def test_an_odd_nope_chain_cancels_and_an_even_one_lets_through() -> None:
    game = start(
        ABC,
        [
            "free_point free_point nope gimme gimme",
            "nope nope gimme gimme gimme",
            "nope gimme gimme gimme steal_card",
        ],
    )
    game.apply(play("ann", "free_point"))
    game.apply(nope("bob"))
    game.apply(resolve())
    s = game.state
    assert s.scores == (0, 0, 0) and s.turn == 0  # noped: no point, the turn goes on
    assert s.discard == ("free_point", "nope") and s.log[-1] == "ann's free_point is noped"
    game.apply(play("ann", "free_point"))
    game.apply(nope("bob"))
    with pytest.raises(RuleViolation, match="bob cannot nope their own card"):
        game.apply(nope("bob"))
    game.apply(nope("cy"))
    game.apply(resolve())
    assert game.state.scores == (1, 0, 0) and game.state.turn == 1


def test_only_a_waiting_action_can_be_noped() -> None:
    game = start(ABC, ["ace ace ace gimme gimme", "nope gimme gimme gimme gimme", F1])
    with pytest.raises(RuleViolation, match="character sets cannot be noped"):
        game.apply(nope("bob"))
    game.apply(play("ann", "gimme", target="bob", name="nope"))
    with pytest.raises(RuleViolation, match="gimme by ann is waiting"):
        game.apply(draw("ann"))
    with pytest.raises(RuleViolation, match="cy does not hold nope"):
        game.apply(nope("cy"))


# -- each action ------------------------------------------------------------------------------
def test_swap_hands_including_an_empty_hand() -> None:
    game = start(ABC, ["swap_hands swap_hands ace ace ace", F2, "walter walter wild nope nope"])
    with pytest.raises(RuleViolation, match="choose two different players"):
        game.apply(play("ann", "swap_hands", targets=["bob", "bob"]))
    game.apply(play("ann", "swap_hands", targets=["ann", "cy"]))
    game.apply(resolve())
    s = game.state
    assert s.hands[0] == ("walter", "walter", "wild", "nope", "nope")
    assert s.hands[2] == ("swap_hands", "ace", "ace", "ace") and s.turn == 0
    handless = replace(s, hands=(s.hands[0], (), s.hands[2]))
    after = RULES.evolve(
        RULES.evolve(
            replace(handless, hands=(("swap_hands", *s.hands[0]), (), s.hands[2])),
            play("ann", "swap_hands", targets=["bob", "cy"]),
        ),
        resolve(),
    )
    assert after.hands[1] == s.hands[2] and after.hands[2] == ()


def test_peek_steal_and_steal_card_take_the_named_card() -> None:
    game = start(
        ABC, ["peek_steal steal_card gimme gimme gimme", "walter ace charlie nope wild", F3]
    )
    game.apply(play("ann", "peek_steal", target="bob"))
    with pytest.raises(RuleViolation, match="bob does not hold free_point"):
        game.apply(resolve(card="free_point"))
    game.apply(resolve(card="walter"))
    game.apply(play("ann", "steal_card", target="bob"))
    game.apply(resolve(card="wild"))
    s = game.state
    assert s.hands[1] == ("ace", "charlie", "nope") and s.hands[0][-2:] == ("walter", "wild")
    assert s.turn == 0


def test_draw_three_ends_the_turn_unless_noped() -> None:
    game = start(
        ABC,
        ["draw_three draw_three gimme gimme gimme", "nope gimme gimme gimme gimme", F3],
        "ace ace ace",
    )
    game.apply(play("ann", "draw_three"))
    game.apply(nope("bob"))
    game.apply(resolve())
    assert game.state.turn == 0 and len(game.state.hands[0]) == 4
    game.apply(play("ann", "draw_three"))
    game.apply(resolve())
    assert game.state.turn == 1 and game.state.hands[0][-3:] == ("ace", "ace", "ace")


def test_steal_point_takes_a_score_card_and_ends_the_turn() -> None:
    game = start(ABC, ["steal_point steal_point gimme gimme gimme", F1, F3])
    with pytest.raises(RuleViolation, match="bob has no score card to steal"):
        game.apply(play("ann", "steal_point", target="bob"))
    with pytest.raises(RuleViolation, match="choose another player"):
        game.apply(play("ann", "steal_point", target="ann"))
    rich = replace(game.state, scores=(0, 2, 0), supply=SCORE_CARDS - 2)
    after = RULES.evolve(RULES.evolve(rich, play("ann", "steal_point", target="bob")), resolve())
    assert after.scores == (1, 1, 0) and after.turn == 1 and after.supply == SCORE_CARDS - 2


def test_score_cards_run_out_after_thirty_and_steal_point_still_works() -> None:
    game = start(ABC, ["ace ace ace free_point steal_point", F2, F3])
    dry = replace(game.state, scores=(0, 3, 27), supply=0)
    after = RULES.evolve(dry, Event.of("play_set", player="ann", cards=["ace"] * 3))
    assert after.scores == (0, 3, 27) and after.turn == 0  # nothing gained: the turn goes on
    assert "run out" in after.log[-1]
    after = RULES.evolve(RULES.evolve(after, play("ann", "steal_point", target="bob")), resolve())
    assert after.scores == (1, 2, 27)


def test_reaching_the_target_wins_and_ends_the_game() -> None:
    game = start(ABC, ["walter walter walter gimme gimme", F2, F3])
    near = replace(game.state, scores=(4, 0, 0), supply=SCORE_CARDS - 4)
    over = RULES.evolve(near, Event.of("play_set", player="ann", cards=["walter"] * 3))
    assert over.finished and over.winner == "ann" and over.scores[0] == 7
    assert "the game is over: ann won" in str(RULES.check(over, draw("bob")))


def test_shuffle_refills_the_deck_from_the_discard_pile() -> None:
    game = start(ABC, [F1, F2, F3])
    low = replace(game.state, deck=("ace",), discard=("nope", "wild"))
    assert "record a shuffle" in str(
        RULES.check(replace(low, hands=((), (), ()), started_empty=True), draw("ann", 3))
    )
    assert "still holds" in str(RULES.check(game.state, Event.of("shuffle", order=[])))
    after = RULES.evolve(low, Event.of("shuffle", order=["wild", "nope"]))
    assert after.deck == ("ace", "wild", "nope") and after.discard == ()


def test_stacked_helper_keeps_the_box() -> None:
    assert sorted(stacked(["ace ace"])) == sorted(ALL_CARDS)
