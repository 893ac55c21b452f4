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
    assert sorted(ref.facts["seats"]["bob"], key=len) == [["gR", "gR", "gR"], hand]
    assert ref.facts["centre"] == ["rR"]
    with pytest.raises(RefereeError, match="name the winner"):
        ref.trigger("hu", {})
    ref.trigger("hu", {"player": "bob", "win_from": "other", "flower": "gR"})
    summary = ref.summary()
    assert summary["finished"] and summary["winner"] == "bob"
    # 15 hu: (15 - 10 + 1) = 6 from each of the two others
    assert summary["scores"] == {"ann": 30 - 6, "bob": 30 + 12, "cat": 30 - 6}
