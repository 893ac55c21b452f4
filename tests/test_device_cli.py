"""``tableref device ...`` and ``tableref firmware ...``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from host.cli import app, main

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


def test_deploy_json_lists_the_same_steps() -> None:
    res = runner.invoke(
        app, ["firmware", "deploy", "--port", "/dev/ttyACM7", "--dry-run", "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["port"] == "/dev/ttyACM7" and out["dry_run"] is True
    assert out["commands"][-1][-1] == "reset" and len(out["commands"]) == 4


def test_a_failed_copy_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(port: str, dry_run: bool = False) -> list[list[str]]:
        raise subprocess.CalledProcessError(1, ["mpremote", "connect", port, "fs", "cp"])

    monkeypatch.setattr("host.link.tools.deploy", broken)
    res = runner.invoke(app, ["firmware", "deploy", "--port", "/dev/null"])
    assert res.exit_code == 1
    assert "error: deploy to /dev/null failed:" in res.output
    assert "returned non-zero exit status 1" in res.output


def test_deploy_to_a_port_that_is_not_there_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["tableref", "firmware", "deploy", "--port", "/dev/nope0"])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert "error: no serial port /dev/nope0 (is the Pico plugged in?)" in capsys.readouterr().err


def test_simulate_refuses_a_png_path_it_cannot_write(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    png = tmp_path / "missing" / "screen.png"
    monkeypatch.setattr("sys.argv", ["tableref", "device", "simulate", "--png", str(png)])
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    assert f"there is no folder {png.parent}" in capsys.readouterr().err
