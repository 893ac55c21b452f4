"""A simple Cactus Game player for demos and property tests: random legal events, seeded.

It scores a character set whenever it holds one, otherwise plays an action card or draws;
opponents nope waiting actions now and then. Randomness comes only from the ``rng`` passed in.
"""

from __future__ import annotations

import random
from collections import Counter

from host.rules.base import Event, Game
from host.rules.cactus import ALL_CARDS, MAX_DRAW, RULES, WILD, CactusState, check_set
from host.rules.notation import CACTUS_ACTIONS, CACTUS_CHARACTERS


def shuffled_deck(rng: random.Random) -> list[str]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


def start(players: list[str], rng: random.Random) -> Game[CactusState]:
    return Game.start(RULES, players=players, deck=shuffled_deck(rng))


def best_set(hand: tuple[str, ...]) -> list[str] | None:
    """The highest-scoring character set in a hand, if any."""
    count = Counter(hand)
    wilds = count[WILD]
    for character in ("walter", "ace", "charlie"):
        have = min(count[character], 3)
        if have + wilds >= 3 and have:
            cards = [character] * have + [WILD] * (3 - have)
            if check_set(cards).valid:
                return cards
    return [WILD] * 3 if wilds >= 3 else None


def _action(state: CactusState, actor: int, card: str, rng: random.Random) -> Event:
    name = state.players[actor]
    others = [p for i, p in enumerate(state.players) if i != actor]
    if card == "swap_hands":
        return Event.of("play", player=name, card=card, targets=rng.sample(state.players, 2))
    if card == "steal_point":
        rich = [p for p in others if state.scores[state.index(p)] > 0]
        return Event.of("play", player=name, card=card, target=rng.choice(rich or others))
    if card == "gimme":
        wanted = rng.choice(CACTUS_CHARACTERS + CACTUS_ACTIONS)
        return Event.of("play", player=name, card=card, target=rng.choice(others), name=wanted)
    if card in ("peek_steal", "steal_card"):
        return Event.of("play", player=name, card=card, target=rng.choice(others))
    return Event.of("play", player=name, card=card)


def next_event(state: CactusState, rng: random.Random) -> Event:
    """One legal event for the state (the game must not be over)."""
    need_shuffle = len(state.deck) < MAX_DRAW and state.discard
    pending = state.pending
    if pending is not None:
        top = pending.nopes[-1] if pending.nopes else pending.actor
        nopers = [p for i, p in enumerate(state.players) if i != top and "nope" in state.hands[i]]
        if nopers and rng.random() < 0.3:
            return Event.of("nope", player=rng.choice(nopers))
        if need_shuffle and pending.card == "draw_three":
            return _shuffle(state, rng)
        target = pending.target
        if target is not None and pending.card in ("peek_steal", "steal_card"):
            hand = state.hands[target]
            if hand:
                return Event.of("resolve", card=rng.choice(hand))
        return Event.of("resolve")
    actor = state.turn
    name = state.players[actor]
    hand = state.hands[actor]
    cards = best_set(hand)
    if cards:
        return Event.of("play_set", player=name, cards=cards)
    playable = [c for c in hand if c in CACTUS_ACTIONS and c != "nope"]
    if playable and rng.random() < 0.7:
        event = _action(state, actor, rng.choice(playable), rng)
        if RULES.check(state, event) is None:
            return event
    if need_shuffle:
        return _shuffle(state, rng)
    return Event.of("draw", player=name, count=3 if state.started_empty else 1)


def _shuffle(state: CactusState, rng: random.Random) -> Event:
    order = list(state.discard)
    rng.shuffle(order)
    return Event.of("shuffle", order=order)


def play_game(players: list[str], seed: int, max_events: int = 5000) -> Game[CactusState]:
    """A whole game by bots; the same seed gives the same log."""
    rng = random.Random(seed)
    game = start(players, rng)
    while not game.state.finished and len(game) < max_events:
        game.apply(next_event(game.state, rng))
    return game
