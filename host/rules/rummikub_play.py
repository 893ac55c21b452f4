"""Seeded helpers that *play* Rummikub: shuffles, simple bots and random table positions.

Randomness comes only from the ``random.Random`` passed in, so a seed replays the same game.
Used by the tests (bots playing whole games through the referee) and by the benchmark
(positions for the hint search and rummikub-solver).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from host.rules.base import Event, Game
from host.rules.notation import BOX, RUMMIKUB_COLOURS
from host.rules.rummikub import RULES, RummikubState, find_hint
from host.rules.rummikub_sets import check_set


def shuffled_pool(rng: random.Random, *, standard: bool = False) -> list[str]:
    """Every tile of the box (Twist: 112; ``standard``: 104 numbered + 2 regular jokers)."""
    special = ("DJ", "CJ", "MJ")
    tiles = [
        t for t, n in BOX["rummikub"].items() for _ in range(n) if not (standard and t in special)
    ]
    rng.shuffle(tiles)
    return tiles


def new_game(rng: random.Random, players: Sequence[str], **options: Any) -> Game[RummikubState]:
    return Game.start(RULES, players=list(players), pool=shuffled_pool(rng), options=options)


def bot_event(
    state: RummikubState, rng: random.Random, *, steps: int = 3000, mistakes: float = 0.05
) -> Event:
    """A simple player's next event: the hint's play (no rearranging), or a draw.

    Now and then (``mistakes``) it runs out of time instead, with an unfinished table or
    having touched nothing, so the time-up rules get exercised too.
    """
    player = state.current
    index = state.players.index(player)
    rack = state.racks[index]
    roll = rng.random()
    if roll < mistakes / 2:
        return Event.of("time_up", player=player)
    if roll < mistakes and state.table:
        broken = [list(s) for s in state.table]
        broken[0] = broken[0][:2]  # leave a two-tile set: never legal
        broken.append([rack[0]])
        return Event.of("time_up", player=player, table=broken)
    hint = find_hint(
        state.table,
        rack,
        initial=not state.opened[index],
        mirror_value=state.options.mirror_value,
        budget_s=60.0,
        max_steps=steps,
        rearrange=rng.random() < 0.2,
    )
    if hint.played:
        return Event.of(
            "play", player=player, table=[list(s) for s in hint.table], tiles=list(hint.played)
        )
    return Event.of("draw", player=player)


def play_out(game: Game[RummikubState], rng: random.Random, max_events: int = 2000) -> int:
    """Let bots play until the game ends; the number of events applied."""
    applied = 0
    while not game.state.finished:
        if applied >= max_events:
            raise RuntimeError(f"the game did not end within {max_events} events")
        game.apply(bot_event(game.state, rng))
        applied += 1
    return applied


def random_position(
    rng: random.Random, *, table_sets: int = 10, rack_size: int = 14, standard: bool = True
) -> tuple[list[list[str]], list[str]]:
    """A table of ``table_sets`` random valid sets and a rack drawn from what is left.

    Sets are runs (3–6 tiles) and groups (3–4 tiles) of free tiles, now and then holding a
    regular joker (and in the Twist box a special one), as a table looks mid-game.
    """
    pool = shuffled_pool(rng, standard=standard)
    free = {t: pool.count(t) for t in set(pool)}
    table: list[list[str]] = []
    attempts = 0
    while len(table) < table_sets and attempts < 10_000:
        attempts += 1
        candidate = _random_set(rng, standard)
        need: dict[str, int] = {}
        for t in candidate:
            need[t] = need.get(t, 0) + 1
        if all(free.get(t, 0) >= k for t, k in need.items()) and check_set(candidate).valid:
            for t, k in need.items():
                free[t] -= k
            table.append(candidate)
    rack: list[str] = []
    for t in pool:  # the rack: the next free tiles in the shuffled pool's order
        if len(rack) < rack_size and free[t] > 0:
            free[t] -= 1
            rack.append(t)
    return table, rack


def _random_set(rng: random.Random, standard: bool) -> list[str]:
    colour = rng.choice(RUMMIKUB_COLOURS)
    if rng.random() < 0.5:
        length = rng.randint(3, 6)
        start = rng.randint(1, 14 - length)
        tiles = [f"{colour}{n}" for n in range(start, start + length)]
    else:
        number = rng.randint(1, 13)
        colours = rng.sample(RUMMIKUB_COLOURS, rng.randint(3, 4))
        tiles = [f"{c}{number}" for c in colours]
    if rng.random() < 0.15:
        tiles[rng.randrange(len(tiles))] = "J"
    if not standard and rng.random() < 0.1:
        special = rng.choice(("CJ", "MJ"))
        if special == "MJ" and len(tiles) >= 3 and tiles[0][0] == tiles[1][0] != "J":
            head = tiles[:2]
            tiles = [*head, "MJ", *reversed(head)]
        elif special == "CJ":
            tiles = [*tiles, "CJ"]
    return tiles
