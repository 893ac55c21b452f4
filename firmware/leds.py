"""LED ring patterns. Every state has its own SHAPE and RHYTHM, colour only repeats it:

- waiting for the host: one dim pixel circling (a spinner)
- running: an arc whose length is the time left, steady; under 10 s it blinks once a second,
  under 5 s four times a second (green / amber / red, but the blink says it all)
- paused: every other pixel lit, steady (a dotted ring), white-blue
- expired: odd and even pixels alternating fast, red
- host lost: pixel 0 blinks blue once a second on top of the rest
The screen says the same in words (see screen.py).
"""

from . import timer as t
from .device import Device

BRIGHT = 40  # of 255: bright enough indoors, easy on the USB current budget

GREEN = (0, BRIGHT, 0)
AMBER = (BRIGHT, BRIGHT // 2, 0)
RED = (BRIGHT, 0, 0)
PAUSE = (BRIGHT // 3, BRIGHT // 3, BRIGHT // 2)
BLUE = (0, 0, BRIGHT)
DIM = (BRIGHT // 4, BRIGHT // 4, BRIGHT // 4)
OFF = (0, 0, 0)


def pattern(dev: Device, now: int, n: int = 12) -> list[tuple[int, int, int]]:
    px = [OFF] * n
    cd = dev.countdown
    if not dev.have_state:
        px[(now // 150) % n] = DIM
    elif cd.state == t.RUNNING:
        left = cd.remaining(now)
        lit = min(n, (left * n + cd.length - 1) // cd.length) if cd.length else n
        if left > 10000:
            colour, on = GREEN, True
        elif left > 5000:
            colour, on = AMBER, (now // 500) % 2 == 0
        else:
            colour, on = RED, (now // 125) % 2 == 0
        if on:
            for i in range(lit):
                px[i] = colour
    elif cd.state == t.PAUSED:
        for i in range(0, n, 2):
            px[i] = PAUSE
    elif cd.state == t.EXPIRED:
        phase = (now // 125) % 2
        for i in range(phase, n, 2):
            px[i] = RED
    if dev.have_state and not dev.host_ok(now) and (now // 500) % 2 == 0:
        px[0] = BLUE
    return px


def signature(dev: Device, now: int, n: int = 12) -> tuple[tuple[int, int, int], ...]:
    return tuple(pattern(dev, now, n))
