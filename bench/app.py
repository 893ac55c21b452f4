"""Frame-to-dashboard latency (bench/results/app.json).

A replay feeds frames into a running table at camera pace while a WebSocket client, like the
dashboard, listens on the real server (uvicorn on a local port). For every frame pushed we
take the time from ``Table.feed`` being called to the client having parsed the snapshot that
carries that frame's number: referee work + JSON + the socket, i.e. what a viewer waits for
beyond vision's own reading time (measured by bench/vision.py).
"""

from __future__ import annotations

import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

FRAMES = 300
FPS = 15
TILES = 32


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _game() -> tuple[str, dict[str, Any]]:
    """A real engine when one is installed; the tests' stand-in until then."""
    from host.rules import registry

    for game in ("rummikub", "cactus", "allin", "fourcolor"):
        try:
            module = __import__(registry.ENGINES[game], fromlist=["RULES"])
            if hasattr(module, "RULES") and hasattr(module, "summary"):
                return game, {}
        except ImportError:
            continue
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from host.table import adapter

    registry.ENGINES["tally"] = "tally"
    adapter.ADAPTERS["tally"] = "tally"
    return "tally", {"target": 1000}


def _layout() -> list[dict[str, Any]]:
    from host.demo.layout import quad

    return [
        {
            "label": f"{'krbo'[i % 4]}{i % 13 + 1}",
            "confidence": 0.97,
            "quad": quad(110 + 52 * (i % 16), 300 + 100 * (i // 16), 50, 70),
        }
        for i in range(TILES)
    ]


def _measure(game: str, options: dict[str, Any], frames: int, fps: float,
             make_read: Callable[[int], tuple[Any, Any]]) -> dict[str, Any]:  # fmt: skip
    """Latency from the moment a frame is taken to the moment a dashboard client has it."""
    import uvicorn
    from websockets.sync.client import connect

    from host.api.app import create_app
    from host.device import FakeDevice
    from host.referee import Table
    from host.settings import Settings
    from host.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), port=_free_port())
        table = Table(Store(settings.db_path), FakeDevice())
        sid = table.store.create_session("bench", ["ann", "bob", "cy", "dee"])
        table.start_game(sid, game, options)
        server = uvicorn.Server(
            uvicorn.Config(create_app(settings, table), port=settings.port, log_level="error")
        )
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.02)
        sent: dict[int, float] = {}
        received: dict[int, float] = {}
        with connect(f"ws://127.0.0.1:{settings.port}/api/ws") as ws:
            ws.recv()  # hello

            def listen() -> None:
                while True:
                    try:
                        message = json.loads(ws.recv())
                    except Exception:
                        return
                    frame = (message.get("snapshot") or {}).get("frame")
                    if frame is not None and frame not in received:
                        received[frame] = time.perf_counter()

            threading.Thread(target=listen, daemon=True).start()
            for index in range(frames):
                sent[index] = time.perf_counter()
                read, image = make_read(index)
                table.feed(read.model_copy(update={"frame": index}), image)
                time.sleep(max(0.0, 1 / fps - (time.perf_counter() - sent[index])))
            time.sleep(0.5)
        server.should_exit = True
    latencies = [(received[i] - sent[i]) * 1000 for i in sent if i in received]
    return {
        "frames": frames,
        "fps": fps,
        "objects_per_frame": TILES,
        "delivered": len(latencies),
        "latency_ms": {
            "p50": round(statistics.median(latencies), 2),
            "p99": round(_pct(latencies, 0.99), 2),
            "max": round(max(latencies), 2),
        },
    }


def run() -> dict[str, Any]:
    from host.table.reads import FrameRead

    game, options = _game()
    read = FrameRead.model_validate({"objects": _layout()})
    result: dict[str, Any] = {
        "game": game,
        "referee_to_dashboard": {
            "what": "a vision read fed to the table -> snapshot parsed by a WebSocket client "
            "of the real server (referee, JSON, socket)",
            **_measure(game, options, FRAMES, FPS, lambda i: (read, None)),
        },
    }
    from host.demo.render import Renderer, vision_decks

    if game == "rummikub" and "rummikub" in vision_decks():
        from host.camera_feed import reader_for

        image = Renderer("rummikub", 1).render(_layout())
        reader = reader_for("rummikub")
        reader(image)  # warm-up
        result["camera_to_dashboard"] = {
            "what": "a camera frame (1000x750) read by the vision pipeline, fed to the table "
            "-> snapshot parsed by a WebSocket client",
            **_measure(game, options, 60, 4, lambda i: (reader(image), image)),
        }
    result["demo_reads"] = _demo_reads()
    return result


def _demo_reads() -> dict[str, Any]:
    """What vision reads in `tableref demo` (seed 7): per game, who read the frames, whether
    the scores matched the ground truth, and vision's own share of the objects (ReadStats)."""
    from host.api.app import build_table
    from host.demo.night import play_night
    from host.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        table = build_table(Settings(data_dir=Path(tmp), device="none"))
        games = play_night(table, seed=7)
    return {
        g["game"]: {"read_by": g["read_by"], "matches": g["matches"], "vision": g["vision"],
                    "seconds": g["seconds"]}
        for g in games
    }  # fmt: skip
