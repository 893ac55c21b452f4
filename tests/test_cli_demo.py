"""``tableref demo``: real results, the same for the same seed."""

from __future__ import annotations

import pytest
from cli_helpers import tableref


def test_demo_scores_the_book_and_replays_two_bot_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "demo")
    assert r.code == 0
    assert "pot 7: Dan +3, Phil +3; 1 carried to the next round" in r.out
    assert "== All In: a 4-player game by seeded bots" in r.out
    assert "== Cactus Game: a 3-player game" in r.out and r.out.count("winner: ") == 2


def test_demo_json_is_deterministic(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tableref(capsys, monkeypatch, "demo", "--seed", "11", "--json").json()
    again = tableref(capsys, monkeypatch, "demo", "--seed", "11", "--json").json()
    assert first == again
    assert first["allin_showdown"]["pot"] == {
        "size": 7,
        "shares": {"Dan": 3, "Phil": 3},
        "carry": 1,
    }
    assert first["allin_game"]["finished"] and len(first["allin_game"]["rounds"]) >= 3
    cactus = first["cactus_game"]
    assert cactus["finished"] and cactus["scores"][cactus["winner"]] >= cactus["target"]
