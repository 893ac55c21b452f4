"""A stand-in ``machine`` for running firmware/main.py on the MicroPython unix port.

Records what the firmware does to the hardware, so a test can see the display being written,
the buzzer sounding and the LEDs changing without a board.
"""

LOG = {"i2c_bytes": 0, "shows": 0, "tones": 0}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, ident, mode=-1, pull=-1):  # type: ignore[no-untyped-def]
        self.ident = ident
        self.level = 1  # buttons idle high (pull-up)

    def value(self, v=None):  # type: ignore[no-untyped-def]
        if v is None:
            return self.level
        self.level = v
        return None


class I2C:
    def __init__(self, ident, sda=None, scl=None, freq=400000):  # type: ignore[no-untyped-def]
        pass

    def writeto(self, addr, buf):  # type: ignore[no-untyped-def]
        LOG["i2c_bytes"] += len(buf)

    def writevto(self, addr, vector):  # type: ignore[no-untyped-def]
        LOG["shows"] += 1
        for buf in vector:
            LOG["i2c_bytes"] += len(buf)


class PWM:
    def __init__(self, pin):  # type: ignore[no-untyped-def]
        self.duty = 0

    def freq(self, f):  # type: ignore[no-untyped-def]
        pass

    def duty_u16(self, d):  # type: ignore[no-untyped-def]
        if d and not self.duty:
            LOG["tones"] += 1
        self.duty = d
