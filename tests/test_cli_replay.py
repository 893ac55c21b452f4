"""``tableref replay``: any game's JSON-lines log back to its scores and winner."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import tableref

from host.rules import allin_bot, cactus_bot, fourcolor_bots, rummikub_play
from host.rules.base import Game
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
        (['{"type": "setup", "game": "cactus"}'], "event 0 (setup) is not legal: setup needs"),
        (
            ['{"type": "setup", "game": "rummikub", "players": ["a", "b"], "options": true}'],
            "options must be an object",
        ),
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


def test_a_tile_of_the_wrong_type_names_its_event(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    events = _rummikub_game().to_json()
    play = next(i for i, e in enumerate(events) if e["type"] == "play")
    events[play]["table"] = [[1, 2, 3]]
    path = tmp_path / "typed.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    r = tableref(capsys, monkeypatch, "replay", str(path))
    assert r.code == 2 and f"event {play} (play) is not legal" in r.err
    assert "must be a token string, got 1" in r.err


def test_a_binary_file_is_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0 not a log")
    r = tableref(capsys, monkeypatch, "replay", str(path))
    assert r.code == 2 and "is not a text log (not UTF-8 at byte 0)" in r.err


def test_missing_file_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "replay", "/nonexistent/log.jsonl")
    assert r.code == 2 and "no such log file" in r.err


def _rummikub_game() -> Game[Any]:
    rng = random.Random(5)
    game = rummikub_play.new_game(rng, ["ann", "bob", "cy"])
    rummikub_play.play_out(game, rng)
    return game


@pytest.mark.parametrize(
    "make_game",
    [
        _rummikub_game,
        lambda: fourcolor_bots.play_session(["ann", "bob", "cy"], seed=2),
        lambda: allin_bot.play_game(["ann", "bob"], seed=4),
        lambda: cactus_bot.play_game(["ann", "bob", "cy"], seed=2),
    ],
    ids=["rummikub", "fourcolor", "allin", "cactus"],
)
def test_every_engine_replays_to_its_summary(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    make_game: Callable[[], Game[Any]],
) -> None:
    game = make_game()
    path = tmp_path / "game.jsonl"
    path.write_text(game.to_jsonl(), encoding="utf-8")
    r = tableref(capsys, monkeypatch, "replay", str(path), "--json")
    assert r.code == 0, r.err
    result = r.json()
    assert result.pop("events") == len(game)
    assert result == summarize(game)
    assert result["finished"] is True
    assert result.get("turn") is None  # nobody is to move in a finished game
    assert set(result["scores"]) == set(result["players"])
