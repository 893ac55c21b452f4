"""A stand-in ``neopixel`` for the MicroPython unix port (see machine.py)."""

WRITES = [0]


class NeoPixel:
    def __init__(self, pin, n):  # type: ignore[no-untyped-def]
        self.pixels = [(0, 0, 0)] * n

    def __len__(self):  # type: ignore[no-untyped-def]
        return len(self.pixels)

    def __setitem__(self, i, colour):  # type: ignore[no-untyped-def]
        self.pixels[i] = colour

    def write(self):  # type: ignore[no-untyped-def]
        WRITES[0] += 1
