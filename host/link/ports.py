"""What the device client, the simulator and the MicroPython board share: a raw pty to talk
over, ``with`` support, and the names of the device's buttons."""

from __future__ import annotations

import os
import pty
import tty
from types import TracebackType
from typing import Self

from host.link import codec as p

BUTTONS = {"done": p.BTN_DONE, "pause": p.BTN_PAUSE, "mute": p.BTN_MUTE}


def button_code(name: str) -> int:
    try:
        return BUTTONS[name]
    except KeyError:
        raise ValueError(f"no button {name!r}: the device has {', '.join(BUTTONS)}") from None


def open_raw_pty() -> tuple[int, int, str]:
    """(master fd, slave fd, slave path) of a new pty in raw mode: no echo and no line
    editing, so it carries frames byte for byte like a USB CDC port."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


class StartClose:
    """``with thing:`` starts it and closes it however the block ends."""

    def start(self) -> Self:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
