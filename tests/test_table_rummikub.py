"""Rummikub at the table with the real engine: done, refusals on the device, time-up."""

from __future__ import annotations

import random
from pathlib import Path

from host.demo.layout import groups_in_rows
from host.demo.scripts import frames
from host.device import FakeDevice
from host.referee import Table
from host.rules.base import Event
from host.store import Store
from host.table.reads import FrameRead


def test_done_refusal_time_up_and_a_legal_play(tmp_path: Path) -> None:
    from host.rules.rummikub_play import shuffled_pool

    device = FakeDevice()
    table = Table(Store(tmp_path / "t.sqlite3"), device)
    sid = table.store.create_session("night", ["ann", "bob"])
    pool = shuffled_pool(random.Random(3))
    # ann's rack: an opening of 33 points and three tiles that form no set
    opening = ["r10", "r11", "r12"]
    junk = ["k1", "b5", "o9"]
    for tile in opening + junk:
        pool.remove(tile)
    pool = opening + junk + pool

    setup = Event.of("setup", game="rummikub", players=["ann", "bob"], pool=pool)
    ref = table.start_game(sid, "rummikub", setup=setup)
    assert ref.timer.seconds == 60

    def show(sets: list[list[str]]) -> None:
        for step in frames(groups_in_rows(sets, 20, 720, 28, 40)):
            ref.feed(FrameRead.model_validate(step["frame"]))

    show([junk])
    device.press("done")
    assert device.state is not None and "k1 b5 o9" in device.state.message
    assert ref.summary()["scores"] == {"ann": 0, "bob": 0}
    assert len(table.store.events(ref.game_id)) == 1
    device.press("timer_expired")  # time up with an invalid table: restored, draw 3
    last = table.store.events(ref.game_id)[-1]
    assert last.type == "time_up" and last["player"] == "ann"
    assert len(ref.state.racks[0]) == 14 + 3
    show([])
    device.press("done")  # bob, nothing laid: draws
    assert table.store.events(ref.game_id)[-1].type == "draw"
    show([opening])
    device.press("done")
    assert [list(s) for s in ref.state.table] == [opening]
    assert device.state is not None and device.state.message == "OK"
    assert device.state.turn == "bob" and device.state.timer_running
