"""The device's brain, free of I/O: bytes in, bytes out, button presses, sounds to play.

``main.py`` (the Pico), ``unix_main.py`` (MicroPython on a pty) and the host's simulator all
drive this same class; they differ only in where bytes, ticks and presses come from.

Authority: the host owns the game (players, scores, whose turn, the turn length); the device
owns the running countdown. A STATE for the turn the device is already timing leaves the
countdown alone, so retries and re-sent state never restart anybody's minute.
"""

from . import protocol as p
from . import timer as t
from .clock import ticks_add, ticks_diff

HEARTBEAT_MS = 1000
HEARTBEAT_FAST_MS = 250  # while waiting for a state: the host learns our boot id sooner
HOST_TIMEOUT_MS = 3000  # three missed host heartbeats: show "host lost"
RETRY_MS = 250  # resend an unacknowledged event this often
OUTBOX_MAX = 32

# Sounds: (frequency Hz, duration ms).
SOUND_BEEP = (2000, 80)
SOUND_EXPIRE = (880, 1500)
SOUND_CLICK = (3000, 15)


class Device:
    def __init__(self, boot_id: int, now: int, role: int = 1, allow_press: bool = False) -> None:
        self.boot_id = boot_id & 0xFFFFFFFF
        self.role = role
        self.allow_press = allow_press  # PRESS frames: simulator and tests only
        self.decoder = p.Decoder()
        self.seq = 0
        self.tx: list[bytes] = []
        self.sounds: list[tuple[int, int]] = []
        # game state from the host
        self.have_state = False
        self.rev = 0
        self.game = ""
        self.players: list[str] = []
        self.scores: list[int] = []
        self.current = p.NO_PLAYER
        self.turn = 0
        self.timer_ms = 0
        self.message = ""
        self.muted = False
        self.countdown = t.Countdown()
        # link
        self.host_seen = False
        self.host_at = now
        self.next_heartbeat = now
        self.outbox: list[tuple[int, bytes]] = []  # (seq, frame) awaiting ACK, oldest first
        self.retry_at = now
        self.applied = 0  # STATE frames applied (each rev once)
        self.move_seq = 0  # seq of our last button event that changed turn, pause or mute
        self.dirty = True  # the screen needs a redraw
        self.exit_requested = False  # REPL frame: main.py hands the REPL back (for deploys)
        self.shown_ok = False
        self._send(p.HELLO, p.encode_hello(self.boot_id, role, "tableref-fw"))

    # ------------------------------------------------------------ output

    def _next_seq(self) -> int:
        self.seq = (self.seq + 1) & 0xFFFF
        return self.seq

    def _send(self, ftype: int, payload: bytes = b"", seq: int = -1) -> bytes:
        frame = p.encode_frame(self._next_seq() if seq < 0 else seq, ftype, payload)
        self.tx.append(frame)
        return frame

    def take_output(self) -> bytes:
        out = b"".join(self.tx)
        self.tx = []
        return out

    def take_sounds(self) -> list[tuple[int, int]]:
        out = self.sounds
        self.sounds = []
        return out

    def _sound(self, sound: tuple[int, int]) -> None:
        if not self.muted:
            self.sounds.append(sound)

    def _event(self, kind: int, turn: int, player: int, remaining: int, now: int) -> int:
        seq = self._next_seq()
        frame = p.encode_frame(seq, p.EVENT, p.encode_event(kind, turn, player, remaining))
        if len(self.outbox) >= OUTBOX_MAX:
            self.outbox.pop(0)
        self.outbox.append((seq, frame))
        if len(self.outbox) == 1:
            self.tx.append(frame)
            self.retry_at = ticks_add(now, RETRY_MS)
        return seq

    # ------------------------------------------------------------ input

    def feed(self, data: bytes, now: int) -> None:
        frames = self.decoder.feed(data)
        for exc in self.decoder.rejected:
            self._send(p.NAK, p.encode_nak(p.NAK_VERSION, str(exc)), exc.seq)
        self.decoder.rejected = []
        for seq, ftype, payload in frames:
            self._host_heard(now)
            try:
                self._handle(seq, ftype, payload, now)
            except p.ProtocolError as exc:
                self._send(p.NAK, p.encode_nak(p.NAK_PAYLOAD, str(exc)), seq)

    def _host_heard(self, now: int) -> None:
        self.host_seen = True
        self.host_at = now

    def _handle(self, seq: int, ftype: int, payload: bytes, now: int) -> None:
        if ftype == p.STATE:
            st = p.decode_state(payload)
            if not self.have_state or st.rev != self.rev:
                self.apply_state(st, now)
            self._send(p.ACK, b"", seq)
        elif ftype == p.HEARTBEAT:
            pass
        elif ftype == p.HELLO:
            version = p.decode_hello(payload)[0]
            if version != p.VERSION:
                self._send(p.NAK, p.encode_nak(p.NAK_VERSION, f"version {version}"), seq)
                return
            self._send(p.HELLO, p.encode_hello(self.boot_id, self.role, "tableref-fw"))
            self._heartbeat(now)
        elif ftype == p.ACK or ftype == p.NAK:
            # NAK: the host cannot read this event (a firmware/host mismatch); sending the same
            # bytes again would not help and would hold up the events behind it.
            if self.outbox and self.outbox[0][0] == seq:
                self.outbox.pop(0)
                if self.outbox:
                    self.tx.append(self.outbox[0][1])
                    self.retry_at = ticks_add(now, RETRY_MS)
        elif ftype == p.PRESS:
            button = p.decode_press(payload)
            if not self.allow_press:
                self._send(p.NAK, p.encode_nak(p.NAK_UNSUPPORTED, "PRESS: simulator only"), seq)
                return
            self._send(p.ACK, b"", seq)
            self.press(button, now)
        elif ftype == p.REPL:
            self._send(p.ACK, b"", seq)
            self.exit_requested = True
        else:
            self._send(p.NAK, p.encode_nak(p.NAK_TYPE, f"unknown frame type {ftype}"), seq)

    def apply_state(self, st: p.State, now: int) -> None:
        # A state built before the host saw our last button press (done, pause, mute) must not
        # undo it: take its scores, names and message, keep our own turn and countdown. The
        # host re-sends once the event arrives, and that state is applied whole.
        stale = (
            self.move_seq != 0
            and 0 < ((self.move_seq - st.seen) & 0xFFFF) < 0x8000
            and self.current < len(st.players)
        )
        new_turn = not self.have_state or st.turn != self.turn or st.current != self.current
        self.have_state = True
        self.rev = st.rev
        self.applied += 1
        self.game = st.game
        self.players = st.players
        self.scores = st.scores
        self.message = st.message
        self.timer_ms = st.timer_ms
        self.dirty = True
        if stale:
            return
        self.muted = st.muted
        cd = self.countdown
        if new_turn:
            self.turn = st.turn
            self.current = st.current
            if st.current == p.NO_PLAYER or st.timer_ms == 0:
                cd.stop()
            elif st.expired:
                cd.expire()
            else:
                cd.start(now, st.remaining_ms or st.timer_ms, st.running)
        elif st.running:
            cd.resume(now)
        else:
            cd.pause(now)
        self.dirty = True

    # ------------------------------------------------------------ buttons

    def press(self, button: int, now: int) -> None:
        cd = self.countdown
        if button == p.BTN_MUTE:
            self.muted = not self.muted
            kind = p.EV_MUTE if self.muted else p.EV_UNMUTE
            self.move_seq = self._event(kind, self.turn, self.current, cd.remaining(now), now)
            self._sound(SOUND_CLICK)
        elif not self.players or self.current == p.NO_PLAYER:
            return  # nothing to time yet
        elif button == p.BTN_DONE:
            old_turn, old_player = self.turn, self.current
            left = cd.remaining(now)
            self.current = (self.current + 1) % len(self.players)
            self.turn = (self.turn + 1) & 0xFFFF
            if self.timer_ms:
                cd.start(now, self.timer_ms, True)
            else:
                cd.stop()
            self.move_seq = self._event(p.EV_DONE, old_turn, old_player, left, now)
            self._sound(SOUND_CLICK)
        elif button == p.BTN_PAUSE:
            if cd.pause(now):
                kind = p.EV_PAUSE
            elif cd.resume(now):
                kind = p.EV_RESUME
            else:
                return
            self.move_seq = self._event(kind, self.turn, self.current, cd.remaining(now), now)
            self._sound(SOUND_CLICK)
        self.dirty = True

    # ------------------------------------------------------------ time

    def host_ok(self, now: int) -> bool:
        return self.host_seen and ticks_diff(now, self.host_at) < HOST_TIMEOUT_MS

    def flags(self, now: int) -> int:
        st = self.countdown.state
        return (
            (p.HB_RUNNING if st == t.RUNNING else 0)
            | (p.HB_PAUSED if st == t.PAUSED else 0)
            | (p.HB_EXPIRED if st == t.EXPIRED else 0)
            | (p.HB_MUTED if self.muted else 0)
            | (p.HB_HOST_OK if self.host_ok(now) else 0)
            | (p.HB_HAS_STATE if self.have_state else 0)
        )

    def _heartbeat(self, now: int) -> None:
        payload = p.encode_heartbeat(
            self.boot_id,
            self.rev,
            self.turn,
            self.current,
            self.flags(now),
            self.countdown.remaining(now),
        )
        self._send(p.HEARTBEAT, payload)
        self.next_heartbeat = ticks_add(now, HEARTBEAT_MS if self.have_state else HEARTBEAT_FAST_MS)

    def poll(self, now: int) -> bytes:
        """Advance time: beeps, expiry, heartbeats, retries. Returns the bytes to write."""
        ok = self.host_ok(now)
        if ok != self.shown_ok:
            self.shown_ok = ok
            self.dirty = True  # the link indicator changed
        what = self.countdown.poll(now)
        if what == t.BEEP:
            self._sound(SOUND_BEEP)
        elif what == t.EXPIRE:
            self._sound(SOUND_EXPIRE)
            self._event(p.EV_EXPIRED, self.turn, self.current, 0, now)
        if ticks_diff(now, self.next_heartbeat) >= 0:
            self._heartbeat(now)
        if self.outbox and ticks_diff(now, self.retry_at) >= 0:
            self.tx.append(self.outbox[0][1])
            self.retry_at = ticks_add(now, RETRY_MS)
        return self.take_output()
