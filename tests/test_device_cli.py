"""``tableref device ...`` and ``tableref firmware ...``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from host.cli import app

runner = CliRunner()


def test_simulate_renders_ascii_and_png(tmp_path: Path) -> None:
    png = tmp_path / "screen.png"
    res = runner.invoke(
        app, ["device", "simulate", "--seconds", "1.2", "--demo", "--png", str(png), "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["port"].startswith("/dev/") and out["redraws"] >= 2
    assert len(out["screen"]) == 64 + 2 and all(len(row) == 128 + 2 for row in out["screen"])
    assert any("#" in row for row in out["screen"])
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_firmware_check_passes() -> None:
    res = runner.invoke(app, ["firmware", "check", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (
        out["ok"]
        and out["compile_errors"] == {}
        and set(out["logic_runs"])
        == {
            "default",
            "160k",
        }
    )


def test_deploy_dry_run_lists_mpremote_steps() -> None:
    res = runner.invoke(app, ["firmware", "deploy", "--port", "/dev/ttyACM7", "--dry-run"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert all("mpremote connect /dev/ttyACM7" in line for line in lines if "mpremote" in line)
    assert any("protocol.mpy" in line and ":firmware/" in line for line in lines)
    assert any(line.endswith("main.py :main.py") for line in lines)
    assert not any("unix_main" in line for line in lines)


@pytest.mark.parametrize("cmd", [["device", "status"], ["firmware", "deploy"]])
def test_no_board_is_a_clear_error(cmd: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("host.link.client.find_pico_port", lambda: None)
    res = runner.invoke(app, cmd)
    assert res.exit_code != 0
    assert "no Pico attached (USB VID 2E8A)" in str(res.exception) + res.output
