"""``tableref demo``: a recorded game night, refereed, stored and served.

One game of each kind (every engine installed), each a seeded bot session turned into a table
script: what the camera sees (read by the vision pipeline where vision knows the deck, else
the rendered ground truth), the device's buttons and timer (the simulated device), and entries
by hand for what no camera could know. The referee stores everything in SQLite while the
dashboard serves it live; at the end each game's scores are printed beside the ground truth's.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from host.demo.render import SceneReader, vision_decks
from host.demo.scripts import tally_sources
from host.referee import Table
from host.script import ScriptPlayer, Step
from host.settings import Settings

Night = Callable[[list[str], int], tuple[list[Step], dict[str, Any]]]


@dataclass(frozen=True)
class DemoGame:
    game: str
    players: list[str]
    script: str  # "module:function" making (steps, expected) from (players, seed)


GAMES = (
    DemoGame("rummikub", ["Ann", "Bob", "Cleo"], "host.demo.scripts:rummikub_night"),
    DemoGame("allin", ["Ann", "Bob", "Cleo", "Dan"], "host.demo.scripts:allin_night"),
    DemoGame("fourcolor", ["Ann", "Bob"], "host.demo.scripts:fourcolor_night"),
    DemoGame("cactus", ["Ann", "Bob", "Cleo"], "host.demo.scripts:cactus_night"),
)


def available() -> list[DemoGame]:
    """The demo games whose engine and script maker are installed."""
    from host.rules.registry import ENGINES

    out = []
    for g in GAMES:
        module, name = g.script.split(":")
        try:
            import_module(ENGINES[g.game])
            getattr(import_module(module), name)
        except (ImportError, AttributeError):
            continue
        out.append(g)
    return out


def serve_in_background(settings: Settings, table: Table) -> Any:
    import uvicorn

    from host.api.app import create_app

    server = uvicorn.Server(
        uvicorn.Config(create_app(settings, table), host=settings.host, port=settings.port,
                       log_level="warning")
    )  # fmt: skip
    threading.Thread(target=server.run, name="dashboard", daemon=True).start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    return server


def play_night(
    table: Table,
    seed: int = 7,
    delay: float = 0.0,
    games: list[DemoGame] | None = None,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    vision: bool = True,
) -> list[dict[str, Any]]:
    """Referee every demo game on ``table``; one result per game."""
    results = []
    for demo in games if games is not None else available():
        module, name = demo.script.split(":")
        make: Night = getattr(import_module(module), name)
        game_seed = seed + GAMES.index(demo)  # each game its own shuffle
        steps, expected = make(demo.players, game_seed)
        started = time.perf_counter()
        see = None
        if vision and demo.game in vision_decks():
            see = SceneReader(demo.game, game_seed)  # frames rendered and read by vision
        player = ScriptPlayer(table, steps, see=see)
        referee = player.play(delay=delay)
        summary = referee.summary()
        result = {
            "game": demo.game,
            "game_id": referee.game_id,
            "scores": summary.get("scores"),
            "winner": summary.get("winner"),
            "expected": {"scores": expected.get("scores"), "winner": expected.get("winner")},
            "matches": summary.get("scores") == expected.get("scores")
            and summary.get("winner") == expected.get("winner"),
            "steps": len(steps),
            "events_from": tally_sources(steps),
            "errors": player.errors,
            "read_by": "vision"
            if see is not None
            else "the layout's ground truth (vision reads no such deck here yet)",
            "vision": see.stats.to_json() if see is not None else None,
            "seconds": round(time.perf_counter() - started, 2),
        }
        results.append(result)
        if on_game is not None:
            on_game(result)
    return results


def fresh_demo_dir(settings: Settings) -> Path:
    """The demo's own data directory, emptied: a demo never mixes with real game nights."""
    path = settings.data_dir / "demo"
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path
