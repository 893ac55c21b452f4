"""Cactus Game engine throughput: whole bot games folded and replayed from their JSON logs."""

from __future__ import annotations

import time
from typing import Any

from host.rules.base import Game, events_from_jsonl
from host.rules.cactus import RULES
from host.rules.cactus_bot import play_game

GAMES = 200


def measure() -> dict[str, Any]:
    logs = [play_game(["a", "b", "c", "d"], seed).to_jsonl() for seed in range(GAMES)]
    events = sum(len(log.splitlines()) for log in logs)
    started = time.perf_counter()
    for log in logs:
        Game(RULES, events_from_jsonl(log))
    seconds = time.perf_counter() - started
    return {
        "games": GAMES,
        "events": events,
        "replay_events_per_s": round(events / seconds),
        "replay_ms_per_game": round(1000 * seconds / GAMES, 2),
    }
