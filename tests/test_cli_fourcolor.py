"""The contract of ``tableref score fourcolor`` (issue 3)."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run as cli_run

WAITING = "rG rA rE gG gA gE yR yH yC rS gS yS wS gR gR gR wA wA rR rR"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return cli_run(capsys, "score", "fourcolor", *args)


def test_json_contract_for_a_win_on_another_players_card(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "--hand", WAITING, "--win-card", "rR", "--win-from", "other", "--flower", "gR",
        "--json",
    )  # fmt: skip
    assert code == 0
    result = json.loads(out)
    assert {"winning_shape", "hu", "flower_hu", "meets_threshold", "combinations"} <= set(result)
    assert result["winning_shape"] is True
    assert result["flower_hu"] == 3
    assert result["hu"] == 13 + 1 + 3  # the completed pong counts exposed (1), flower 3
    assert result["meets_threshold"] is True
    pong = [c for c in result["combinations"] if c["cards"] == ["rR", "rR", "rR"]]
    assert pong == [{"kind": "pong", "cards": ["rR", "rR", "rR"], "exposed": True, "hu": 1}]
    for combo in result["combinations"]:
        assert set(combo) == {"kind", "cards", "exposed", "hu"}


def test_self_drawn_and_exposed_melds(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "rG rA rE yR yH yC rS gS yS wS rR rR"
    args = ["--hand", hand, "--exposed", "gR gR gR", "--exposed", "wA wA", "--json"]
    code, out, _ = run(capsys, *args, "--win-card", "rR", "--win-from", "self")
    assert code == 0
    result = json.loads(out)
    # exposed pong 1 + exposed pair 0 + 2 + 1 + 5 + self-drawn pong at hand value 3
    assert result["hu"] == 12 and result["meets_threshold"] is True
    assert [c["exposed"] for c in result["combinations"][:2]] == [True, True]
    code, out, _ = run(capsys, *args, "--win-card", "rR", "--self-drawn", "exposed")
    assert json.loads(out)["hu"] == 10


def test_a_hand_judged_as_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--hand", "rG rA rE yS", "--threshold", "2", "--json")
    result = json.loads(out)
    assert code == 0
    assert result["winning_shape"] is False and result["meets_threshold"] is False
    assert result["hu"] == 2 and result["leftover"] == ["yS"]
    code, out, _ = run(capsys, "--hand", "rG rA rE", "--threshold", "2", "--json")
    assert json.loads(out)["meets_threshold"] is True


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--hand", WAITING, "--win-card", "rR")
    assert code == 0
    assert "a winning shape: 14 hu" in out
    assert "collects 5 from every other player" in out
    code, out, _ = run(capsys, "--hand", "rG rA rE gS")
    assert "not a winning shape" in out and "left over: gS" in out
    assert "pays 11 to every other player" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "rG zQ"], "unknown card 'zQ' for Four Color Cards"),
        (["--hand", "rG", "--win-card", "rX"], "unknown card 'rX'"),
        (["--hand", "rC rC rC", "--exposed", "rC rC rC"], "6× 'rC' cannot exist"),
        (["--hand", "yR yR yR yR", "--win-card", "yR"], "5× 'yR' cannot exist"),
        (["--hand", "yR yR yR", "--win-card", "yR", "--flower", "yR"], "5× 'yR'"),
        (["--hand", "rG", "--exposed", "rS rS"], "--exposed 'rS rS' is not a combination"),
        (["--hand", "rG", "--exposed", "rR gH rC"], "must be of one colour"),
        (["--hand", "rG", "--win-from", "self"], "--win-from needs --win-card"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert message in err and err.startswith("error: ")
    assert out == ""


def test_chinese_card_names_are_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--hand", "紅帥 紅仕 紅相", "--exposed", "綠兵 黃卒 白兵", "--json")
    result = json.loads(out)
    assert code == 0 and result["hu"] == 2 + 3
    assert result["combinations"][0]["cards"] == ["gS", "yS", "wS"]


def test_a_negative_threshold_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--hand", "rG", "--threshold", "-1")
    assert code == 2 and "--threshold" in err
