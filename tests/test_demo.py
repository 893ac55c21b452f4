"""`tableref demo`: the recorded night is refereed to the ground truth's scores and served."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from typer.testing import CliRunner

from host.cli import app


def test_demo_night_matches_the_ground_truth(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(
        app, ["demo", "--data-dir", str(tmp_path), "--port", str(port), "--delay", "0",
              "--no-stay", "--no-vision", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["games"], "no game was played"
    for game in out["games"]:
        assert game["errors"] == [], game
        assert game["matches"], game
    assert Path(out["store"]).is_file()


def test_demo_is_the_same_night_for_the_same_seed(tmp_path: Path) -> None:
    from host.api.app import build_table
    from host.demo.night import play_night
    from host.settings import Settings

    def night(where: Path) -> list[tuple[str, object]]:
        table = build_table(Settings(data_dir=where, device="none"))
        return [(r["game"], r["scores"]) for r in play_night(table, seed=11, vision=False)]

    assert night(tmp_path / "a") == night(tmp_path / "b")
