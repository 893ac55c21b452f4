"""The firmware on the MicroPython unix port, speaking the protocol on stdin/stdout.

Used by the end-to-end tests and the benchmark (``micropython -X heapsize=160k -m
firmware.unix_main`` with a pseudo-terminal as stdin/stdout): the same Device, screen and LED
logic as on the Pico, with the OLED as an in-memory framebuf and no buzzer. Buttons arrive as
PRESS frames, which this build accepts. One poll loop instead of asyncio: the unix port's
stdin.read(n) waits for all n bytes, so bytes are taken one at a time while poll says more are
ready, and the loop wakes on input or every TICK_MS.
"""

import os
import select
import sys
import time

import framebuf

from firmware import leds, screen
from firmware.clock import ticks_ms
from firmware.device import Device

TICK_MS = 5


class Oled(screen.Canvas):
    def __init__(self) -> None:
        self.buf = bytearray(screen.WIDTH * screen.HEIGHT // 8)
        self.fb = framebuf.FrameBuffer(self.buf, screen.WIDTH, screen.HEIGHT, framebuf.MONO_VLSB)

    def fill(self, c: int) -> None:
        self.fb.fill(c)

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        self.fb.fill_rect(x, y, w, h, c)

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        self.fb.text(s, x, y, c)


def main() -> None:
    rx = sys.stdin.buffer
    tx = sys.stdout.buffer
    poller = select.poll()
    poller.register(rx, select.POLLIN)
    dev = Device(int.from_bytes(os.urandom(4), "little"), ticks_ms(), 2, True)
    tx.write(dev.take_output())
    oled = Oled()
    # The Pico's display.show() blocks ~23 ms (1 KB over 400 kHz I2C); the benchmark sets this
    # to see whether redraws disturb the countdown.
    redraw_ms = int(os.getenv("TABLEREF_REDRAW_MS") or "0")
    shown: tuple[object, ...] = ()
    while not dev.exit_requested:
        if poller.poll(TICK_MS):
            data = b""
            while len(data) < 256 and poller.poll(0):
                byte = rx.read(1)
                if not byte:
                    return  # the other end closed: the "USB cable" is gone
                data += byte
            dev.feed(data, ticks_ms())
            tx.write(dev.take_output())
        now = ticks_ms()
        tx.write(dev.poll(now))
        dev.take_sounds()
        sig = screen.signature(dev, now)
        if dev.dirty or sig != shown:
            screen.render(dev, oled, now)
            leds.pattern(dev, now)
            if redraw_ms:
                time.sleep_ms(redraw_ms)  # type: ignore[attr-defined]
            shown = sig
            dev.dirty = False


if __name__ == "__main__":
    main()
