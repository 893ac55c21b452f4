"""What the referee needs from the table device, whatever drives it.

The real board and the simulator speak the serial protocol through ``host.link``; the referee
only sees this small interface: push the full display state, and receive button/timer events.
``FakeDevice`` is the in-memory stand-in for tests and for tables without any device.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Literal, Protocol

DeviceEventKind = Literal["done", "timer_expired", "pause", "resume", "mute", "predict"]


@dataclass(frozen=True, slots=True)
class DeviceState:
    """Everything the device shows; sent whole so a retried or replayed push is harmless."""

    game: str
    turn: str | None
    scores: dict[str, int]
    players: tuple[str, ...] = ()  # seat order (the scores' keys when not given)
    message: str = ""
    timer_seconds: int = 0  # 0: no countdown
    timer_running: bool = False
    timer_remaining_ms: int | None = None  # None: restart from timer_seconds
    muted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "turn": self.turn,
            "scores": dict(self.scores),
            "players": list(self.players or self.scores),
            "message": self.message,
            "timer_seconds": self.timer_seconds,
            "timer_running": self.timer_running,
            "timer_remaining_ms": self.timer_remaining_ms,
            "muted": self.muted,
        }


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """A button press or the device's own timer running out."""

    kind: DeviceEventKind
    data: dict[str, Any] = field(default_factory=dict)


class Device(Protocol):
    """The referee's view of the table device."""

    def set_state(self, state: DeviceState) -> None:
        """Show this state (full state: the device replaces what it shows)."""
        ...

    def on_event(self, handler: Callable[[DeviceEvent], None]) -> None:
        """Call ``handler`` for every event the device reports (from any thread)."""
        ...

    def close(self) -> None: ...


class FakeDevice:
    """In-memory device: records what it was told; tests press its buttons."""

    def __init__(self) -> None:
        self.states: list[DeviceState] = []
        self._handlers: list[Callable[[DeviceEvent], None]] = []
        self._lock = threading.Lock()
        self.closed = False

    @property
    def state(self) -> DeviceState | None:
        return self.states[-1] if self.states else None

    def set_state(self, state: DeviceState) -> None:
        with self._lock:
            self.states.append(state)

    def on_event(self, handler: Callable[[DeviceEvent], None]) -> None:
        self._handlers.append(handler)

    def press(self, kind: DeviceEventKind, **data: Any) -> None:
        for handler in list(self._handlers):
            handler(DeviceEvent(kind, data))

    def close(self) -> None:
        self.closed = True


def open_device(spec: str) -> Device:
    """The device a setting names: ``none``, ``simulator``, ``auto`` or a serial port.

    ``simulator`` runs the firmware's own logic on a pseudo-terminal (host/link); ``auto``
    takes an attached Pico and falls back to the simulator. Without the serial link installed
    the in-memory device stands in, so the table still runs (timers on the dashboard only).
    """
    if spec in ("none", "fake"):
        return FakeDevice()
    try:
        link = import_module("host.link")
        connect = link.connect
    except (ImportError, AttributeError):
        return FakeDevice()
    from host.device_link import LinkDevice

    device = LinkDevice()
    if spec == "simulator":
        device.link = connect(simulate=True, on_event=device.dispatch)
    elif spec == "auto":
        device.link = connect(on_event=device.dispatch)
    else:
        device.link = connect(spec, on_event=device.dispatch)
    return device
