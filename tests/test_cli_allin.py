"""``tableref score allin``: the rule book's example end to end, options, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_helpers import tableref

BOOK = ["P1=4c 5m 6b 7t 8c", "P2=Ac 2m 3b 4t 5c", "P3=Kc Km Kb 2t 9m"]
VOTES = ["--predict", "P1=P2", "--predict", "P2=P1", "--predict", "P3=P1"]


def test_book_example_through_the_console_script() -> None:
    # A real process, as a user types it: pot 7, two straights and a three of a kind.
    cmd = [sys.executable, "-m", "host", "score", "allin", "--pot", "7", *VOTES, *BOOK, "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["best"] == "P1" and result["order"] == ["P1", "P2", "P3"]
    assert result["pot"] == {"size": 7, "shares": {"P2": 3, "P3": 3}, "carry": 1}
    runes = {
        p["name"]: (p["hand"], p["value"], p["rune_cards"], p["runes"]) for p in result["players"]
    }
    assert runes == {
        "P1": ("straight", 4, 0, 4),
        "P2": ("straight", 4, 0, 4),
        "P3": ("three_of_a_kind", 3, 0, 3),
    }


def test_book_example_for_people(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "score", "allin", "--pot", "7", *VOTES, *BOOK)
    assert r.code == 0
    assert "1. P1" in r.out and "straight (8c 7t 6b 5m 4c): 4 runes" in r.out
    assert "best hand: P1" in r.out
    assert "pot 7: P2 +3, P3 +3; 1 carried to the next round" in r.out


def test_no_predictions_no_pot_and_rune_cards_count(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(
        capsys, monkeypatch, "score", "allin", "a=R R Ac Am 2b", "b=2c 3m 4b 5t 7c", "--json"
    )
    result = r.json()
    assert "pot" not in result and result["best"] == "a"
    assert result["players"][0] == {
        "name": "a",
        "cards": ["R", "R", "Ac", "Am", "2b"],
        "hand": "pair",
        "pattern": ["Ac", "Am"],
        "value": 1,
        "rune_cards": 2,
        "runes": 5,
    }


def test_side_suits_and_standard_deck_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = ["s=4c 5m 6b 7t 8c", "f=2c 2m 2b 3t 3c"]
    assert tableref(capsys, monkeypatch, "score", "allin", *hands, "--json").json()["best"] == "f"
    side_b = tableref(capsys, monkeypatch, "score", "allin", "--side", "B", *hands, "--json").json()
    assert side_b["best"] == "s" and side_b["players"][0]["value"] == 6
    pairs = ["x=Kc Km 2b 3t 4c", "y=Kb Kt Ac Qm Jb"]
    assert tableref(capsys, monkeypatch, "score", "allin", *pairs, "--json").json()["best"] == "x"
    flipped = tableref(capsys, monkeypatch, "score", "allin", "--suits", "tbmc", *pairs, "--json")
    assert flipped.json()["best"] == "y"
    std = tableref(
        capsys,
        monkeypatch,
        "score",
        "allin",
        "--deck",
        "standard",
        "a=AS KS QS JS 10S",
        "b=X 2H 2D 5C 9C",
        "--json",
    ).json()
    assert std["players"][0]["cards"][0] == "Ac" and std["players"][0]["hand"] == "straight_flush"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["a=2c 3c 4c 5c 1x"], "unknown card '1x'"),
        (["a=2c 3c 4c 5c 6c", "b=2c 3m 4m 5m 6m"], "2c is shown 2 times (a, b)"),
        (["a=2c 3c 4c 5c"], "a: an All In hand is 5 cards, got 4"),
        (["a 2c 3c 4c 5c 6c"], "is not of the form NAME=CARDS"),
        (["a=2c 3c 4c 5c 6c", "a=2m 3m 4m 5m 6m"], "a is given twice"),
        (["--predict", "a=zed", "a=2c 3c 4c 5c 6c"], "'zed' shows no hand"),
        (["--side", "C", "a=2c 3c 4c 5c 6c"], "--side must be A or B"),
        (["--suits", "cmbx", "a=2c 3c 4c 5c 6c"], "unknown suit 'x'"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    r = tableref(capsys, monkeypatch, "score", "allin", *args)
    assert r.code == 2 and r.out == ""
    assert r.err.startswith("error: ") and message in r.err
