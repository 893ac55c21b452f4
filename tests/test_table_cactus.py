"""The Cactus adapter on a real discard pile: older cards are covered, yet plays are seen."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from host.table.adapter import NeedsInput
from host.table.cactus import CactusAdapter
from host.table.reads import FrameRead
from host.table.stable import Stabiliser, TableView

PLAYERS = ["ann", "bob"]


def card(label: str, x: float, y: float, w: float = 40, h: float = 56) -> dict[str, Any]:
    quad = [
        (x - w / 2, y - h / 2),
        (x + w / 2, y - h / 2),
        (x + w / 2, y + h / 2),
        (x - w / 2, y + h / 2),
    ]
    return {"label": label, "confidence": 0.99, "quad": quad}


def look(stab: Stabiliser, objects: list[dict[str, Any]], frames: int = 3) -> TableView:
    view = None
    for _ in range(frames):
        view = stab.feed(FrameRead.model_validate({"objects": objects}))
    assert view is not None
    return view


def state(discard: list[str]) -> Any:
    hands = [["nope"], []]
    return SimpleNamespace(
        discard=discard, pending=None, finished=False, players=PLAYERS, turn=0, hands=hands
    )


def test_a_second_copy_played_over_a_covered_first_is_seen() -> None:
    adapter, stab = CactusAdapter(PLAYERS), Stabiliser()
    game = state(["ace", "walter", "charlie"])  # an earlier set: only its charlie still shows
    before = adapter.facts(look(stab, [card("charlie", 500, 375)]))
    assert stab.view().stable
    laid = [card("ace", 530, 380), card("walter", 560, 385), card("wild", 590, 390)]
    look(stab, laid)  # charlie now covered: the tracker forgets it
    after = adapter.facts(look(stab, laid))
    assert after["discard"] == ["ace", "walter", "wild"]
    events = adapter.watch(game, after, before)
    assert [(e.type, e.data["player"], e.data["cards"]) for e in events] == [
        ("play_set", "ann", ["ace", "walter", "wild"])
    ]
    # Without an earlier look only the count tells: the ace and walter show no surplus.
    with pytest.raises(NeedsInput, match="played wild"):
        adapter.watch(game, after, None)
    # Looked at again with nothing changed: no play twice.
    assert (
        adapter.watch(state(["ace", "walter", "charlie", "ace", "walter", "wild"]), after, after)
        == []
    )


def test_a_card_found_again_after_a_hand_passes_is_no_play() -> None:
    adapter, stab = CactusAdapter(PLAYERS), Stabiliser()
    game = state(["ace"])
    before = adapter.facts(look(stab, [card("ace", 500, 375)]))
    stab.feed(FrameRead(hand=True))
    look(stab, [], frames=2)  # the hand's shadow: the ace is lost and forgotten
    after = adapter.facts(look(stab, [card("ace", 506, 371)]))
    assert after["pile"][0]["id"] != before["pile"][0]["id"]  # a new id for the same card
    assert adapter.watch(game, after, before) == []


def test_a_correction_is_no_play() -> None:
    adapter, stab = CactusAdapter(PLAYERS), Stabiliser()
    game = state(["ace"])
    view = look(stab, [card("walter", 500, 375)])  # misread
    before = adapter.facts(view)
    stab.correct(view.objects[0].id, "ace")
    after = adapter.facts(stab.view())
    assert after["discard"] == ["ace"]
    assert adapter.watch(game, after, before) == []
