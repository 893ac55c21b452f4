"""The Pico's entry point (copied to the board as /main.py): wires the adapters to the logic.

Tasks: ``reader`` feeds USB serial bytes to the device logic; ``ticker`` runs every 10 ms to
read buttons, advance the countdown, write frames, sound the buzzer and redraw the screen and
LEDs only when their picture changed. Ctrl-C is turned off while the protocol runs (a 0x03 in a
frame must not stop the firmware); ``tableref firmware deploy`` sends a REPL frame to get the
REPL back, and holding DONE while plugging in skips the protocol altogether (safe mode).
"""

import asyncio
import os
import select
import sys

import micropython

from firmware import hw, leds, screen
from firmware import protocol as p
from firmware.clock import ticks_ms
from firmware.device import Device

TICK_MS = 10


def write(data: bytes) -> None:
    if data:
        sys.stdout.buffer.write(data)


async def reader(dev: Device) -> None:
    # read(n) on the Pico's stdio waits for all n bytes, so take one byte per wake-up and
    # whatever else is already waiting (select.poll says so without blocking).
    stream = asyncio.StreamReader(sys.stdin.buffer)
    waiting = select.poll()
    waiting.register(sys.stdin, select.POLLIN)
    while True:
        data = await stream.read(1)
        while waiting.poll(0) and len(data) < 64:
            data += sys.stdin.buffer.read(1)
        dev.feed(data, ticks_ms())
        write(dev.take_output())


async def ticker(dev: Device) -> None:
    display = hw.Display()
    buzzer = hw.Buzzer()
    buttons = hw.Buttons()
    ring = hw.Ring()
    status = hw.StatusLed()
    status.set(True)
    shown: tuple[object, ...] = ()
    lit: tuple[tuple[int, int, int], ...] = ()
    while not dev.exit_requested:
        now = ticks_ms()
        for button in buttons.poll(now):
            dev.press(button, now)
        write(dev.poll(now))
        for freq, ms in dev.take_sounds():
            buzzer.tone(freq, ms, now)
        buzzer.poll(now)
        sig = screen.signature(dev, now)
        if dev.dirty or sig != shown:
            screen.render(dev, display, now)
            display.show()
            shown = sig
            dev.dirty = False
        pixels = leds.signature(dev, now, len(ring.np))
        if pixels != lit:
            ring.show(list(pixels))
            lit = pixels
        await asyncio.sleep_ms(TICK_MS)
    status.set(False)


async def run_device() -> None:
    boot_id = int.from_bytes(os.urandom(4), "little")
    dev = Device(boot_id, ticks_ms())
    write(dev.take_output())
    task = asyncio.create_task(reader(dev))
    await ticker(dev)
    task.cancel()


def main() -> None:
    if hw.Buttons().held(p.BTN_DONE):
        print("tableref: DONE held at boot, staying in the REPL")
        return
    micropython.kbd_intr(-1)
    try:
        asyncio.run(run_device())
    finally:
        micropython.kbd_intr(3)


main()
