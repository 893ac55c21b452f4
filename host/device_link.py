"""The real device (or its simulator) behind the referee's :class:`host.device.Device`.

``host.link.DeviceLink`` speaks the serial protocol; this adapter maps the referee's full
display state onto ``DeviceLink.set_state`` and the link's events onto the referee's
:class:`host.device.DeviceEvent` kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.device import DeviceEvent, DeviceState

# link event kind -> referee event kind (link_up/down, device_reset, rejected: status only)
KINDS = {
    "done": "done",
    "expired": "timer_expired",
    "pause": "pause",
    "resume": "resume",
    "mute": "mute",
    "unmute": "mute",
}


class LinkDevice:
    def __init__(self, link: Any = None) -> None:
        self.link = link  # set by host.device.open_device once connected with our dispatch
        self._handlers: list[Callable[[DeviceEvent], None]] = []
        self.status: list[str] = []  # the link's own news (link up/down, resets), newest last

    def set_state(self, state: DeviceState) -> None:
        players = list(state.players or state.scores)
        current = players.index(state.turn) if state.turn in players else None
        self.link.set_state(
            players,
            current,
            [int(state.scores.get(p, 0)) for p in players],
            timer_seconds=state.timer_seconds,
            running=state.timer_running if state.timer_seconds else None,
            message=state.message,
            game=state.game,
            muted=state.muted,
        )

    def on_event(self, handler: Callable[[DeviceEvent], None]) -> None:
        self._handlers.append(handler)

    def dispatch(self, event: Any) -> None:
        """Called by the link (from its reader thread) for every event."""
        kind = KINDS.get(event.kind)
        if kind is None:
            self.status.append(event.kind)
            return
        data = {"player": event.player_name, "turn": event.turn} if kind == "done" else {}
        for handler in list(self._handlers):
            handler(DeviceEvent(kind, data))  # type: ignore[arg-type]

    def press(self, button: str) -> None:
        """Press a button of the simulated device (its event comes back through the link)."""
        # A device that has not yet applied the host's latest state (whose turn it is) would
        # ignore the press, as the real one does; a scripted press must not race the state.
        self.link.wait_applied(timeout=5.0)
        self.link.press(button)

    def close(self) -> None:
        self.link.close()
