"""The turn countdown: a deadline, never a decremented counter.

While running, only ``deadline`` is stored; remaining time is ``ticks_diff(deadline, now)``,
so a slow display redraw or a missed poll delays a beep but never stretches the turn.
"""

from .clock import ticks_add, ticks_diff

IDLE = 0
RUNNING = 1
PAUSED = 2
EXPIRED = 3

STATE_NAMES = ("idle", "running", "paused", "expired")

# Short beeps when this much time is left (ms); a long tone at zero.
BEEP_AT = (10000, 5000, 4000, 3000, 2000, 1000)

# poll() results
NOTHING = 0
BEEP = 1
EXPIRE = 2


class Countdown:
    def __init__(self) -> None:
        self.state = IDLE
        self.deadline = 0
        self.left = 0  # remaining ms while paused or expired (0)
        self.length = 0
        self._next_beep = len(BEEP_AT)

    def start(self, now: int, ms: int, running: bool = True) -> None:
        """Begin a turn with ``ms`` left; thresholds already behind us do not beep."""
        ms = max(0, ms)
        self.length = ms
        self._next_beep = 0
        while self._next_beep < len(BEEP_AT) and BEEP_AT[self._next_beep] >= ms:
            self._next_beep += 1
        if ms == 0:
            self.state = EXPIRED
            self.left = 0
        elif running:
            self.state = RUNNING
            self.deadline = ticks_add(now, ms)
        else:
            self.state = PAUSED
            self.left = ms

    def stop(self) -> None:
        self.state = IDLE
        self.left = 0

    def expire(self) -> None:
        """Mark the turn as already run out (restored after a reboot) without a tone."""
        self.state = EXPIRED
        self.left = 0
        self._next_beep = len(BEEP_AT)

    def pause(self, now: int) -> bool:
        if self.state != RUNNING:
            return False
        self.left = max(1, ticks_diff(self.deadline, now))
        self.state = PAUSED
        return True

    def resume(self, now: int) -> bool:
        if self.state != PAUSED:
            return False
        self.deadline = ticks_add(now, self.left)
        self.state = RUNNING
        return True

    def remaining(self, now: int) -> int:
        if self.state == RUNNING:
            return max(0, ticks_diff(self.deadline, now))
        if self.state == PAUSED:
            return self.left
        return 0

    def seconds(self, now: int) -> int:
        """Whole seconds to show: rounded up, so "1" stays until the very end."""
        return (self.remaining(now) + 999) // 1000

    def poll(self, now: int) -> int:
        """Call often; returns BEEP once per threshold crossed and EXPIRE once at zero."""
        if self.state != RUNNING:
            return NOTHING
        left = ticks_diff(self.deadline, now)
        if left <= 0:
            self.state = EXPIRED
            self.left = 0
            self._next_beep = len(BEEP_AT)
            return EXPIRE
        crossed = False
        while self._next_beep < len(BEEP_AT) and left <= BEEP_AT[self._next_beep]:
            self._next_beep += 1
            crossed = True
        return BEEP if crossed else NOTHING
