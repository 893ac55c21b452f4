"""Debouncing: a press counts once the level has been stable for ``DEBOUNCE_MS``."""

from .clock import ticks_diff

DEBOUNCE_MS = 30


class Debouncer:
    """Feed raw samples (True = pressed); ``update`` returns True once per clean press."""

    def __init__(self, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.debounce_ms = debounce_ms
        self.raw = False
        self.stable = False
        self.changed_at = 0

    def update(self, pressed: bool, now: int) -> bool:
        if pressed != self.raw:
            self.raw = pressed
            self.changed_at = now
            return False
        if pressed != self.stable and ticks_diff(now, self.changed_at) >= self.debounce_ms:
            self.stable = pressed
            return pressed
        return False
