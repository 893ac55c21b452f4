"""Crash safety: SIGKILL a replay at random steps, restart, and end where an unbroken run ends."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tally
from helpers import centre_tiles, obj

from host.device import FakeDevice
from host.referee import Table
from host.script import ScriptPlayer, load_script
from host.store import Store

REPO = Path(__file__).resolve().parent.parent

LAUNCH = (
    "import sys; sys.path.insert(0, {tests!r}); import tally;"
    "from host.rules import registry; from host.table import adapter;"
    "registry.ENGINES['tally'] = 'tally'; adapter.ADAPTERS['tally'] = 'tally';"
    "from host.cli import main; sys.argv = ['tableref'] + sys.argv[1:]; main()"
)


def _frames(*objects: dict[str, Any], n: int = 3) -> list[dict[str, Any]]:
    frame = {"objects": list(objects), "width": 1000, "height": 750}
    return [{"frame": {"hand": True}}] + [{"frame": frame}] * n


def write_script(path: Path) -> Path:
    steps: list[dict[str, Any]] = [
        {"start": {"session": "crash", "players": ["ann", "bob", "cy"], "game": "tally",
                   "options": {"target": 200}}},
    ]  # fmt: skip
    rng = random.Random(7)
    for turn in range(9):
        labels = [f"{c}{rng.randint(1, 13)}" for c in rng.sample("krbo", 3)]
        tiles = centre_tiles(*labels)
        if turn == 4:  # an unsure read the dashboard corrects before the turn is done
            tiles[1] = obj(labels[1], 450, 375, conf=0.2, alts=["k1"])
            steps += _frames(*tiles)
            steps.append({"correct": {"at": [450, 375], "label": "k1"}})
        else:
            steps += _frames(*tiles)
        steps.append({"device": "done"})
        if turn == 6:
            steps.append({"undo": True})
            steps.append({"event": {"type": "point", "player": "ann", "points": 5}})
        if turn == 7:
            steps.append({"device": "timer_expired"})
    path.write_text("".join(json.dumps(s) + "\n" for s in steps))
    return path


def _result(data_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    store = Store(data_dir / "tableref.sqlite3")
    (game,) = store.games()
    return [e.to_json() for e in store.events(game.id)], store.game(game.id).summary


def cactus_script(path: Path) -> Path:
    """A whole Cactus game from the demo: the real engine, hundreds of steps."""
    from host.demo.scripts import cactus_night

    steps, _ = cactus_night(["ann", "bob", "cy"], 3)
    path.write_text("".join(json.dumps(s) + "\n" for s in steps))
    return path


@pytest.mark.parametrize("make", [write_script, cactus_script], ids=["stand-in", "cactus"])
def test_sigkill_at_random_steps_then_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: Any
) -> None:
    tally.install(monkeypatch)
    script = make(tmp_path / "night.jsonl")

    # The reference: one uninterrupted run, in process.
    ref_dir = tmp_path / "ref"
    table = Table(Store(ref_dir / "tableref.sqlite3"), FakeDevice())
    player = ScriptPlayer(table, load_script(script))
    player.play()
    assert player.errors == []
    expected = _result(ref_dir)
    assert expected[1] is not None

    steps = len(load_script(script))
    rng = random.Random(int(os.environ.get("CRASH_SEED", "11")))
    kills = sorted(rng.sample(range(2, steps - 1), 3))
    data_dir = tmp_path / "crashy"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", LAUNCH.format(tests=str(REPO / "tests")), "play",
               str(script), "--data-dir", str(data_dir), "--progress", "--json"]  # fmt: skip
    for kill_at in kills:
        child = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                                 text=True, env=env)  # fmt: skip
        assert child.stderr is not None
        for line in child.stderr:
            if line.startswith("step ") and int(line.split()[1]) >= kill_at:
                child.send_signal(signal.SIGKILL)
                break
        child.wait(timeout=60)
        assert child.returncode == -signal.SIGKILL, f"replay ended before step {kill_at}"
    final = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert final.returncode == 0, final.stderr
    assert json.loads(final.stdout)["errors"] == []
    assert _result(data_dir) == expected
