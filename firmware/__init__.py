"""tableref table device firmware (MicroPython for a Raspberry Pi Pico).

The logic modules (protocol, clock, timer, buttons, screen, leds, device) import only
time/struct/binascii and run unchanged under CPython, which is how the host imports the
codec and how the simulator runs the device. ``hw`` and ``main`` touch ``machine``.
"""
