"""A simple All In player for demos and property tests: random legal events, seeded.

Randomness comes only from the ``random.Random`` passed in, so a seed replays a whole game.
"""

from __future__ import annotations

import random
from typing import Any

from host.rules.allin import ALL_CARDS, MAX_DRAW, RULES, AllInState
from host.rules.base import Event, Game


def shuffled_deck(rng: random.Random) -> list[str]:
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


def start(players: list[str], rng: random.Random, **options: Any) -> Game[AllInState]:
    return Game.start(RULES, players=players, deck=shuffled_deck(rng), options=options)


def _play_candidates(state: AllInState, actor: int, rng: random.Random) -> list[Event]:
    name = state.players[actor]
    hand = list(state.hands[actor])
    others = [p for i, p in enumerate(state.players) if i != actor and i != state.all_in]
    table = state.uncovered()
    if state.options.enchanted_discard and state.discard:
        table.append(state.discard[-1])
    events = []
    for _ in range(6):
        card = rng.choice(hand)
        rest = [c for c in hand if c != card]
        effects: list[dict[str, Any]] = []
        gained: list[str] = []
        plan = rng.choice(["draw", "take", "reveal", "swap", "rune", "look"])
        if plan == "take" and table:
            pick = rng.choice(table)
            effects.append({"effect": "take", "card": pick})
            gained.append(pick)
        elif plan == "reveal" and len(state.deck) >= 3:
            n = rng.choice([n for n in (3, 4, 5) if n <= len(state.deck)])
            shown = list(state.deck[:n])
            keep = rng.choice(shown)
            order = list(shown)
            order.remove(keep)
            rng.shuffle(order)
            effects.append({"effect": "reveal", "n": n, "keep": keep, "order": order})
            gained.append(keep)
        elif plan == "swap" and table and rest:
            give, pick = rng.choice(rest), rng.choice(table)
            effects.append({"effect": "swap", "give": give, "card": pick})
            rest.remove(give)
            gained.append(pick)
        elif plan == "rune":
            effects.append({"effect": "rune"})
        elif plan == "look" and others:
            target = rng.choice(others)
            if rng.random() < 0.5:
                effects.append({"effect": "hypnosis", "target": target})
            else:
                their = list(state.hands[state.index(target)])
                effects.append({"effect": "eye", "target": target, "shown": rng.sample(their, 4)})
        if len(rest) + len(gained) < 5 and state.deck[len(gained) :]:
            effects.append({"effect": "draw"})
            # the drawn card is the deck's top after any reveal
            skip = effects[0].get("n", 0) if effects[0]["effect"] == "reveal" else 0
            if len(state.deck) > skip:
                gained.append(state.deck[skip])
        hold = rest + gained
        extra = len(hold) - 5
        discard = rng.sample(hold, extra) if extra > 0 else []
        events.append(Event.of("play", player=name, card=card, effects=effects, discard=discard))
    return events


def next_event(state: AllInState, rng: random.Random) -> Event:
    """One legal event for the state (the game must not be over)."""
    if state.phase == "deal":
        return Event.of("deal", deck=shuffled_deck(rng))
    if state.phase == "predict":
        n = len(state.players)
        if n == 2:
            voter = rng.choice([i for i in range(n) if state.predictions[i] is None])
        else:
            voter = state.turn
        return Event.of("predict", player=state.players[voter], target=rng.choice(state.players))
    if len(state.deck) < MAX_DRAW and state.discard:
        order = list(state.discard)
        rng.shuffle(order)
        return Event.of("shuffle", order=order)
    actor = state.turn
    name = state.players[actor]
    if state.all_in == actor:
        return Event.of("pass", player=name)
    roll = rng.random()
    if roll < 0.05 and state.all_in is None:
        return Event.of("all_in", player=name)
    if roll < 0.8:
        for event in _play_candidates(state, actor, rng):
            if RULES.check(state, event) is None:
                return event
    return Event.of("pass", player=name)


def play_game(
    players: list[str], seed: int, max_events: int = 5000, **options: Any
) -> Game[AllInState]:
    """A whole game by bots; the same seed gives the same log."""
    rng = random.Random(seed)
    game = start(players, rng, **options)
    while not game.state.finished and len(game) < max_events:
        game.apply(next_event(game.state, rng))
    return game
