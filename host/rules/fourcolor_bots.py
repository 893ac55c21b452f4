"""Simple Four Color Cards players: enough to play whole sessions through the referee.

They exist for tests, benchmarks and demos. All randomness comes from the ``random.Random``
passed in, so a seed replays the same session.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from host.rules.base import Event, Game
from host.rules.fourcolor import (
    RULES,
    Claim,
    State,
    full_deck,
    legal_claims,
    score_hand,
)
from host.rules.fourcolor_combos import GENERAL, piece
from host.rules.fourcolor_split import best_split


def choose_discard(hand: Sequence[str], rng: random.Random) -> str:
    """A card that fits no combination if there is one, else any card; never a general."""
    allowed = [c for c in hand if piece(c) != GENERAL]
    loose = [c for c in best_split(hand).leftover if piece(c) != GENERAL]
    return rng.choice(loose or allowed)


def choose_claims(state: State, rng: random.Random, bluff: float = 0.05) -> list[Claim]:
    """Every player's claim on the card on offer (possibly none).

    Each calls hu when it reaches the threshold (and now and then, with probability
    ``bluff``, when it does not: a false hu); otherwise takes kongs and pongs mostly, chi
    sometimes, and a drawer always takes a drawn general.
    """
    offer = state.offer
    assert offer is not None
    claims = []
    for player in state.players:
        options = legal_claims(state, player)
        if not options:
            continue
        seat = state.seat(player)
        forced = offer.source == "turn" and offer.seat == seat and piece(offer.card) == GENERAL
        by_kind = {c.kind: c for c in options}
        choice: Claim | None = None
        if "hu" in by_kind:
            score = score_hand(
                state.hands[seat],
                state.exposed[seat],
                win_card=offer.card,
                win_from="self" if offer.source == "turn" and offer.seat == seat else "other",
                threshold=state.options.threshold,
            )
            if score.meets_threshold or rng.random() < bluff:
                choice = by_kind["hu"]
        if choice is None:
            pongs = [c for c in options if c.kind in ("kong", "pong")]
            chis = [c for c in options if c.kind == "chi"]
            if pongs and rng.random() < 0.7:
                choice = rng.choice(pongs)
            elif chis and (forced or rng.random() < 0.3):
                choice = rng.choice(chis)
            elif forced:
                choice = options[0]
        if choice is not None:
            claims.append(choice)
    return claims


def next_deck(state: State, rng: random.Random) -> list[str]:
    """The next hand's deck: the cards used this hand, shuffled, under the unused ones."""
    used = Counter(full_deck())
    used.subtract(state.deck)
    pile = list(used.elements())
    rng.shuffle(pile)
    return [*state.deck, *pile]


def next_event(state: State, rng: random.Random, bluff: float = 0.05) -> Event:
    """What the bots do next in this state."""
    if state.phase == "discard":
        player = state.players[state.current]
        return Event.of("discard", player=player, card=choose_discard(state.hand_of(player), rng))
    if state.phase == "respond":
        claims = choose_claims(state, rng, bluff)
        if not claims:
            return Event.of("pass")
        return Event.of("claim", claims=[c.to_json() for c in claims])
    if state.phase == "draw":
        if not state.deck:
            return Event.of("drawn")
        return Event.of("turn", player=state.players[state.current])
    if state.phase == "over":
        return Event.of("deal", deck=next_deck(state, rng))
    raise ValueError("the session is over")


def play_session(
    players: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    max_events: int = 20_000,
    bluff: float = 0.05,
) -> Game[State]:
    """A whole session played by bots from a seeded shuffle (``bluff``: see choose_claims)."""
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    game = Game.start(RULES, players=list(players), options=options or {}, deck=deck)
    for _ in range(max_events):
        if game.state.finished:
            return game
        game.apply(next_event(game.state, rng, bluff))
    raise RuntimeError(f"the session did not end within {max_events} events")
