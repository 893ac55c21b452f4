"""``tableref replay``: any game's JSON-lines log back to its scores and winner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import tableref

from host.rules import allin_bot, cactus_bot
from host.rules.summary import summarize


@pytest.fixture
def cactus_log(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    game = cactus_bot.play_game(["ann", "bob", "cy"], seed=3)
    path = tmp_path / "cactus.jsonl"
    path.write_text(game.to_jsonl(), encoding="utf-8")
    return path, summarize(game)


def test_replay_json_is_the_engine_summary(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    cactus_log: tuple[Path, dict[str, object]],
) -> None:
    path, summary = cactus_log
    r = tableref(capsys, monkeypatch, "replay", str(path), "--json")
    assert r.code == 0
    result = r.json()
    assert result.pop("events") == len(path.read_text().splitlines())
    assert result == summary and result["finished"] is True and result["winner"]


def test_replay_for_people_and_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = allin_bot.play_game(["ann", "bob"], seed=5)
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(game.to_jsonl()))
    r = tableref(capsys, monkeypatch, "replay", "-")
    assert r.code == 0
    assert r.out.startswith(f"All In: 2 players, {len(game)} events")
    assert f"winner: {game.state.winner}" in r.out


def test_unfinished_game_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = cactus_bot.play_game(["ann", "bob"], seed=1)
    path = tmp_path / "part.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in game.to_json()[:5]))
    r = tableref(capsys, monkeypatch, "replay", str(path), "--json")
    assert r.json()["finished"] is False and r.json()["winner"] is None
    assert "game in progress" in tableref(capsys, monkeypatch, "replay", str(path)).out


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type": "setup", "game": "chess"}'], "unknown game 'chess'"),
        (['{"type": "setup", "game": "cactus", "players": ["a", "b"]', ""], "line 1: not JSON"),
        (['{"type": "play", "player": "a"}'], "must start with a 'setup' event"),
    ],
)
def test_bad_logs_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    lines: list[str],
    message: str,
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines))
    r = tableref(capsys, monkeypatch, "replay", str(path))
    assert r.code == 2 and message in r.err


def test_an_illegal_event_names_its_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    cactus_log: tuple[Path, dict[str, object]],
) -> None:
    path, _ = cactus_log
    lines = path.read_text().splitlines()
    lines.insert(1, json.dumps({"type": "draw", "player": "cy"}))
    path.write_text("\n".join(lines))
    r = tableref(capsys, monkeypatch, "replay", str(path))
    assert r.code == 2 and "event 1 (draw) is not legal: it is ann's turn, not cy's" in r.err


def test_missing_file_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "replay", "/nonexistent/log.jsonl")
    assert r.code == 2 and "no such log file" in r.err
