"""The referee's device adapters: the in-memory fake and the mapping onto host.link."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from host.device import DeviceEvent, DeviceState, FakeDevice, open_device
from host.device_link import LinkDevice


@dataclass
class LinkEvent:  # the shape of host.link's DeviceEvent
    kind: str
    turn: int = -1
    player: int = -1
    player_name: str = ""


class FakeLink:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.closed = False

    def set_state(self, players: list[str], current: int | None, scores: list[int],
                  **kwargs: Any) -> int:  # fmt: skip
        self.calls.append((players, current, scores, kwargs))
        return len(self.calls)

    def close(self) -> None:
        self.closed = True


def test_link_device_sends_full_state_and_maps_events() -> None:
    link = FakeLink()
    device = LinkDevice(link)
    got: list[DeviceEvent] = []
    device.on_event(got.append)
    device.set_state(
        DeviceState("rummikub", "bob", {"ann": 3, "bob": -2}, ("ann", "bob"), "OK", 60, True)
    )
    players, current, scores, kwargs = link.calls[-1]
    assert (players, current, scores) == (["ann", "bob"], 1, [3, -2])
    assert kwargs["timer_seconds"] == 60 and kwargs["running"] is True
    assert kwargs["message"] == "OK" and kwargs["game"] == "rummikub"
    device.dispatch(LinkEvent("done", turn=4, player=0, player_name="ann"))
    device.dispatch(LinkEvent("expired"))
    device.dispatch(LinkEvent("link_down"))
    assert [e.kind for e in got] == ["done", "timer_expired"]
    assert got[0].data == {"player": "ann", "turn": 4}
    assert device.status == ["link_down"]
    device.close()
    assert link.closed


def test_no_device_is_the_in_memory_one() -> None:
    assert isinstance(open_device("none"), FakeDevice)
