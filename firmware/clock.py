"""Tick arithmetic that wraps exactly like MicroPython's ``time.ticks_*``.

On MicroPython the built-ins are used; under CPython a shim with the same period (2**30 ms,
as on the rp2 and unix ports) stands in, so a deadline that crosses the wrap behaves the same
in tests as on the Pico (``TICKS_PERIOD`` is read back from the running
interpreter). The logic modules never read the clock themselves: callers pass
``now`` in, which is what lets tests run hours of countdown in microseconds.
"""

import time

_MASK = (1 << 30) - 1
_HALF = 1 << 29


_monotonic_ns = getattr(time, "monotonic_ns", None)  # CPython only


def _ticks_ms() -> int:
    return int(_monotonic_ns() // 1_000_000) & _MASK  # type: ignore[misc]


def _ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) & _MASK


def _ticks_diff(end: int, start: int) -> int:
    """Signed distance from ``start`` to ``end`` (positive when ``end`` is later)."""
    return ((end - start + _HALF) & _MASK) - _HALF


ticks_ms = getattr(time, "ticks_ms", _ticks_ms)
ticks_add = getattr(time, "ticks_add", _ticks_add)
ticks_diff = getattr(time, "ticks_diff", _ticks_diff)

# The period of this interpreter's tick counter (2**30 on the Pico, larger on 64-bit unix).
TICKS_PERIOD = ticks_add(0, -1) + 1
