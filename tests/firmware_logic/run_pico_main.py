"""Run the Pico's firmware/main.py on the MicroPython unix port with fake hardware.

stdin/stdout carry the protocol (a pty in the test); when main.py returns (after a REPL frame)
the hardware log is written to stderr as one line: ``hw <i2c bytes> <shows> <tones> <led writes>``.
"""

import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE + "/fakes")
sys.path.insert(0, HERE + "/../..")

import machine  # noqa: E402
import neopixel  # noqa: E402

import firmware.main  # noqa: E402, F401  (runs the firmware, as /main.py does on the Pico)

log = machine.LOG
sys.stderr.write(f"hw {log['i2c_bytes']} {log['shows']} {log['tones']} {neopixel.WRITES[0]}\n")
