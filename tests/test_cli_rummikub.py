"""The command-line contract of ``tableref check|score|hint rummikub`` (issue 3)."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run


def test_check_json_shape_and_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "rummikub", "r3 r4 J r6", "b3 r3 DJ", "--json")
    assert code == 0
    assert json.loads(out) == {
        "valid": True,
        "value": 30,
        "sets": [
            {
                "tiles": ["r3", "r4", "J", "r6"],
                "valid": True,
                "kind": "run",
                "value": 18,
                "awaiting_mirror": False,
                "jokers": [{"tile": "J", "stands_for": ["r5"]}],
                "reason": None,
            },
            {
                "tiles": ["b3", "r3", "DJ"],
                "valid": True,
                "kind": "group",
                "value": 12,
                "awaiting_mirror": False,
                "jokers": [{"tile": "DJ", "stands_for": ["k3", "o3"]}],
                "reason": None,
            },
        ],
    }


def test_check_any_invalid_exits_1_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "rummikub", "r4 r5 r5", "o2 DJ o5")
    assert code == 1
    assert "✗ r4 r5 r5: r5 appears twice in the run r4 r5 r5" in out
    assert "✓ run o2 DJ o5, value 14 (DJ = o3 o4)" in out
    code, out, _ = run(capsys, "check", "rummikub", "r4 r5 r5", "--json")
    result = json.loads(out)
    assert code == 1 and result["valid"] is False
    assert result["sets"][0]["kind"] is None
    assert result["sets"][0]["reason"] == "r5 appears twice in the run r4 r5 r5"


def test_check_mirror_awaiting(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "rummikub", "b4 MJ b4 b3", "--json")
    assert code == 0 and json.loads(out)["sets"][0]["awaiting_mirror"] is True


def test_check_initial_needs_30(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "rummikub", "--initial", "r7 r8 r9", "--json")
    assert code == 1 and json.loads(out)["value"] == 24 and json.loads(out)["valid"] is False
    code, _, _ = run(capsys, "check", "rummikub", "--initial", "r7 r8 r9", "k2 r2 b2")
    assert code == 0
    code, out, _ = run(
        capsys, "check", "rummikub", "--initial", "--mirror-value", "zero", "b9 MJ b9", "--json"
    )
    assert code == 1 and json.loads(out)["value"] == 18


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "rummikub", "r4 x5 r6"], "unknown card 'x5' for Rummikub with a Twist"),
        (["check", "rummikub", "r7 r8 r9", "r7 b7 k7", "r7 o7 J"], "3× 'r7' cannot exist"),
        (["check", "rummikub", ""], "an empty set"),
        (["score", "rummikub", "ann", "bob=r3"], "expected NAME=RACK"),
        (["score", "rummikub", "ann=k1", "bob=r3"], "exactly one player must have an empty rack"),
        (["hint", "rummikub", "--table", "r4 r5 r5", "--rack", "k1"], "table set 1"),
        (["hint", "rummikub", "--rack", "k1", "--goal", "fun"], "--goal must be"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "rummikub", "ann=", "bob=r3 J", "cy=k13", "--json")
    assert code == 0
    assert json.loads(out) == {"winner": "ann", "scores": {"ann": 46, "bob": -33, "cy": -13}}


def test_score_pool_empty(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "rummikub", "ann=k9", "bob=r3 r4", "--pool-empty")
    assert code == 0
    assert "winner: bob" in out and "ann: -2" in out and "bob: +2" in out


def test_hint_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "hint",
        "rummikub",
        "--table",
        "k4 r4 o4 b4",
        "--table",
        "b7 b8 b9",
        "--rack",
        "b3 b5 b6 k12",
        "--json",
    )
    result = json.loads(out)
    assert code == 0 and result["play"] is True
    assert sorted(result["played"]) == ["b3", "b5", "b6"]
    assert result["tiles_placed"] == 3 and result["complete"] is True


def test_hint_initial_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", "rummikub", "--rack", "r10 r11 r12 k1", "--initial")
    assert code == 0
    assert out.splitlines()[0] == "play 3 tile(s): r10 r11 r12"
