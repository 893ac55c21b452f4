"""Each game's table adapter with its real engine: fake reads in, the engine's scores out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import frame, obj

from host.device import FakeDevice
from host.referee import Referee, RefereeError, Table
from host.rules.notation import split_tokens
from host.store import Store


def _table(tmp_path: Path) -> Table:
    return Table(Store(tmp_path / "t.sqlite3"), FakeDevice())


def _settle(ref: Referee, objects: list[dict[str, Any]]) -> None:
    for _ in range(3):
        ref.feed(frame(*objects))


def row(
    labels: list[str], x: float, y: float, step: float = 34, size: float = 30
) -> list[dict[str, Any]]:
    return [obj(label, x + step * i, y, size=size) for i, label in enumerate(labels)]


# -- Four Color Cards ------------------------------------------------------------------------
BOB_WAITING = split_tokens("rG rA rE gG gA gE yR yH yC rS gS yS wS gR gR gR wA wA rR rR")


def test_fourcolor_hu_read_from_the_winners_zone(tmp_path: Path) -> None:
    table = _table(tmp_path)
    # seat 0 is nearest the camera's bottom edge, the others clockwise
    sid = table.store.create_session("night", ["bob", "ann", "cat"])
    ref = table.start_game(sid, "fourcolor", {"hands": 1})
    hand = list(BOB_WAITING)
    for _ in range(3):
        hand.remove("gR")
    layout = row(hand, 220, 690) + row(["gR", "gR", "gR"], 440, 620) + [obj("rR", 500, 375)]
    _settle(ref, layout)
    assert ref.facts["seats"]["bob"] == {"hand": hand, "exposed": [["gR", "gR", "gR"]]}
    assert ref.facts["centre"] == ["rR"]
    with pytest.raises(RefereeError, match="name the winner"):
        ref.trigger("hu", {})
    ref.trigger("hu", {"player": "bob", "win_from": "other", "flower": "gR"})
    summary = ref.summary()
    assert summary["finished"] and summary["winner"] == "bob"
    # 15 hu: (15 - 10 + 1) = 6 from each of the two others
    assert summary["scores"] == {"ann": 30 - 6, "bob": 30 + 12, "cat": 30 - 6}


def test_fourcolor_hu_at_a_side_seat_reads_rows_along_its_edge(tmp_path: Path) -> None:
    """Four players: the winner sits at the left edge, so their hand and melds lie in rows
    running up and down the image; the hand is the row nearest them."""
    table = _table(tmp_path)
    sid = table.store.create_session("night", ["dan", "bob", "ann", "cat"])
    ref = table.start_game(sid, "fourcolor", {"hands": 1})
    hand = list(BOB_WAITING)
    for _ in range(3):
        hand.remove("gR")
    column = [obj(label, 60, 110 + 32 * i, size=30) for i, label in enumerate(hand)]
    melds = [obj("gR", 170, 330 + 32 * i, size=30) for i in range(3)]
    _settle(ref, column + melds + [obj("rR", 500, 375)])
    assert ref.facts["seats"]["bob"] == {"hand": hand, "exposed": [["gR", "gR", "gR"]]}
    ref.trigger("hu", {"player": "bob", "win_from": "other", "flower": "gR"})
    assert ref.summary()["winner"] == "bob"


def _night(tmp_path: Path, steps: list[dict[str, Any]]) -> tuple[Referee, list[str]]:
    from host.script import ScriptPlayer

    player = ScriptPlayer(_table(tmp_path), steps)
    referee = player.play()
    return referee, player.errors


@pytest.mark.parametrize("seed", [1, 2])
def test_fourcolor_night_from_the_table_matches_the_ground_truth(tmp_path: Path, seed: int) -> None:
    from host.demo.scripts import fourcolor_night

    steps, expected = fourcolor_night(["ann", "bob"], seed, hands=3)
    referee, errors = _night(tmp_path, steps)
    assert errors == []
    assert referee.summary() == expected
    assert sum(1 for s in steps if s.get("trigger") == "hu") >= 1


def test_allin_showdown_hands_the_game_rules_out_are_flagged(tmp_path: Path) -> None:
    from host.demo.scripts import allin_layout
    from host.rules.allin_bot import play_game

    truth = play_game(["ann", "bob", "cy"], 5)
    end = next(i for i in range(1, len(truth)) if truth.state_at(i).results)
    table = _table(tmp_path)
    sid = table.store.create_session("night", ["ann", "bob", "cy"])
    ref = table.start_game(sid, "allin", setup=truth.events[0])
    ref.apply_all(list(truth.events[1 : end + 1]), source="test")
    layout = allin_layout(ref.state)
    _settle(ref, layout)
    assert ref.flags == {}
    shown = ref.state.results[-1].hands[0]
    stranger = next(c for c in ref.state.results[-1].hands[1] if c != "R")
    wrong = [dict(o) for o in layout]
    index = next(i for i, o in enumerate(wrong) if o["label"] == shown[0])
    wrong[index]["label"] = stranger
    _settle(ref, wrong)
    # a second copy of a unique card, and in the wrong hand: both said
    assert set(ref.flags.values()) == {
        f"the box holds 1 × {stranger}, and 2 are read on the table",
        f"{stranger} is not in ann's hand this round",
    }
