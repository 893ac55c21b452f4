"""The referee core with a stand-in engine: commit-before-show, reads, corrections, timer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tally
from helpers import centre_tiles, frame, obj

from host.device import FakeDevice
from host.referee import Referee, RefereeError, Table
from host.rules.base import Event
from host.store import Store
from host.table.stable import Stabiliser, TableView
from host.table.zones import CENTRE, rows_of_sets, zone_of


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    tally.install(monkeypatch)
    store = Store(tmp_path / "t.sqlite3")
    return Table(store, FakeDevice(), stable_frames=3, clock=Clock())


def _start(table: Table, players: tuple[str, ...] = ("ann", "bob")) -> Referee:
    sid = table.store.create_session("night", list(players))
    return table.start_game(sid, "tally", {"target": 60})


def _settle(ref: Referee, *objects: dict[str, Any]) -> None:
    for _ in range(3):
        ref.feed(frame(*objects))


def test_event_is_committed_before_listeners_and_device_see_it(table: Table) -> None:
    ref = _start(table)
    seen: list[int] = []

    def listener(kind: str, snap: dict[str, Any]) -> None:
        if kind == "event":
            # The store already holds what the listener is being shown.
            seen.append(len(table.store.events(ref.game_id)) - 1)
            assert snap["events"] == seen[-1]

    ref.subscribe(listener)
    ref.apply(Event.of("point", player="ann", points=5))
    assert seen == [1]
    device = table.device
    assert isinstance(device, FakeDevice) and device.state is not None
    assert device.state.scores == {"ann": 5, "bob": 0} and device.state.turn == "bob"


def test_illegal_event_is_refused_and_not_stored(table: Table) -> None:
    ref = _start(table)
    with pytest.raises(RefereeError, match="it is ann's turn, not bob's"):
        ref.apply(Event.of("point", player="bob", points=5))
    assert len(table.store.journal(ref.game_id)) == 1


def test_undo_commits_a_marker_and_restores_state(table: Table) -> None:
    ref = _start(table)
    ref.apply(Event.of("point", player="ann", points=5))
    undone = ref.undo()
    assert undone.type == "point" and ref.summary()["scores"]["ann"] == 0
    assert [j.op for j in table.store.journal(ref.game_id)] == ["event", "event", "undo"]
    with pytest.raises(RefereeError, match="nothing to undo"):
        ref.undo()


def test_resume_rebuilds_the_running_game(table: Table, tmp_path: Path) -> None:
    ref = _start(table)
    ref.apply(Event.of("point", player="ann", points=5))
    ref.apply(Event.of("point", player="bob", points=3))
    ref.undo()
    again = Table(Store(tmp_path / "t.sqlite3"), FakeDevice())
    assert again.resume() == [ref.game_id]
    assert again.referee().summary() == ref.summary()
    assert again.referee().state == ref.state


def test_read_counts_only_after_stable_frames_and_hands_are_ignored(table: Table) -> None:
    ref = _start(table)
    tiles = centre_tiles("r7", "r8", "r9")
    ref.feed(frame(*tiles))
    ref.feed(frame(hand=True))
    ref.feed(frame(*tiles))
    assert not ref.view.stable
    ref.feed(frame(hand=True))
    ref.feed(frame(*tiles))
    assert ref.view.stable and ref.facts == {"centre": ["r7", "r8", "r9"]}
    flicker = [*tiles[:2], obj("r6", 500, 375)]
    ref.feed(frame(*flicker))
    assert not ref.view.stable


def test_done_scores_the_table_and_restarts_the_timer(table: Table) -> None:
    ref = _start(table)
    _settle(ref, *centre_tiles("r7", "r8", "r9"))
    ref.trigger("done")
    assert ref.summary()["scores"] == {"ann": 24, "bob": 0}
    assert ref.timer.deadline is not None
    assert table.store.journal(ref.game_id)[-1].source == "dashboard"


def test_impossible_and_unsure_reads_are_flagged_until_corrected(table: Table) -> None:
    ref = _start(table)
    tiles = [*centre_tiles("r7", "r7", "r7"), obj("k5", 600, 375, conf=0.3, alts=["k6", "k8"])]
    _settle(ref, *tiles)
    assert ref.view.stable
    flags = ref.flags
    assert len(flags) == 2
    assert any("the box holds 2 × r7, and 3 are read" in f for f in flags.values())
    unsure = next(o for o in ref.view.objects if o.label == "k5")
    assert "confidence 0.30" in flags[unsure.id]
    with pytest.raises(RefereeError, match="correct the flagged reads first"):
        ref.trigger("done")
    assert ref.suggestions(unsure.id)[:3] == ["k5", "k6", "k8"]
    assert len(ref.suggestions(unsure.id)) == 56
    ref.correct(unsure.id, "k6")
    dup = next(i for i, f in flags.items() if "box" in f)
    with pytest.raises(RefereeError, match="the box holds 2 × r7 and 2 already lie"):
        ref.correct(dup, "r7")
    with pytest.raises(RefereeError, match="unknown card 'z9'"):
        ref.correct(dup, "z9")
    ref.correct(dup, "r6")
    assert ref.flags == {}
    ref.trigger("done")
    assert ref.summary()["scores"]["ann"] == 7 + 7 + 6 + 6
    # The correction holds in later frames while the object stays put.
    ref.feed(frame(*tiles))
    assert ref.facts["centre"].count("r6") == 1


def test_device_buttons_reach_the_referee(table: Table) -> None:
    ref = _start(table)
    device = table.device
    assert isinstance(device, FakeDevice)
    _settle(ref, *centre_tiles("b1", "b2", "b3"))
    device.press("done")
    assert ref.summary()["scores"]["ann"] == 6
    device.press("timer_expired")
    assert ref.summary()["scores"] == {"ann": 6, "bob": 0} and ref.adapter.turn(ref.state) == "ann"
    assert table.store.journal(ref.game_id)[-1].event == Event.of("pass", player="bob")
    _settle(ref, *centre_tiles("b1", "b1", "b1"))
    device.press("done")  # flagged: the refusal is shown, not raised into the device thread
    assert device.state is not None and "correct the flagged reads" in device.state.message


def test_timer_pause_resume_with_the_clock(table: Table) -> None:
    ref = _start(table)
    clock = ref.clock
    assert isinstance(clock, Clock)
    ref.timer_control("start", seconds=60)
    clock.t += 20
    assert ref.timer_control("pause")["remaining_ms"] == 40000
    clock.t += 100
    assert ref.timer.to_json(clock.t)["remaining_ms"] == 40000
    ref.timer_control("resume")
    clock.t += 10
    assert ref.timer.to_json(clock.t)["remaining_ms"] == 30000
    with pytest.raises(RefereeError, match="not paused"):
        ref.timer_control("resume")
    with pytest.raises(RefereeError, match="unknown timer action 'explode'"):
        ref.timer_control("explode")


def test_game_end_closes_the_log(table: Table) -> None:
    ref = _start(table)
    ref.apply(Event.of("point", player="ann", points=65))
    assert table.store.game(ref.game_id).status == "finished"
    assert ref.message == "winner: ann"
    with pytest.raises(RefereeError, match="is finished"):
        ref.apply(Event.of("pass", player="bob"))
    assert table.store.running_games() == []


def test_bad_setup_is_not_stored(table: Table) -> None:
    sid = table.store.create_session("solo", ["ann"])
    with pytest.raises(RefereeError, match="tally needs at least 2 players"):
        table.start_game(sid, "tally")
    with pytest.raises(RefereeError, match="unknown game 'chess'"):
        table.start_game(sid, "chess")
    assert table.store.games() == []


def test_zones_and_rows() -> None:
    stab = Stabiliser(frames=1)
    view = stab.feed(
        frame(
            obj("r1", 500, 700), obj("r2", 500, 30), obj("r3", 30, 375), obj("r4", 970, 375),
            obj("r5", 500, 375),
        )
    )  # fmt: skip
    assert view is not None
    players = ["a", "b", "c", "d"]
    zones = [zone_of(o, players, 1000, 750) for o in view.objects]
    assert zones == ["a", "c", "b", "d", CENTRE]
    row = Stabiliser(frames=1).feed(
        frame(
            obj("r1", 100, 100), obj("r2", 142, 100), obj("r3", 184, 102),
            obj("k9", 300, 100), obj("o9", 342, 98), obj("b9", 384, 100),
            obj("J", 100, 200),
        )
    )  # fmt: skip
    assert row is not None
    sets = [[o.label for o in s] for s in rows_of_sets(row.objects)]
    assert sets == [["r1", "r2", "r3"], ["k9", "o9", "b9"], ["J"]]


def test_correction_holds_through_flicker_but_not_for_another_tile(table: Table) -> None:
    ref = _start(table)
    _settle(ref, obj("k5", 500, 375, conf=0.3))
    (tile,) = ref.view.objects
    ref.correct(tile.id, "k6")
    ref.feed(frame(obj("k8", 500, 375, conf=0.3)))  # one flickering misread
    _settle(ref, obj("k5", 500, 375, conf=0.3))
    assert ref.facts["centre"] == ["k6"]
    _settle(ref, obj("r2", 500, 375))  # the tile was swapped for another one
    assert ref.facts["centre"] == ["r2"]


def test_sets_given_as_tokens_name_objects() -> None:
    from host.table.reads import FrameRead

    read = FrameRead.model_validate(
        {"objects": [obj("r7", 100, 100), obj("r8", 140, 100), obj("r7", 400, 100)],
         "sets": [["r7", "r8"], ["r7"]]}
    )  # fmt: skip
    assert read.sets == ((0, 1), (2,))


def test_a_correction_survives_a_restart(table: Table, tmp_path: Path) -> None:
    ref = _start(table)
    unsure = obj("k5", 500, 375, conf=0.3, alts=["k6"])
    _settle(ref, unsure)
    (tile,) = ref.view.objects
    ref.correct(tile.id, "k6")
    again = Table(Store(tmp_path / "t.sqlite3"), FakeDevice(), stable_frames=3)
    again.resume()
    resumed = again.referee()
    _settle(resumed, unsure)
    assert resumed.facts["centre"] == ["k6"] and resumed.flags == {}
    _settle(resumed, obj("k5", 100, 375, conf=0.3))  # elsewhere: another tile, still doubtful
    assert resumed.flags


def _corrected_after_flicker(missing: int, back: dict[str, Any]) -> tuple[Stabiliser, TableView]:
    """A misread tile corrected by a person, lost for ``missing`` frames, then seen again."""
    stab = Stabiliser(frames=3)
    for _ in range(3):
        view = stab.feed(frame(obj("k5", 500, 375, conf=0.3)))
    assert view is not None
    stab.correct(view.objects[0].id, "k6")
    for _ in range(missing):
        gone = stab.feed(frame())
        assert gone is not None and gone.objects == ()  # gone from the view at once
    view = stab.feed(frame(back))
    assert view is not None
    return stab, view


@pytest.mark.parametrize("missing", [2, 3])
def test_a_correction_outlives_a_detection_flicker(missing: int) -> None:
    stab, view = _corrected_after_flicker(missing, obj("k5", 504, 372, conf=0.3))
    (tile,) = view.objects
    assert (tile.label, tile.corrected, tile.read.label) == ("k6", True, "k5")
    assert not tile.stable and not view.stable  # newly seen: counts only once read steadily
    for _ in range(2):
        view = stab.feed(frame(obj("k5", 504, 372, conf=0.3)))
    assert [(o.label, o.corrected, o.stable) for o in view.objects] == [("k6", True, True)]


def test_another_object_where_a_corrected_one_was_does_not_inherit_it() -> None:
    stab, view = _corrected_after_flicker(2, obj("r2", 500, 375))
    assert [(o.label, o.corrected) for o in view.objects] == [("r2", False)]
    for _ in range(2):
        view = stab.feed(frame(obj("r2", 500, 375)))
    assert view is not None and view.stable and view.labels() == ["r2"]
    # Nor does the same misread somewhere else on the table.
    _, view = _corrected_after_flicker(2, obj("k5", 300, 375, conf=0.3))
    assert [(o.label, o.corrected) for o in view.objects] == [("k5", False)]


def test_a_remembered_correction_expires_and_reset_clears_it() -> None:
    # Forgotten on the second frame without it; then r2's frame, these, and k5's frame.
    stab, _ = _corrected_after_flicker(2, obj("r2", 100, 100))
    for _ in range(stab.remember_frames - 2):  # hand frames do not age it
        stab.feed(frame())
        stab.feed(frame(hand=True))
    view = stab.feed(frame(obj("k5", 500, 375, conf=0.3)))  # the last frame it is kept
    assert [o.label for o in view.objects if o.read.label == "k5"] == ["k6"]

    stab, _ = _corrected_after_flicker(2, obj("r2", 100, 100))
    for _ in range(stab.remember_frames - 1):  # one frame too many
        stab.feed(frame())
    view = stab.feed(frame(obj("k5", 500, 375, conf=0.3)))
    assert [(o.label, o.corrected) for o in view.objects] == [("k5", False)]

    stab, _ = _corrected_after_flicker(2, obj("r2", 100, 100))
    stab.reset()
    view = stab.feed(frame(obj("k5", 500, 375, conf=0.3)))
    assert [(o.label, o.corrected) for o in view.objects] == [("k5", False)]


def test_the_referee_keeps_a_correction_through_a_two_frame_flicker(table: Table) -> None:
    ref = _start(table)
    _settle(ref, obj("k5", 500, 375, conf=0.3))
    (tile,) = ref.view.objects
    ref.correct(tile.id, "k6")
    ref.feed(frame())
    ref.feed(frame())  # a glint: the tile is lost long enough to be forgotten
    assert ref.facts["centre"] == []
    _settle(ref, obj("k5", 502, 376, conf=0.3))
    assert ref.facts["centre"] == ["k6"] and ref.flags == {}
