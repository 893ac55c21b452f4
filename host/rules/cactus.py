"""Cactus Game (萬物皆掌): the rules engine (RULINGS §4), event-sourced.

Events (flat JSON objects, ``type`` plus the fields shown):

``setup``     ``game: "cactus"``, ``players`` (seat order, clockwise; the first seat starts
              unless ``first`` names another), ``deck`` (the 90 white cards shuffled, top first).
``play_set``  ``player``, ``cards``: three of one character (wilds stand for any) → score cards.
``play``      ``player``, ``card`` (an action other than nope) and what the card asks for:
              ``targets`` [two players] for swap_hands; ``target`` for peek_steal,
              steal_point, gimme, steal_card; ``name`` (a card) for gimme. The action then
              waits: anyone may nope it before it resolves.
``nope``      ``player``: a nope on the top of the chain (the action or the last nope).
``resolve``   the waiting action takes effect, or is cancelled by an odd chain of nopes;
              ``card`` says which card peek_steal took or steal_card drew at random.
``draw``      ``player``, ``count`` 1, or 3 when the turn began with an empty hand.
``shuffle``   ``order``: the discard pile, shuffled, goes under the deck (allowed once the
              deck holds fewer than 3 cards, the most one draw takes).

A turn ends at once when its player gains a score card or draws a card; the game ends when a
player holds the target number of score cards.

**Table mode** (real cards, nobody knows the shuffled order): a ``setup`` without ``deck``.
Hands and the deck are then counted, not known (``UNSEEN`` cards); the events are the same,
with the cards as seen on the discard pile: a set or action is checked as a set or action
and against the number of cards the player holds, and every card seen on the pile must fit
the box. ``resolve`` of a gimme carries ``card`` when the target gave one (the named card),
none when they held none; a peek_steal or steal_card moves one unseen card (``card``
optional); a ``shuffle`` needs no ``order`` (the pile goes under the deck unseen).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, NamedTuple

from host.rules.base import Event, RuleViolation
from host.rules.notation import (
    BOX,
    CACTUS_ACTIONS,
    CACTUS_CHARACTERS,
    NotationError,
    parse_cards,
    parse_token,
)
from host.rules.stepwise import StepRules, reshuffled, seats

__all__ = ["RULES", "CactusRules", "CactusState", "SetCheck", "check_set", "target_score"]

GAME: Final = "cactus"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
HAND_SIZE: Final = 5
SCORE_CARDS: Final = 30
UNSEEN: Final = "?"  # a card in a hand or the deck that nobody has seen (table mode)
ALL_CARDS: Final[tuple[str, ...]] = tuple(t for t, n in BOX["cactus"].items() for _ in range(n))
SET_POINTS: Final[Mapping[str, int]] = {"charlie": 1, "ace": 2, "walter": 3, "wild": 3}
WILD: Final = "wild"
MAX_DRAW: Final = 3
TARGETED: Final = ("peek_steal", "steal_point", "gimme", "steal_card")
# Whether an action ends the turn when it takes effect (noped, each of them goes on).
ENDS_TURN: Final[Mapping[str, bool]] = {
    "free_point": True,
    "swap_hands": False,
    "peek_steal": False,
    "draw_three": True,
    "steal_point": True,
    "gimme": False,
    "steal_card": False,
}


def target_score(players: int) -> int:
    """Score cards needed to win: 7 (2–3 players), 5 (4–5), 4 (6)."""
    return 7 if players <= 3 else 5 if players <= 5 else 4


class SetCheck(NamedTuple):
    valid: bool
    character: str | None
    points: int
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


def check_set(cards: Iterable[str]) -> SetCheck:
    """Whether cards (tokens) form a character set, which character, and its score cards."""
    tokens = parse_cards(GAME, list(cards))
    shown = " ".join(tokens) or "(none)"
    actions = [t for t in tokens if t in CACTUS_ACTIONS]
    if actions:
        return SetCheck(
            False,
            None,
            0,
            f"invalid: {actions[0]} is an action card; a set is 3 character cards ({shown})",
        )
    if len(tokens) != 3:
        return SetCheck(
            False, None, 0, f"invalid: a set is 3 cards of one character, got {len(tokens)}"
        )
    named = sorted({t for t in tokens if t != WILD}, key=CACTUS_CHARACTERS.index)
    if len(named) > 1:
        return SetCheck(
            False,
            None,
            0,
            f"invalid: {' and '.join(named)} are different characters ({shown})",
        )
    character = named[0] if named else WILD
    return SetCheck(True, character, SET_POINTS[character], None)


@dataclass(frozen=True, slots=True)
class Pending:
    """An action card on the table, waiting to resolve; ``nopes`` lists who noped, in order."""

    actor: int
    card: str
    target: int | None = None
    targets: tuple[int, ...] = ()
    name: str | None = None
    nopes: tuple[int, ...] = ()

    @property
    def cancelled(self) -> bool:
        return len(self.nopes) % 2 == 1


@dataclass(frozen=True, slots=True)
class CactusState:
    players: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # top last
    scores: tuple[int, ...]
    supply: int
    turn: int
    started_empty: bool  # the player on turn began it with no cards (may draw 3)
    target: int
    pending: Pending | None = None
    log: tuple[str, ...] = ()
    finished: bool = False
    winner: str | None = None
    table_mode: bool = False  # real cards: hands and deck are counts of UNSEEN cards

    def index(self, name: str) -> int:
        return self.players.index(name)


def _bad(reason: str) -> RuleViolation:
    return RuleViolation(reason)


def _card(token: Any, what: str) -> str:
    if not isinstance(token, str):
        raise _bad(f"{what}: a card token is needed, got {token!r}")
    try:
        return parse_token(GAME, token)
    except NotationError as exc:
        raise _bad(f"{what}: {exc}") from None


class CactusRules(StepRules[CactusState]):
    game = GAME

    def initial(self, setup: Event) -> CactusState:
        players, first = seats(setup, "Cactus Game", MIN_PLAYERS, MAX_PLAYERS)
        if setup.get("options"):
            raise _bad("Cactus Game has no options")
        raw = setup.get("deck")
        table_mode = raw is None  # a real table: nobody knows the order
        if table_mode:
            deck: tuple[str, ...] = (UNSEEN,) * len(ALL_CARDS)
        elif not isinstance(raw, list):
            raise _bad("setup needs 'deck': the 90 white cards in shuffled order")
        else:
            deck = tuple(_card(t, "deck") for t in raw)
        if not table_mode and Counter(deck) != Counter(ALL_CARDS):
            raise _bad("the deck must hold the box's 90 white cards, each kind as often as boxed")
        n = len(players)
        hands = tuple(deck[HAND_SIZE * i : HAND_SIZE * (i + 1)] for i in range(n))
        return CactusState(
            players=players,
            hands=hands,
            deck=deck[HAND_SIZE * n :],
            discard=(),
            scores=(0,) * n,
            supply=SCORE_CARDS,
            turn=first,
            started_empty=False,
            target=target_score(n),
            table_mode=table_mode,
        )

    def step(self, state: CactusState, event: Event) -> CactusState:
        return _step(state, event)

    def summary(self, state: CactusState) -> dict[str, Any]:
        return summary(state)


def _player(state: CactusState, value: Any, what: str) -> int:
    if value not in state.players:
        raise _bad(f"{what}: unknown player {value!r} (players: {', '.join(state.players)})")
    return state.index(value)


def _on_turn(state: CactusState, event: Event) -> int:
    actor = _player(state, event.get("player"), event.type)
    if state.pending is not None:
        raise _bad(
            f"{state.pending.card} by {state.players[state.pending.actor]} is waiting: "
            f"nope it or resolve it first"
        )
    if actor != state.turn:
        raise _bad(f"it is {state.players[state.turn]}'s turn, not {state.players[actor]}'s")
    return actor


def _step(state: CactusState, event: Event) -> CactusState:
    if state.finished:
        raise _bad(f"the game is over: {state.winner} won")
    kind = event.type
    if kind == "play_set":
        return _play_set(state, _on_turn(state, event), event)
    if kind == "play":
        return _play(state, _on_turn(state, event), event)
    if kind == "draw":
        return _draw(state, _on_turn(state, event), event)
    if kind == "nope":
        return _nope(state, event)
    if kind == "resolve":
        return _resolve(state, event)
    if kind == "shuffle":
        return _shuffle(state, event)
    raise _bad(f"unknown Cactus Game event {kind!r}")


def _take(hand: tuple[str, ...], cards: Iterable[str], who: str) -> tuple[str, ...]:
    rest = list(hand)
    for card in cards:
        if card not in rest:
            raise _bad(f"{who} does not hold {card} (hand: {' '.join(hand) or 'empty'})")
        rest.remove(card)
    return tuple(rest)


def _take_from(state: CactusState, i: int, cards: list[str]) -> tuple[str, ...]:
    """Player ``i``'s hand without ``cards``; in table mode, without as many unseen cards."""
    name, hand = state.players[i], state.hands[i]
    if not state.table_mode:
        return _take(hand, cards, name)
    if len(cards) > len(hand):
        raise _bad(f"{name} holds {len(hand)} card(s) and cannot play {len(cards)}")
    seen = Counter(state.discard) + Counter(cards)
    if state.pending is not None:
        seen.update([state.pending.card] + ["nope"] * len(state.pending.nopes))
    for card, count in seen.items():
        if count > BOX[GAME][card]:
            raise _bad(f"{count}× {card} seen on the table: the box has {BOX[GAME][card]}")
    return hand[len(cards) :]


def _set_hand(state: CactusState, i: int, hand: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(hand) if j == i else h for j, h in enumerate(state.hands))


def _gain(state: CactusState, i: int, points: int, why: str) -> CactusState:
    """Score cards from the supply; gaining any ends the turn (and may end the game)."""
    got = min(points, state.supply)
    name = state.players[i]
    if got == 0:
        return replace(state, log=(*state.log, f"{why}: the score cards have run out"))
    scores = tuple(s + got if j == i else s for j, s in enumerate(state.scores))
    state = replace(
        state,
        scores=scores,
        supply=state.supply - got,
        log=(*state.log, f"{name} gains {got} score card{'s' if got > 1 else ''} ({why})"),
    )
    return _after_gain(state, i)


def _after_gain(state: CactusState, i: int) -> CactusState:
    if state.scores[i] >= state.target:
        return replace(state, finished=True, winner=state.players[i])
    return _end_turn(state)


def _end_turn(state: CactusState) -> CactusState:
    nxt = (state.turn + 1) % len(state.players)
    return replace(state, turn=nxt, started_empty=not state.hands[nxt])


def _play_set(state: CactusState, actor: int, event: Event) -> CactusState:
    raw = event.get("cards")
    if not isinstance(raw, list):
        raise _bad("play_set needs 'cards': the three cards played")
    cards = [_card(t, "play_set") for t in raw]
    verdict = check_set(cards)
    if not verdict.valid:
        raise _bad(f"{state.players[actor]} cannot score {' '.join(cards)}: {verdict.reason}")
    hand = _take_from(state, actor, cards)
    state = replace(
        state, hands=_set_hand(state, actor, hand), discard=state.discard + tuple(cards)
    )
    return _gain(state, actor, verdict.points, f"three {verdict.character}")


def _play(state: CactusState, actor: int, event: Event) -> CactusState:
    card = _card(event.get("card"), "play")
    if card in CACTUS_CHARACTERS:
        raise _bad(f"{card} is a character: characters are played as sets of three (play_set)")
    if card == "nope":
        raise _bad("a nope is played on another action card, out of turn (event 'nope')")
    hand = _take_from(state, actor, [card])
    pending = Pending(actor, card)
    if card == "swap_hands":
        targets = event.get("targets")
        if not isinstance(targets, list) or len(targets) != 2:
            raise _bad("swap_hands needs 'targets': the two players who swap hands")
        a, b = (_player(state, t, "swap_hands") for t in targets)
        if a == b:
            raise _bad("swap_hands: choose two different players")
        pending = replace(pending, targets=(a, b))
    elif card in TARGETED:
        target = _player(state, event.get("target"), card)
        if target == actor:
            raise _bad(f"{card}: choose another player, not yourself")
        if card == "steal_point" and state.scores[target] == 0:
            raise _bad(f"steal_point: {state.players[target]} has no score card to steal")
        pending = replace(pending, target=target)
        if card == "gimme":
            pending = replace(pending, name=_card(event.get("name"), "gimme: name"))
    return replace(state, hands=_set_hand(state, actor, hand), pending=pending)


def _nope(state: CactusState, event: Event) -> CactusState:
    pending = state.pending
    if pending is None:
        raise _bad("nope: there is no action card to cancel (character sets cannot be noped)")
    who = _player(state, event.get("player"), "nope")
    top = pending.nopes[-1] if pending.nopes else pending.actor
    if who == top:
        raise _bad(f"{state.players[who]} cannot nope their own card")
    hand = _take_from(state, who, ["nope"])
    return replace(
        state,
        hands=_set_hand(state, who, hand),
        pending=replace(pending, nopes=(*pending.nopes, who)),
    )


def _draw_cards(state: CactusState, i: int, count: int) -> tuple[CactusState, int]:
    if len(state.deck) < count and state.discard:
        raise _bad(
            f"the deck holds {len(state.deck)} card(s): record a shuffle of the discard "
            f"pile before drawing {count}"
        )
    got = state.deck[:count]
    state = replace(
        state, deck=state.deck[len(got) :], hands=_set_hand(state, i, state.hands[i] + got)
    )
    return state, len(got)


def _draw(state: CactusState, actor: int, event: Event) -> CactusState:
    count = event.get("count", 1)
    if count not in (1, 3):
        raise _bad("draw: count is 1, or 3 when the turn began with an empty hand")
    if count == 3 and not state.started_empty:
        raise _bad(f"{state.players[actor]} may draw 3 only when their turn begins handless")
    state, _ = _draw_cards(state, actor, count)
    return _end_turn(state)  # with deck and pile both empty the draw still passes the turn


def _shuffle(state: CactusState, event: Event) -> CactusState:
    if state.table_mode:  # the pile goes under the deck face down: unseen again
        if event.get("order") is None:
            event = Event.of("shuffle", order=list(state.discard))
        reshuffled(state.deck, state.discard, event, lambda t: _card(t, "shuffle"), MAX_DRAW)
        return replace(state, deck=state.deck + (UNSEEN,) * len(state.discard), discard=())
    deck = reshuffled(state.deck, state.discard, event, lambda t: _card(t, "shuffle"), MAX_DRAW)
    return replace(state, deck=deck, discard=())


def _resolve(state: CactusState, event: Event) -> CactusState:
    pending = state.pending
    if pending is None:
        raise _bad("resolve: no action card is waiting")
    chain = (pending.card,) + ("nope",) * len(pending.nopes)
    actor, card = pending.actor, pending.card
    name = state.players[actor]
    state = replace(state, pending=None, discard=state.discard + chain)
    if pending.cancelled:
        return replace(state, log=(*state.log, f"{name}'s {card} is noped"))
    log = list(state.log)
    if card == "free_point":
        return _gain(state, actor, 1, "free point")
    if card == "swap_hands":
        a, b = pending.targets
        ha, hb = state.hands[a], state.hands[b]
        hands = list(state.hands)
        # an empty-handed player takes the other's hand and gives nothing: a plain swap
        hands[a], hands[b] = hb, ha
        log.append(f"{state.players[a]} and {state.players[b]} swap hands")
        return replace(state, hands=tuple(hands), log=tuple(log))
    if card == "draw_three":
        state, got = _draw_cards(state, actor, 3)
        return _end_turn(state) if got else state
    assert pending.target is not None
    target = pending.target
    victim = state.players[target]
    if card == "steal_point":
        if state.scores[target] == 0:
            return replace(state, log=(*log, f"{victim} has no score card left"))
        scores = list(state.scores)
        scores[target] -= 1
        scores[actor] += 1
        state = replace(state, scores=tuple(scores), log=(*log, f"{name} steals from {victim}"))
        return _after_gain(state, actor)
    if card == "gimme" and state.table_mode:
        wanted = pending.name
        given = event.get("card")
        if given is None:
            return replace(state, log=(*log, f"{victim} holds no {wanted}"))
        if _card(given, "resolve gimme") != wanted or not state.hands[target]:
            raise _bad(f"resolve gimme: {victim} can give only a {wanted}, not {given}")
        return _move(state, target, actor, UNSEEN, f"{victim} gives {name} a {wanted}")
    if card == "gimme":
        wanted = pending.name
        assert wanted is not None
        if wanted not in state.hands[target]:
            return replace(state, log=(*log, f"{victim} holds no {wanted}"))
        return _move(state, target, actor, wanted, f"{victim} gives {name} a {wanted}")
    # peek_steal and steal_card take one card of the target's hand, named in the event
    if not state.hands[target]:
        return replace(state, log=(*log, f"{victim} has no cards to take"))
    if state.table_mode:
        if event.get("card") is not None:
            _card(event.get("card"), f"resolve {card}")
        return _move(state, target, actor, UNSEEN, f"{name} takes a card from {victim}")
    taken = _card(event.get("card"), f"resolve {card}")
    if taken not in state.hands[target]:
        raise _bad(f"resolve {card}: {victim} does not hold {taken}")
    return _move(state, target, actor, taken, f"{name} takes a card from {victim}")


def _move(state: CactusState, giver: int, taker: int, card: str, words: str) -> CactusState:
    hands = list(state.hands)
    hands[giver] = _take(hands[giver], [card], state.players[giver])
    hands[taker] = (*hands[taker], card)
    return replace(state, hands=tuple(hands), log=(*state.log, words))


def summary(state: CactusState) -> dict[str, Any]:
    """Scores, winner and progress, the shape every engine's summary shares."""
    return {
        "game": GAME,
        "players": list(state.players),
        "scores": dict(zip(state.players, state.scores, strict=True)),
        "winner": state.winner,
        "finished": state.finished,
        "target": state.target,
        "turn": None if state.finished else state.players[state.turn],
        "supply": state.supply,
        "hands": {p: len(h) for p, h in zip(state.players, state.hands, strict=True)},
    }


RULES: Final = CactusRules()
