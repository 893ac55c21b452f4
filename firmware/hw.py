"""Thin adapters: the ONLY module (with main.py) that touches ``machine``.

Each adapter does one physical thing and holds no game logic, so everything worth testing
lives in the pure modules and runs on a desktop too.
"""

import machine
import neopixel

from . import config
from . import protocol as p
from .buttons import Debouncer
from .clock import ticks_add, ticks_diff
from .screen import Canvas
from .ssd1306 import SSD1306_I2C


class Display(Canvas):
    """The OLED, drawn through the Canvas methods the screen layout uses."""

    def __init__(self) -> None:
        i2c = machine.I2C(
            config.I2C_ID,
            sda=machine.Pin(config.PIN_SDA),
            scl=machine.Pin(config.PIN_SCL),
            freq=config.I2C_FREQ,
        )
        self.oled = SSD1306_I2C(config.OLED_WIDTH, config.OLED_HEIGHT, i2c, config.OLED_ADDR)

    def fill(self, c: int) -> None:
        self.oled.fill(c)

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        self.oled.fill_rect(x, y, w, h, c)

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        self.oled.text(s, x, y, c)

    def show(self) -> None:
        self.oled.show()


class Buzzer:
    """Piezo on PWM; ``tone`` starts a sound and ``poll`` ends it, so nothing blocks."""

    def __init__(self) -> None:
        self.pwm = machine.PWM(machine.Pin(config.PIN_BUZZER))
        self.pwm.duty_u16(0)
        self.sounding = False
        self.off_at = 0

    def tone(self, freq: int, ms: int, now: int) -> None:
        self.pwm.freq(freq)
        self.pwm.duty_u16(32768)  # a square wave is loudest on a piezo
        self.sounding = True
        self.off_at = ticks_add(now, ms)

    def poll(self, now: int) -> None:
        if self.sounding and ticks_diff(now, self.off_at) >= 0:
            self.pwm.duty_u16(0)
            self.sounding = False


class Buttons:
    """Three push buttons to GND with the internal pull-ups, debounced in software."""

    def __init__(self) -> None:
        self.pins = []
        for pin, button in (
            (config.PIN_BTN_DONE, p.BTN_DONE),
            (config.PIN_BTN_PAUSE, p.BTN_PAUSE),
            (config.PIN_BTN_MUTE, p.BTN_MUTE),
        ):
            self.pins.append((machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP), button))
        self.debouncers = [Debouncer() for _ in self.pins]

    def held(self, button: int) -> bool:
        for pin, b in self.pins:
            if b == button:
                return pin.value() == 0
        return False

    def poll(self, now: int) -> list[int]:
        pressed = []
        for i in range(len(self.pins)):
            pin, button = self.pins[i]
            if self.debouncers[i].update(pin.value() == 0, now):
                pressed.append(button)
        return pressed


class Ring:
    """The WS2812 ring."""

    def __init__(self) -> None:
        self.np = neopixel.NeoPixel(machine.Pin(config.PIN_LEDS), config.LED_COUNT)

    def show(self, pixels: list[tuple[int, int, int]]) -> None:
        for i in range(len(pixels)):
            self.np[i] = pixels[i]
        self.np.write()


class StatusLed:
    def __init__(self) -> None:
        self.pin = machine.Pin(config.PIN_STATUS_LED, machine.Pin.OUT)

    def set(self, on: bool) -> None:
        self.pin.value(1 if on else 0)
