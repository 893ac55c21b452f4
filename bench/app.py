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
from pathlib import Path
from typing import Any

FRAMES = 300
FPS = 15
TILES = 24


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


def run() -> dict[str, Any]:
    import uvicorn
    from websockets.sync.client import connect

    from host.api.app import create_app
    from host.device import FakeDevice
    from host.referee import Table
    from host.settings import Settings
    from host.store import Store
    from host.table.reads import FrameRead

    game, options = _game()
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
        ws = connect(f"ws://127.0.0.1:{settings.port}/api/ws")
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

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        from host.demo.layout import quad

        objects = [
            {
                "label": f"{'krbo'[i % 4]}{i % 13 + 1}",
                "confidence": 0.97,
                "quad": quad(70 + 40 * (i % 20), 326 + 60 * (i // 20), 38, 52),
            }
            for i in range(TILES)
        ]
        read = FrameRead.model_validate({"objects": objects})
        for index in range(FRAMES):
            frame = read.model_copy(update={"frame": index})
            sent[index] = time.perf_counter()
            table.feed(frame)
            time.sleep(1 / FPS)
        time.sleep(0.5)
        ws.close()
        server.should_exit = True
    latencies = [(received[i] - sent[i]) * 1000 for i in sent if i in received]
    return {
        "what": "frame fed to the table -> snapshot parsed by a WebSocket client (real server)",
        "game": game,
        "frames": FRAMES,
        "fps": FPS,
        "objects_per_frame": TILES,
        "delivered": len(latencies),
        "latency_ms": {
            "p50": round(statistics.median(latencies), 2),
            "p99": round(_pct(latencies, 0.99), 2),
            "max": round(max(latencies), 2),
        },
    }
