"""The All In engine: display, turn actions, effects, predictions, pot, rounds and the end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from allin_helpers import at_showdown, fold, hands_deck, predict, stacked, start

from host.rules.allin import ALL_CARDS, RULES, RUNE_SUPPLY, capacity
from host.rules.base import Event, Game, LogError, RuleViolation

P3 = ["ann", "bob", "cy"]
H3 = ["2c 3c 4c 5c 6c", "2m 3m 4m 5m 6m", "2b 3b 4b 5b 6b"]


def play(player: str, card: str, *effects: dict[str, object], discard: list[str] | None = None):
    return Event.of("play", player=player, card=card, effects=list(effects), discard=discard or [])


def take(card: str) -> dict[str, object]:
    return {"effect": "take", "card": card}


DRAW = {"effect": "draw"}


def passes(player: str) -> Event:
    return Event.of("pass", player=player)


# -- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "slots", "pot"), [(2, 8, 2), (3, 10, 4), (4, 12, 4), (5, 12, 4)])
def test_setup_deals_five_each_two_to_the_display_and_the_pot(n: int, slots: int, pot: int) -> None:
    game = Game.start(RULES, players=[f"p{i}" for i in range(n)], deck=list(ALL_CARDS))
    s = game.state
    assert capacity(n) == slots == len(s.display)
    assert all(len(h) == 5 for h in s.hands)
    assert s.display[:2] == tuple(ALL_CARDS[5 * n : 5 * n + 2]) and s.display[2:] == (None,) * (
        slots - 2
    )
    assert (s.pot, s.supply, s.round, s.phase) == (pot, RUNE_SUPPLY - pot, 1, "play")


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"players": ["a"]}, "2–5 players, not 1"),
        ({"players": list("abcdef")}, "2–5 players, not 6"),
        ({"players": ["a", "a"]}, "names must differ"),
        ({"deck": list(ALL_CARDS[:-1])}, "missing R"),
        ({"deck": [*ALL_CARDS[:-1], "2c"]}, "missing R; extra 2c"),
        ({"options": {"sides": "B"}}, "unknown All In option"),
        ({"options": {"side": "C"}}, "side must be A or B"),
        ({"options": {"suits": "cmb"}}, "suit order"),
        ({"options": {"enchanted_discard": True, "closed_minds_eye": True}}, "exclude each other"),
        ({"first": "zed"}, "first player 'zed'"),
    ],
)
def test_bad_setups_are_refused_with_the_reason(setup: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"players": ["a", "b"], "deck": list(ALL_CARDS)}
    with pytest.raises(RuleViolation, match=message):
        Game.start(RULES, **{**base, **setup})


def test_standard_deck_is_played_on_the_mapped_all_in_cards() -> None:
    deck = ["AS", "KS", "QS", "JS", "10S", "X", "X", *["2H"]]
    from host.rules.notation import tokens

    rest = [t for t in tokens("standard") if t not in deck and t != "X"]
    game = Game.start(RULES, players=["a", "b"], deck=deck + rest, options={"deck": "standard"})
    assert game.state.hands[0] == ("Ac", "Kc", "Qc", "Jc", "10c")
    assert game.state.rank(0).name == "straight_flush"
    assert game.state.hands[1][:2] == ("R", "R")


# -- turn actions and the display -------------------------------------------------------------
def test_pass_places_the_top_card_and_the_turn_goes_clockwise() -> None:
    game = start(P3, H3, "Ac Am", "Kc")
    with pytest.raises(RuleViolation, match="it is ann's turn, not bob's"):
        game.apply(passes("bob"))
    game.apply(passes("ann"))
    assert game.state.display[:3] == ("Ac", "Am", "Kc")
    assert game.state.turn == 1


def test_row_two_covers_and_locks_and_gaps_fill_first() -> None:
    # 2 players: rows of 4. Fill row 1, then the 5th card covers slot 1's card (Ac).
    game = start(["a", "b"], H3[:2], "Ac Am", "Kc Km Kb 9t 8t")
    for who in ("a", "b", "a"):
        game.apply(passes(who))
    s = game.state
    assert s.display == ("Ac", "Am", "Kc", "Km", "Kb", None, None, None)
    assert "Ac" not in s.uncovered() and "Am" in s.uncovered()
    with pytest.raises(RuleViolation, match="Ac is covered by Kb and locked"):
        game.apply(play("b", "2m", take("Ac"), DRAW))
    # Taking Am leaves a gap in row 1; the played card fills it before row 2 goes on.
    game.apply(play("b", "2m", take("Am")))
    assert game.state.display[:5] == ("Ac", "2m", "Kc", "Km", "Kb")
    # Taking the covering Kb unlocks Ac within the same turn; the played card fills slot 1.
    game.apply(play("a", "2c", take("Kb"), take("Ac"), discard=["3c"]))
    assert game.state.display[:5] == ("2c", "2m", "Kc", "Km", None)
    assert {"Kb", "Ac"} <= set(game.state.hands[0])


def test_a_hand_holds_exactly_five_at_the_end_of_a_turn() -> None:
    game = start(P3, H3, "Ac Am", "Kc Km")
    with pytest.raises(RuleViolation, match="would end the turn with 4 cards"):
        game.apply(play("ann", "2c"))
    with pytest.raises(RuleViolation, match="would end the turn with 6 cards"):
        game.apply(play("ann", "2c", take("Ac"), DRAW))
    with pytest.raises(RuleViolation, match="discards too many"):
        game.apply(play("ann", "2c", take("Ac"), DRAW, discard=["3c", "4c"]))
    with pytest.raises(RuleViolation, match="cannot play Qt: not in their hand"):
        game.apply(play("ann", "Qt", DRAW))
    game.apply(play("ann", "2c", take("Ac"), DRAW, discard=["3c"]))
    s = game.state
    assert sorted(s.hands[0]) == sorted(["4c", "5c", "6c", "Ac", "Kc"])
    assert s.discard == ("3c",) and s.display[0] == "2c"


def test_several_discards_are_shown_to_all_unless_the_minds_eye_is_closed() -> None:
    effects = (take("Ac"), take("Am"), DRAW)
    game = start(P3, H3, "Ac Am", "Kc")
    game.apply(play("ann", "2c", *effects, discard=["3c", "4c"]))
    assert game.state.log[-1] == "ann discards 3c 4c"
    closed = start(P3, H3, "Ac Am", "Kc", closed_minds_eye=True)
    closed.apply(play("ann", "2c", *effects, discard=["3c", "4c"]))
    assert closed.state.log == () and closed.state.discard == ("3c", "4c")


def test_swap_puts_the_hand_card_in_the_display_slot() -> None:
    game = start(P3, H3, "Ac Am", "Kc")
    game.apply(play("ann", "2c", {"effect": "swap", "give": "3c", "card": "Am"}, DRAW))
    s = game.state
    assert s.display[:3] == ("Ac", "3c", "2c") and "Am" in s.hands[0] and "Kc" in s.hands[0]


def test_reveal_keeps_one_and_discards_the_rest_in_the_chosen_order() -> None:
    game = start(P3, H3, "Ac Am", "Kc Km Kb")
    bad = {"effect": "reveal", "n": 3, "keep": "Qt"}
    with pytest.raises(RuleViolation, match="Qt is not among the revealed Kc Km Kb"):
        game.apply(play("ann", "2c", bad))
    good = {"effect": "reveal", "n": 3, "keep": "Km", "order": ["Kb", "Kc"]}
    game.apply(play("ann", "2c", good))
    assert "Km" in game.state.hands[0] and game.state.discard == ("Kb", "Kc")


def test_reveal_of_both_rune_cards_keeps_one_and_discards_the_other() -> None:
    game = start(P3, H3, "Ac Am", "R R Kb")
    game.apply(play("ann", "2c", {"effect": "reveal", "n": 3, "keep": "R"}))
    assert game.state.hands[0].count("R") == 1 and sorted(game.state.discard) == ["Kb", "R"]


def test_rune_effect_takes_one_from_the_supply() -> None:
    game = start(P3, H3, "Ac Am")
    game.apply(play("ann", "2c", {"effect": "rune"}, DRAW))
    assert game.state.runes[0] == 1 and game.state.supply == RUNE_SUPPLY - 4 - 1


def test_hypnosis_announces_the_best_hand_and_the_eye_shows_four() -> None:
    hands = ["2c 3c 4c 5c 6c", "Am Ab 3m 4m 5m", "2b 3b 4b 5b 7t"]
    game = start(P3, hands, "Ac Kc")
    game.apply(play("ann", "2c", {"effect": "hypnosis", "target": "bob"}, DRAW))
    assert game.state.log[-1] == "bob announces: pair"
    game.apply(play("bob", "3m", {"effect": "hypnosis", "target": "cy"}, DRAW))
    assert game.state.log[-1] == "cy announces: high card"
    with pytest.raises(RuleViolation, match="shows 4 different cards"):
        game.apply(play("cy", "2b", {"effect": "eye", "target": "ann", "shown": ["3c"]}, DRAW))
    with pytest.raises(RuleViolation, match="target must be an opponent"):
        game.apply(play("cy", "2b", {"effect": "hypnosis", "target": "cy"}, DRAW))
    shown = list(game.state.hands[0][:4])
    game.apply(play("cy", "2b", {"effect": "eye", "target": "ann", "shown": shown}, DRAW))
    assert game.state.log[-1] == "ann shows cy 4 cards"


def test_all_in_once_per_round_then_automatic_passes_and_no_targeting() -> None:
    game = start(P3, H3, "Ac Am", "Kc Km Kb Kt")
    game.apply(Event.of("all_in", player="ann"))
    assert game.state.display[:4] == ("Ac", "Am", "Kc", "Km") and game.state.all_in == 0
    with pytest.raises(RuleViolation, match="ann already went all in"):
        game.apply(Event.of("all_in", player="bob"))
    with pytest.raises(RuleViolation, match="ann went all in and cannot be targeted"):
        game.apply(play("bob", "2m", {"effect": "hypnosis", "target": "ann"}, DRAW))
    game.apply(passes("bob"))
    game.apply(passes("cy"))
    with pytest.raises(RuleViolation, match="ann went all in and passes automatically"):
        game.apply(play("ann", "2c", DRAW))
    game.apply(passes("ann"))
    assert game.state.hands[0] == tuple(H3[0].split())


def test_empty_deck_asks_for_a_recorded_shuffle_of_the_discard_pile() -> None:
    game = start(P3, H3, "Ac Am")
    low = replace(game.state, deck=("Qc",), discard=("Qm", "Qb"))
    assert "the deck is empty" in str(RULES.check(replace(low, deck=()), passes("ann")))
    assert "still holds" in str(RULES.check(game.state, Event.of("shuffle", order=[])))
    assert "discard pile's 2 cards" in str(RULES.check(low, Event.of("shuffle", order=["Qm"])))
    after = fold(low, Event.of("shuffle", order=["Qb", "Qm"]))
    assert after.deck == ("Qc", "Qb", "Qm") and after.discard == ()


def test_printed_card_effects_make_mandatory_effects_binding() -> None:
    table = {"2c": ["take!", "draw"], "3c": ["reveal3", "rune"]}
    game = start(P3, H3, "Ac Am", "Kc Km Kb", card_effects=table)
    with pytest.raises(RuleViolation, match="2c's ◇ take effect is mandatory"):
        game.apply(play("ann", "2c", DRAW))
    with pytest.raises(RuleViolation, match="does not carry these effects in this order"):
        game.apply(
            play("ann", "3c", {"effect": "rune"}, {"effect": "reveal", "n": 3, "keep": "Kc"})
        )
    game.apply(play("ann", "2c", take("Ac")))  # the draw is optional


def test_enchanted_discard_lets_take_and_swap_use_the_discard_top() -> None:
    game = start(P3, H3, "Ac Am", "Qt Kc", enchanted_discard=True)
    assert game.state.discard == ("Qt",)
    game.apply(play("ann", "2c", take("Qt")))
    assert "Qt" in game.state.hands[0] and game.state.discard == ()
    plain = start(P3, H3, "Ac Am", "Qt Kc")
    plain_state = replace(plain.state, discard=("Qt",))
    assert "Qt is not in the display" in str(
        RULES.check(plain_state, play("ann", "2c", take("Qt")))
    )


def test_a_full_display_starts_the_predictions_after_the_last_placer() -> None:
    game = start(["a", "b"], H3[:2], "Ac Am")
    for who in ("a", "b", "a", "b", "a", "b"):
        game.apply(passes(who))
    s = game.state
    assert s.phase == "predict" and None not in s.display
    with pytest.raises(RuleViolation, match="not now, the round is in its predict phase"):
        game.apply(passes("a"))


# -- predictions, pot and showdown ------------------------------------------------------------
BOOK = ["4c 5m 6b 7t 8c", "Ac 2m 3b 4t 5c", "Kc Km Kb 2t 9m"]


def test_book_example_pot_and_hand_scoring() -> None:
    _, state = at_showdown(["Alice", "Dan", "Phil"], BOOK, pot=7, supply=RUNE_SUPPLY - 7)
    state = fold(state, predict("Alice", "Dan"), predict("Dan", "Alice"), predict("Phil", "Alice"))
    assert state.runes == (4, 4 + 3, 3 + 3)
    result = state.results[-1]
    assert (result.best, result.share, result.carry) == (0, 3, 1)
    assert state.phase == "deal" and state.pot == 1 + 6  # carry plus round 2's top-up
    assert state.supply + sum(state.runes) + state.pot == RUNE_SUPPLY


def test_prediction_order_starts_after_the_last_placer() -> None:
    _, state = at_showdown(P3, BOOK, last_placer=0, turn=1)
    assert "bob predicts next, not ann" in str(RULES.check(state, predict("ann", "bob")))
    state = fold(state, predict("bob", "bob"))
    assert "already predicted" in str(RULES.check(state, predict("bob", "ann")))
    assert "unknown target 'zed'" in str(RULES.check(state, predict("cy", "zed")))


def test_two_players_predict_simultaneously_in_any_order() -> None:
    _, state = at_showdown(["a", "b"], BOOK[:2])
    state = fold(state, predict("b", "a"), predict("a", "a"))
    assert state.results[-1].winners == (0, 1) and state.runes == (1 + 4, 1 + 4)


def test_no_correct_prediction_carries_the_whole_pot() -> None:
    _, state = at_showdown(P3, BOOK)
    state = fold(state, predict("ann", "cy"), predict("bob", "cy"), predict("cy", "cy"))
    assert state.runes == (4, 4, 3) and state.pot == 4 + 6


def test_rune_cards_score_two_each_and_never_join_the_hand() -> None:
    _, state = at_showdown(P3, ["R R 2c 3c 4c", "2m 3m 4m 5m 7b", "Kc Km Kb 2t 9m"])
    state = fold(state, predict("ann", "cy"), predict("bob", "bob"), predict("cy", "ann"))
    assert state.results[-1].best == 2
    assert state.runes == (4 + 4, 0, 3)  # ann: 2 rune cards + the pot she predicted


def test_next_round_first_player_is_the_poorest_then_the_lowest_hand() -> None:
    _, state = at_showdown(P3, BOOK)
    # Everyone predicts ann (best): she gets pot 4 / 3 = 1 each, 1 carries.
    state = fold(state, predict("ann", "ann"), predict("bob", "ann"), predict("cy", "ann"))
    assert state.runes == (5, 5, 4) and state.players[state.first] == "cy"
    _, tied = at_showdown(P3, BOOK, runes=(0, 0, 1))
    tied = fold(tied, predict("ann", "cy"), predict("bob", "cy"), predict("cy", "cy"))
    assert tied.runes == (4, 4, 4)
    assert tied.players[tied.first] == "cy"  # all tied: cy's kings were the lowest hand


def test_pot_top_ups_by_round_and_player_count() -> None:
    for players, adds in ((["a", "b"], (4, 6)), (P3, (6, 8))):
        _, state = at_showdown(players, BOOK[: len(players)])
        for add, round_no in zip(adds, (2, 3), strict=True):
            votes = [predict(p, players[-1]) for p in players]
            before = state.pot
            state = fold(state, *votes)
            assert state.pot == before + add and state.round == round_no
            state = replace(
                fold(state, Event.of("deal", deck=list(ALL_CARDS))),
                phase="predict",
                hands=tuple(tuple(h.split()) for h in BOOK[: len(players)]),
                last_placer=len(players) - 1,
                turn=0,
            )


def test_deal_must_reshuffle_all_54_cards() -> None:
    _, state = at_showdown(P3, BOOK)
    state = fold(state, predict("ann", "ann"), predict("bob", "ann"), predict("cy", "ann"))
    assert "54 cards" in str(RULES.check(state, Event.of("deal", deck=["2c"])))
    assert "not now" in str(RULES.check(state, passes("cy")))
    state = fold(state, Event.of("deal", deck=hands_deck(BOOK)))
    assert state.phase == "play" and state.turn == state.first


def _last_round(runes: tuple[int, int, int], hands: list[str], **options: object):
    game = start(P3, H3, **options)
    return replace(
        game.state,
        phase="predict",
        round=3,
        hands=tuple(tuple(h.split()) for h in hands),
        last_placer=2,
        turn=0,
        runes=runes,
    )


def test_most_runes_after_round_three_wins() -> None:
    state = fold(_last_round((10, 0, 0), BOOK), *[predict(p, "cy") for p in P3])
    assert state.finished and state.winner == "ann" and state.phase == "over"
    assert "the game is over (ann won with 14 runes)" in str(RULES.check(state, passes("ann")))


def test_tie_goes_to_the_best_hand_of_the_last_round() -> None:
    # Hands score 4, 4, 3: bob ends on 4 + 3 = 7, cy on 4 + 3 = 7 with the lower hand.
    state = fold(
        _last_round((0, 3, 4), BOOK),
        *[predict(p, "ann") for p in ("ann",)],
        *[predict(p, "cy") for p in ("bob", "cy")],
    )
    assert state.runes[1] == state.runes[2] == 7 and state.runes[0] == 4 + 4
    state = fold(_last_round((0, 4, 5), BOOK), *[predict(p, "cy") for p in P3])
    assert state.runes == (4, 8, 8) and state.winner == "bob"


def test_heirs_of_the_prophets_plays_an_extra_round_then_may_leave_no_winner() -> None:
    state = fold(
        _last_round((0, 4, 5), BOOK, heirs_of_the_prophets=True), *[predict(p, "cy") for p in P3]
    )
    assert not state.finished and state.round == 4 and state.pot == 4 + 10
    state = replace(
        fold(state, Event.of("deal", deck=list(ALL_CARDS))),
        phase="predict",
        hands=tuple(
            tuple(h.split()) for h in ["2c 3t 5b 7m 9c", "Ac Am 3b 4t 6c", "Kc Km 2b 4c 8t"]
        ),
        last_placer=2,
        turn=0,
    )
    state = fold(state, *[predict(p, "ann") for p in P3])  # bob and cy both gain 1
    assert state.finished and state.winner is None and state.runes == (4, 9, 9)


def test_summary_names_scores_turn_and_winner() -> None:
    game = start(P3, H3, "Ac Am")
    game.apply(passes("ann"))
    summary = RULES.summary(game.state)
    assert summary["scores"] == {"ann": 0, "bob": 0, "cy": 0} and summary["turn"] == "bob"
    assert (summary["finished"], summary["winner"], summary["phase"]) == (False, None, "play")
    over = fold(_last_round((10, 0, 0), BOOK), *[predict(p, "cy") for p in P3])
    assert RULES.summary(over)["winner"] == "ann" and RULES.summary(over)["turn"] is None


def test_undo_then_redo_gives_the_same_state() -> None:
    game = start(P3, H3, "Ac Am", "Kc")
    game.apply(play("ann", "2c", take("Ac")))
    game.apply(passes("bob"))
    before = game.state
    last = game.undo()
    game.apply(last)
    assert game.state == before


def test_bad_events_are_refused_and_nothing_is_lost() -> None:
    game = start(P3, H3, "Ac Am")
    game.apply(passes("ann"))
    for event, message in [
        (Event.of("fold", player="bob"), "unknown All In event 'fold'"),
        (Event.of("pass", player="zed"), "unknown player 'zed'"),
        (play("bob", "2m", {"effect": "steal"}), "unknown effect 'steal'"),
        (play("bob", "2m", take("1x")), "unknown card '1x'"),
    ]:
        with pytest.raises(RuleViolation, match=message):
            game.apply(event)
    assert len(game) == 2
    with pytest.raises(LogError, match="event 2 \\(fold\\) is not legal"):
        Game(RULES, [*game.events, Event.of("fold", player="bob")])


def test_stacked_helper_keeps_the_box() -> None:
    assert sorted(stacked("R", "2c")) == sorted(ALL_CARDS)
