"""The firmware running in the MicroPython unix-port interpreter, behind a pseudo-terminal.

Closest thing to a board without one: the real interpreter (with a Pico-sized heap) runs
``firmware.unix_main``, which drives the same Device/screen/LED code as the Pico. Open
``port`` with pyserial (``DeviceLink(board.port)``). ``power_off()``/``boot()`` simulate a
reboot on the same port. Used by the end-to-end tests and ``bench/link.py``.
"""

from __future__ import annotations

import os
import subprocess

from host.link import tools
from host.link.ports import StartClose, open_raw_pty


class MicroPythonDevice(StartClose):
    def __init__(self, heap: str | None = tools.PICO_HEAP, redraw_ms: int = 0) -> None:
        self._master, self._slave, self.port = open_raw_pty()
        self.heap = heap
        self.redraw_ms = redraw_ms  # simulated blocking display transfer per redraw
        self.proc: subprocess.Popen[bytes] | None = None

    def boot(self) -> MicroPythonDevice:
        cmd = [tools.tool("micropython")]
        if self.heap:
            cmd += ["-X", f"heapsize={self.heap}"]
        env = dict(os.environ, TABLEREF_REDRAW_MS=str(self.redraw_ms))
        self.proc = subprocess.Popen(
            [*cmd, "-m", "firmware.unix_main"],
            stdin=self._master,
            stdout=self._master,
            stderr=subprocess.PIPE,
            cwd=tools.REPO,
            env=env,
        )
        return self

    def power_off(self) -> str:
        """Kill the interpreter; returns what it wrote to stderr (a traceback, if any)."""
        if self.proc is None:
            return ""
        self.proc.kill()
        _, err = self.proc.communicate(timeout=5)
        self.proc = None
        return err.decode(errors="replace")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        self.power_off()
        for fd in (self._master, self._slave):
            os.close(fd)

    def start(self) -> MicroPythonDevice:
        return self.boot()
