"""``tableref check cactus``: a played set's verdict, for people and as JSON."""

from __future__ import annotations

import pytest
from cli_helpers import tableref


def test_valid_set_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "check", "cactus", "ace ace wild", "--json")
    assert r.code == 0
    assert r.json() == {"valid": True, "character": "ace", "points": 2, "reason": None}


def test_separate_words_and_people_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "check", "cactus", "wild", "wild", "wild")
    assert r.code == 0 and r.out.strip() == "valid: three wild, 3 score cards"


def test_invalid_set_exits_1_with_the_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = tableref(capsys, monkeypatch, "check", "cactus", "charlie ace wild", "--json")
    assert r.code == 1
    assert r.json() == {
        "valid": False,
        "character": None,
        "points": 0,
        "reason": "invalid: charlie and ace are different characters (charlie ace wild)",
    }


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("charly ace ace", "unknown card 'charly' for Cactus Game"),
        ("wild wild wild wild", "4× 'wild'"),
    ],
)
def test_bad_cards_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cards: str, message: str
) -> None:
    r = tableref(capsys, monkeypatch, "check", "cactus", cards)
    assert r.code == 2 and message in r.err
