"""Four Color Cards: the event-sourced referee — play, claims and their priority, hu, draws."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from host.rules.base import Event, Game, LogError, RuleViolation, events_from_jsonl
from host.rules.fourcolor import (
    RULES,
    Claim,
    Offer,
    State,
    deal_hands,
    full_deck,
    legal_claims,
    resolve_claims,
    summary,
)
from host.rules.fourcolor_bots import play_session
from host.rules.fourcolor_combos import CARD_TYPES, INDEX, sort_cards
from host.rules.notation import split_tokens
from host.rules.registry import load_game

PLAYERS = ["ann", "bob", "cat", "dan"]
# bob's 20 cards wait on a third red chariot: 2+2+1+5+3+0 = 13 hu, plus the pong rR rR rR.
BOB_WAITING = split_tokens("rG rA rE gG gA gE yR yH yC rS gS yS wS gR gR gR wA wA rR rR")


def deck_for(
    players: int, hands: dict[int, list[str]], top: list[str], dealer: int = 0
) -> list[str]:
    """A deck that deals ``hands`` (filled up with other cards) and then has ``top`` on top."""
    pool = Counter(full_deck())
    pool.subtract(c for cards in hands.values() for c in cards)
    pool.subtract(top)
    assert min(pool.values()) >= 0
    spare = sorted(pool.elements(), key=lambda c: (pool[c], INDEX[c]))
    full = {}
    for seat in range(players):
        size = 21 if seat == dealer else 20
        mine = list(hands.get(seat, []))
        while len(mine) < size:
            mine.append(spare.pop())
        full[seat] = mine
    deck: list[str] = []
    for round_no in range(3):
        for step in range(players):
            seat = (dealer + step) % players
            take = 6 if round_no == 2 and seat != dealer else 7
            deck.extend(full[seat][:take])
            full[seat] = full[seat][take:]
    deck.extend(top)
    deck.extend(spare)
    assert len(deck) == 112
    return deck


def start(
    players: int = 4,
    dealt: dict[int, list[str]] | None = None,
    top: tuple[str, ...] = (),
    **options: object,
) -> Game[State]:
    deck = deck_for(players, dealt or {}, list(top))
    return Game.start(RULES, players=PLAYERS[:players], options=options, deck=deck)


def offered(card: str, source: str, seat: int, **hands: str) -> State:
    """A 4-player position where ``card`` is on offer, with the named players' hands."""
    state = start().state
    new_hands = list(state.hands)
    for name, cards in hands.items():
        new_hands[PLAYERS.index(name)] = sort_cards(cards.split())
    return replace(
        state,
        hands=tuple(new_hands),
        phase="respond",
        offer=Offer(card, source, seat),  # type: ignore[arg-type]
    )


def claim(*claims: tuple[str, str, str]) -> Event:
    return Event.of(
        "claim", claims=[{"player": p, "kind": k, "cards": c.split()} for p, k, c in claims]
    )


# -- setup and dealing ----------------------------------------------------------------------
def test_deal_is_7_7_6_and_the_dealer_gets_21() -> None:
    for n in (2, 3, 4):
        state = start(n).state
        assert [len(h) for h in state.hands] == [21] + [20] * (n - 1)
        assert len(state.deck) == 112 - 21 - 20 * (n - 1)
        assert state.points == (10 * n,) * n
        assert state.phase == "discard" and state.current == 0
        assert state.card_count() == 112
    hands, rest = deal_hands(full_deck(), 3, dealer=1)
    assert [len(h) for h in hands] == [20, 21, 20] and len(rest) == 51


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ({"players": ["a"]}, "2 to 4 players"),
        ({"players": ["a", "a"]}, "distinct names"),
        ({"players": ["a", "b"], "deck": full_deck()[:-1]}, "all 112 cards"),
        ({"players": ["a", "b"], "deck": [*full_deck()[:-1], "rG"]}, "4 times"),
        ({"players": ["a", "b"], "deck": [*full_deck()[:-1], "zz"]}, "unknown card 'zz'"),
        ({"players": ["a", "b"], "options": {"threshhold": 9}}, "unknown option"),
        ({"players": ["a", "b"], "options": {"self_drawn": "maybe"}}, "self_drawn"),
        ({"players": ["a", "b"], "dealer": "zed"}, "dealer 'zed'"),
    ],
)
def test_bad_setups_say_why(setup: dict[str, object], why: str) -> None:
    data = {"deck": full_deck(), **setup}
    with pytest.raises(RuleViolation, match=why):
        Game.start(RULES, **data)


# -- discarding, passing, turning cards over -------------------------------------------------
def test_discard_rules() -> None:
    game = start(2, {0: ["rG", "yS"]})
    with pytest.raises(RuleViolation, match="a general \\(rG\\) may never be discarded"):
        game.apply(Event.of("discard", player="ann", card="rG"))
    with pytest.raises(RuleViolation, match="it is ann's turn to discard, not bob's"):
        game.apply(Event.of("discard", player="bob", card="yS"))
    missing = next(c for c in CARD_TYPES if c not in game.state.hands[0] and c[1] != "G")
    with pytest.raises(RuleViolation, match=f"ann does not hold {missing}"):
        game.apply(Event.of("discard", player="ann", card=missing))
    game.apply(Event.of("discard", player="ann", card="黃兵"))  # Chinese names welcome
    assert game.state.offer == Offer("yS", "discard", 0)
    assert game.state.first_discard == "yS"


def test_nobody_claims_so_the_next_player_turns_a_card_over() -> None:
    game = start(3, {0: ["yS"]}, top=("wC", "gA"))
    game.apply(Event.of("discard", player="ann", card="yS"))
    game.apply(Event.of("pass"))
    assert game.state.phase == "draw" and game.state.players[game.state.current] == "bob"
    with pytest.raises(RuleViolation, match="top card of the deck is wC, not gA"):
        game.apply(Event.of("turn", player="bob", card="gA"))
    game.apply(Event.of("turn", player="bob", card="wC"))
    assert game.state.offer == Offer("wC", "turn", 1)
    game.apply(Event.of("pass"))
    # Nobody wanted the turned card either: the player after the drawer turns the next one.
    assert game.state.players[game.state.current] == "cat"
    assert game.state.discards == ("yS", "wC")
    game.apply(Event.of("turn", player="cat"))
    assert game.state.offer == Offer("gA", "turn", 2)
    assert game.state.card_count() == 112


# -- claim priority ---------------------------------------------------------------------------
def test_hu_outranks_pong_and_pong_outranks_chi() -> None:
    state = offered("rR", "discard", 0, bob="rH rC wS", cat="rR rR wS", dan=" ".join(BOB_WAITING))
    everyone = claim(("bob", "chi", "rH rC"), ("cat", "pong", "rR rR"), ("dan", "hu", ""))
    assert RULES.check(state, everyone) is None
    assert RULES.evolve(state, everyone).results[-1].player == "dan"
    winner, why = resolve_claims(
        state,
        [Claim("bob", "chi", ("rC", "rH")), Claim("cat", "pong", ("rR", "rR")), Claim("dan", "hu")],
    )
    assert winner.player == "dan"
    assert "dan's hu outranks cat's pong" in why and "dan's hu outranks bob's chi" in why
    winner, why = resolve_claims(
        state, [Claim("bob", "chi", ("rC", "rH")), Claim("cat", "pong", ("rR", "rR"))]
    )
    assert winner.player == "cat" and "cat's pong outranks bob's chi" in why
    after = RULES.evolve(state, claim(("bob", "chi", "rH rC"), ("cat", "pong", "rR rR")))
    assert [m.cards for m in after.exposed[2]] == [("rR", "rR", "rR")]
    assert "rR" not in after.hands[2] and after.resolution.startswith("cat's pong outranks")
    # The pong moves the turn to cat, who discards; bob, between ann and cat, is skipped.
    assert after.phase == "discard" and after.players[after.current] == "cat"
    card = next(c for c in after.hands[2] if c[1] != "G")
    after = RULES.evolve(after, Event.of("discard", player="cat", card=card))
    after = RULES.evolve(after, Event.of("pass"))
    assert after.phase == "draw" and after.players[after.current] == "dan"


def test_equal_claims_go_to_the_nearest_in_turn_order() -> None:
    # dan discards; ann (next), bob, cat may all hu: ann is nearest.
    hand = " ".join(BOB_WAITING)
    state = offered("rR", "discard", 3, ann=hand, bob=hand.replace("gR gR gR", "yA yA yA"))
    winner, why = resolve_claims(state, [Claim("bob", "hu"), Claim("ann", "hu")])
    assert winner.player == "ann" and "ann is nearer in turn order than bob" in why


def test_chi_only_by_the_next_player_after_a_discard() -> None:
    state = offered("rR", "discard", 0, bob="rH rC wS", cat="rH rC wS")
    assert RULES.check(state, claim(("bob", "chi", "rH rC"))) is None
    reason = RULES.check(state, claim(("cat", "chi", "rH rC")))
    assert reason == "only the next player may chi, and cat is not"
    # ... but anyone may pong.
    state = offered("rR", "discard", 0, cat="rR rR wS")
    assert RULES.check(state, claim(("cat", "pong", ""))) is None


def test_a_turned_card_goes_to_the_drawer_first_and_drawer_or_next_may_chi() -> None:
    state = offered("gC", "turn", 1, bob="gR gH wS", cat="gR gH wS", dan="gR gH wS")
    assert RULES.check(state, claim(("bob", "chi", "gR gH"))) is None
    assert RULES.check(state, claim(("cat", "chi", "gR gH"))) is None
    assert "only the drawer or next player may chi" in str(
        RULES.check(state, claim(("dan", "chi", "gR gH")))
    )
    winner, why = resolve_claims(
        state, [Claim("cat", "chi", ("gH", "gR")), Claim("bob", "chi", ("gH", "gR"))]
    )
    assert winner.player == "bob" and "bob is nearer in turn order than cat" in why


def test_a_discarder_cannot_claim_their_own_discard() -> None:
    state = offered("rR", "discard", 0, ann="rR rR")
    assert RULES.check(state, claim(("ann", "pong", ""))) == "ann cannot claim their own discard"


def test_a_drawn_general_must_be_taken_by_its_drawer() -> None:
    state = offered("yG", "turn", 1, bob="yA yE wS", cat="yG yG yG wS")
    assert "a drawn general must be taken by its drawer: bob must claim yG" in str(
        RULES.check(state, Event.of("pass"))
    )
    assert "bob must claim yG" in str(RULES.check(state, claim(("cat", "kong", "yG yG yG"))))
    # The book's tip: advisor + elephant can chi a general only when you draw it yourself...
    assert RULES.check(state, claim(("bob", "chi", "yA yE"))) is None
    # ... and it can be taken first by a kong.
    event = claim(("bob", "chi", "yA yE"), ("cat", "kong", "yG yG yG"))
    after = RULES.evolve(state, event)
    assert after.exposed[2][-1].kind == "general_kong" and after.players[after.current] == "cat"
    # Alone, the general is a combination: the drawer lays it down and discards.
    single = RULES.evolve(state, claim(("bob", "chi", "")))
    assert single.exposed[1][-1].cards == ("yG",) and single.exposed[1][-1].hu == 1


def test_claims_must_be_real_combinations_of_held_cards() -> None:
    state = offered("rR", "discard", 0, bob="rH gC rR", cat="rR rR rR")
    assert str(RULES.check(state, claim(("bob", "chi", "rH rC")))) == "bob does not hold rC"
    assert "must be of one colour" in str(RULES.check(state, claim(("bob", "chi", "rH gC"))))
    assert "is a kong, not a pong" in str(RULES.check(state, claim(("cat", "pong", "rR rR rR"))))
    assert "rR rR rR is a pong: claim it as one, not chi" in str(
        RULES.check(state, claim(("cat", "chi", "rR rR")))
    )
    assert "cat does not hold rH" in str(RULES.check(state, claim(("cat", "chi", "rH rC"))))
    assert "say which cards bob's chi uses with rR" in str(
        RULES.check(offered("rR", "discard", 0, bob="rR rH rC wS"), claim(("bob", "chi", "")))
    )
    assert "bob does not hold rR rR" in str(RULES.check(state, claim(("bob", "kong", ""))))
    assert "at most one claim" in str(
        RULES.check(state, claim(("bob", "chi", "rR"), ("bob", "pong", "")))
    )
    assert "use 'pass'" in str(RULES.check(state, Event.of("claim", claims=[])))


def test_a_claim_that_leaves_only_generals_must_be_hu() -> None:
    state = offered("wA", "discard", 0, bob="wA rG")
    reason = RULES.check(state, claim(("bob", "chi", "wA")))
    assert "bob would hold nothing but generals and could not discard" in str(reason)
    reason = RULES.check(offered("wA", "discard", 0, bob="wA"), claim(("bob", "chi", "wA")))
    assert "bob would hold no card and could not discard" in str(reason)
    assert [c.kind for c in legal_claims(state, "bob")] == ["hu"]


def test_legal_claims_lists_every_option() -> None:
    state = offered("rR", "discard", 0, bob="rR rR rR rH rC gS")
    kinds = sorted((c.kind, c.cards) for c in legal_claims(state, "bob"))
    assert kinds == [
        ("chi", ("rH", "rC")),
        ("chi", ("rR",)),
        ("kong", ("rR", "rR", "rR")),
        ("pong", ("rR", "rR")),
    ]
    assert legal_claims(state, "cat") == [] or all(
        c.kind != "chi" for c in legal_claims(state, "cat")
    )


# -- hu, settlement, flower -------------------------------------------------------------------
def test_hu_on_a_discard_scores_the_completed_pong_exposed_and_settles() -> None:
    game = start(3, {0: ["rR"], 1: BOB_WAITING}, top=("gR",))
    game.apply(Event.of("discard", player="ann", card="rR"))
    assert legal_claims(game.state, "bob")[0].kind == "hu"
    game.apply(claim(("bob", "hu", "")))
    result = game.state.results[-1]
    assert result.outcome == "hu" and result.player == "bob"
    assert result.flower == "gR"  # the top card of the deck; bob holds three
    assert result.score is not None
    # 13 hu in hand + the pong completed by ann's card at its exposed value 1 + flower 3.
    assert result.score.hu == 13 + 1 + 3 and result.score.flower_hu == 3
    assert dict(result.points) == {"ann": -8, "bob": 16, "cat": -8}
    assert summary(game.state) == {
        "scores": {"ann": 22, "bob": 46, "cat": 22},
        "winner": "bob",
        "finished": True,
    }
    assert game.state.card_count() == 112


def test_self_drawn_hu_counts_the_hand_value() -> None:
    game = start(2, {0: ["wS"], 1: BOB_WAITING}, top=("wC", "rR", "yG"))
    game.apply(Event.of("discard", player="ann", card="wS"))
    game.apply(Event.of("pass"))
    game.apply(Event.of("turn", player="bob"))  # wC: nobody wants it
    game.apply(Event.of("pass"))
    game.apply(Event.of("turn", player="ann"))  # rR, turned by ann: bob takes it from ann
    assert game.state.offer == Offer("rR", "turn", 0)
    state = game.state
    game.apply(claim(("bob", "hu", "")))
    assert game.state.results[-1].score.hu == 13 + 1  # type: ignore[union-attr]
    # Had bob turned it over himself, the pong would count its hand value, 3.
    own = RULES.evolve(replace(state, offer=Offer("rR", "turn", 1)), claim(("bob", "hu", "")))
    assert own.results[-1].score.hu == 13 + 3  # type: ignore[union-attr]
    # ... unless the table plays the option that a self-drawn card counts exposed too.
    option = replace(state.options, self_drawn="exposed")
    own = RULES.evolve(
        replace(state, offer=Offer("rR", "turn", 1), options=option), claim(("bob", "hu", ""))
    )
    assert own.results[-1].score.hu == 13 + 1  # type: ignore[union-attr]


def test_false_hu_pays_eleven_to_everyone() -> None:
    state = offered("rR", "discard", 0, bob="rR rR rA")
    after = RULES.evolve(state, claim(("bob", "hu", "")))
    result = after.results[-1]
    assert result.outcome == "false_hu"
    assert dict(result.points) == {"ann": 11, "bob": -33, "cat": 11, "dan": 11}
    assert after.points == (51, 7, 51, 51)


def test_flower_is_the_first_discard_when_the_deck_is_empty() -> None:
    state = replace(offered("rR", "discard", 0, bob=" ".join(BOB_WAITING)), deck=())
    state = replace(state, first_discard="gA")
    after = RULES.evolve(state, claim(("bob", "hu", "")))
    assert after.results[-1].flower == "gA"
    assert after.results[-1].score.flower_hu == 1  # type: ignore[union-attr]


# -- drawn games, the next hand, the end of the session ---------------------------------------
def test_empty_deck_means_a_drawn_game_and_the_last_drawer_deals_next() -> None:
    state = replace(start(3).state, phase="draw", current=2, deck=(), last_actor=1)
    assert "drawn game" in str(RULES.check(state, Event.of("turn", player="cat")))
    assert "still holds" in str(RULES.check(replace(state, deck=("rA",)), Event.of("drawn")))
    after = RULES.evolve(state, Event.of("drawn"))
    assert after.results[-1].outcome == "drawn" and after.points == state.points


def test_the_last_to_discard_draw_or_hu_deals_the_next_hand() -> None:
    game = start(3, {0: ["yS"], 1: ["gC"]}, hands=2)
    game.apply(Event.of("discard", player="ann", card="yS"))
    game.apply(Event.of("pass"))
    game.apply(Event.of("turn", player="bob"))
    assert game.state.last_actor == 1
    # Play it out with the deck run dry: jump to an empty deck after bob's draw.
    state = replace(game.state, deck=())
    state = RULES.evolve(state, Event.of("pass"))
    state = RULES.evolve(state, Event.of("drawn"))
    assert state.phase == "over"
    assert "still being played" in str(RULES.check(game.state, Event.of("deal", deck=full_deck())))
    nxt = RULES.evolve(state, Event.of("deal", deck=full_deck()))
    assert nxt.dealer == 1 and nxt.current == 1 and len(nxt.hands[1]) == 21
    assert nxt.hand_no == 1


def test_the_session_ends_when_a_player_has_no_points_left() -> None:
    state = replace(offered("rR", "discard", 0, bob="rR rR rA"), points=(40, 20, 40, 40))
    state = replace(state, options=replace(state.options, hands=5))
    after = RULES.evolve(state, claim(("bob", "hu", "")))  # false hu: bob pays 33
    assert after.points[1] < 0 and after.finished
    assert "session is over" in str(RULES.check(after, Event.of("deal", deck=full_deck())))
    assert summary(after)["winner"] is None  # three players tied on 51


# -- whole sessions played by bots ------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_random_sessions_conserve_cards_are_zero_sum_end_and_replay(seed: int) -> None:
    players = PLAYERS[: 2 + seed % 3]
    game = play_session(players, seed, {"hands": 3})
    start_total = 10 * len(players) * len(players)
    for index in range(len(game)):
        state = game.state_at(index)
        assert state.card_count() == 112
        # Generals are never discarded, and a turned one is always taken: none lie discarded.
        assert not [c for c in state.discards if c[1] == "G"]
        assert sum(state.points) == start_total
    final = game.state
    assert final.finished and len(final.results) <= 3
    for result in final.results:
        assert sum(dict(result.points).values()) == 0
    undone = [game.undo() for _ in range(min(5, len(game) - 1))]
    for event in reversed(undone):
        game.apply(event)
    assert game.state == final
    text = game.to_jsonl()
    again = load_game(events_from_jsonl(text))
    assert again.state == final
    assert summary(again.state) == summary(final) == RULES.summary(final)
    assert json.loads(json.dumps(summary(final))) == summary(final)


def test_bots_calling_false_hu_are_settled_too() -> None:
    false_calls = 0
    for seed in range(4):
        # Bots that call hu on every winning shape, against a threshold few hands reach.
        game = play_session(PLAYERS[:3], seed, {"hands": 2, "threshold": 25}, bluff=1.0)
        for result in game.state.results:
            if result.outcome == "false_hu":
                false_calls += 1
                assert result.score is not None and result.score.hu < 25
                points = dict(result.points)
                assert points.pop(str(result.player)) == -26 * 2
                assert set(points.values()) == {26}
        assert sum(game.state.points) == 90
    assert false_calls > 0


def test_a_tampered_log_names_the_bad_event() -> None:
    game = play_session(PLAYERS[:2], 3)
    events = game.to_json()
    first = events[1]
    assert first["type"] == "discard"
    general = next(c for c in game.state_at(0).hands[0] if c[1] == "G")
    events[1] = {**first, "card": general}
    with pytest.raises(LogError, match="event 1 \\(discard\\) is not legal: a general"):
        load_game([Event.from_json(e) for e in events])


# -- a real table's results only (no deck recorded) -------------------------------------------
def test_a_table_log_keeps_the_points_from_each_hu() -> None:
    game = Game.start(RULES, players=PLAYERS[:3], options={"hands": 3})
    assert game.state.phase == "play" and not game.state.tracked
    assert "keeps results only" in str(RULES.check(game.state, Event.of("pass")))
    hand = list(BOB_WAITING)
    hand.remove("gR")  # bob has laid gR gR gR face up
    hand.remove("gR")
    hand.remove("gR")
    hu = Event.of(
        "hu", player="bob", hand=hand, exposed=[["gR", "gR", "gR"]], win_card="rR",
        win_from="other", flower="gR",
    )  # fmt: skip
    game.apply(hu)
    result = game.state.results[-1]
    assert result.score is not None
    # 10 in hand + exposed pong 1 + the completed pong counted exposed 1 + flower 3
    assert result.score.hu == 15 and dict(result.points)["bob"] == 12
    assert game.state.phase == "over" and game.state.last_actor == 1
    game.apply(Event.of("deal"))
    assert game.state.phase == "play" and game.state.dealer == 1
    with pytest.raises(RuleViolation, match="name the player who made the last discard"):
        game.apply(Event.of("drawn"))
    game.apply(Event.of("drawn", player="cat"))
    game.apply(Event.of("deal"))
    assert game.state.dealer == 2
    kongs = ["rA"] * 4 + ["rE"] * 4 + ["rR"] * 4 + ["rH"] * 4
    ann = Event.of("hu", player="ann", hand=[*kongs, "yS", "gS", "wS", "wG"], win_card="yG",
                   win_from="self")  # fmt: skip
    game.apply(ann)  # 4 kongs 32 + three soldiers 3 + two generals 2 = 37 hu: 28 from each
    assert game.state.finished
    assert summary(game.state) == {
        "scores": {"ann": 24 + 56, "bob": 42 - 28, "cat": 24 - 28},
        "winner": "ann",
        "finished": True,
    }
    again = load_game(events_from_jsonl(game.to_jsonl()))
    assert again.state == game.state


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"hand": BOB_WAITING[:-1], "win_card": "rR", "win_from": "other"}, "shows 20 cards"),
        ({"hand": BOB_WAITING, "win_card": "rR", "win_from": "later"}, "win_from must be"),
        ({"hand": BOB_WAITING, "win_card": "rQ", "win_from": "self"}, "unknown card 'rQ'"),
        (
            {"hand": BOB_WAITING[:-3], "exposed": [["rR", "gH", "rC"]], "win_card": "rR",
             "win_from": "self"},
            "must be of one colour",
        ),
        (
            {"hand": BOB_WAITING, "win_card": "gR", "win_from": "self", "flower": "gR"},
            "5× 'gR'",
        ),
    ],
)  # fmt: skip
def test_a_misread_hu_is_refused_with_the_reason(fields: dict[str, object], why: str) -> None:
    game = Game.start(RULES, players=PLAYERS[:2])
    with pytest.raises(RuleViolation, match=why):
        game.apply(Event.of("hu", player="bob", **fields))
    assert len(game) == 1  # nothing recorded
