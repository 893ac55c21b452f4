"""The simulated table device: the firmware's own logic, fake adapters, a pseudo-terminal.

``SimulatedDevice`` runs ``firmware.device.Device`` (the very code the Pico runs) in a thread
behind a pty, so ``DeviceLink`` talks to it exactly as to a board: open ``sim.port`` with
pyserial. The OLED is a ``FrameBuffer`` (ASCII and PNG), the buzzer a list of tones, the LED
ring a list of colours, and the buttons are ``press("done")`` etc. (or PRESS frames).
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware import leds, screen
from firmware.clock import ticks_ms
from firmware.device import Device
from host.link.framebuffer import FrameBuffer
from host.link.ports import StartClose, button_code, open_raw_pty

TICK_S = 0.005


@dataclass(frozen=True)
class Tone:
    at: float  # time.monotonic()
    freq: int
    ms: int


class SimulatedDevice(StartClose):
    """Start with ``start()`` (or ``with``); ``port`` is the pty path to open."""

    def __init__(
        self,
        *,
        png_path: Path | None = None,
        on_redraw: Callable[[SimulatedDevice], None] | None = None,
        seed: int | None = None,
    ) -> None:
        self.png_path = png_path
        self.on_redraw = on_redraw
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master = -1
        self._slave = -1
        self.port = ""
        self.framebuffer = FrameBuffer()
        self.tones: list[Tone] = []
        self.pixels: list[tuple[int, int, int]] = []
        self.redraws = 0
        self.boots = 0
        self.device = self._boot()

    def _boot(self) -> Device:
        self.boots += 1
        dev = Device(self._rng.getrandbits(32), ticks_ms(), role=2, allow_press=True)
        self._pending = dev.take_output()
        return dev

    # ------------------------------------------------------------ lifecycle

    def start(self) -> SimulatedDevice:
        self._open_pty()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="sim-device", daemon=True)
        self._thread.start()
        return self

    def _open_pty(self) -> None:
        self._master, self._slave, self.port = open_raw_pty()
        os.set_blocking(self._master, False)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._close_pty()

    # ------------------------------------------------------------ the fake hardware

    def press(self, button: str) -> None:
        with self._lock:
            self.device.press(button_code(button), ticks_ms())

    def reboot(self) -> None:
        """Power-cycle: a new boot id and no state, on the same port."""
        with self._lock:
            self.device = self._boot()

    def unplug(self) -> None:
        """Pull the cable: the port disappears (the host's reads fail)."""
        with self._lock:
            self._close_pty()

    def replug(self) -> str:
        """Plug back in (rebooting, as a real board does); returns the new port path."""
        with self._lock:
            self.device = self._boot()
            self._open_pty()
            return self.port

    def screen_ascii(self) -> str:
        with self._lock:
            return self.framebuffer.to_ascii()

    def screen_png(self) -> bytes:
        with self._lock:
            return self.framebuffer.to_png()

    def render(self) -> None:
        with self._lock:
            now = ticks_ms()
            screen.render(self.device, self.framebuffer, now)
            self.pixels = leds.pattern(self.device, now)
            self.device.dirty = False
            self.redraws += 1

    # ------------------------------------------------------------ the loop

    def _run(self) -> None:
        shown: tuple[object, ...] = ()
        while not self._stop.is_set():
            master = self._master
            if master < 0:
                time.sleep(TICK_S)
                continue
            try:
                ready, _, _ = select.select([master], [], [], TICK_S)
                data = os.read(master, 4096) if ready else b""
            except OSError:
                data = b""  # nobody has the port open, or it was just unplugged
            with self._lock:
                dev = self.device
                now = ticks_ms()
                if data:
                    dev.feed(data, now)
                out = self._pending + dev.poll(now)
                self._pending = b""
                for freq, ms in dev.take_sounds():
                    self.tones.append(Tone(time.monotonic(), freq, ms))
                sig = screen.signature(dev, now)
                redraw = dev.dirty or sig != shown
                if redraw:
                    self.render()
                    shown = sig
                if out and self._master >= 0:
                    # if the host end is gone the bytes are lost, as on a wire
                    with contextlib.suppress(OSError):
                        os.write(self._master, out)
                if dev.exit_requested:
                    dev.exit_requested = False  # a simulator has no REPL to return to
            if redraw:
                if self.png_path is not None:
                    self.framebuffer.save_png(self.png_path)
                if self.on_redraw is not None:
                    self.on_redraw(self)
