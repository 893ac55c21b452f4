"""The host's side of the protocol, free of I/O: bytes in, bytes out, events, virtual time.

``DeviceLink`` (client.py) runs this over a serial port in a thread; the fault-injection tests
run it against ``firmware.device.Device`` on a virtual clock with a lossy channel in between.

Delivery rules:
- Commands go one at a time (stop-and-wait) and are retried every ``RETRY_S`` until ACKed.
  STATE carries the whole picture and only the newest one is ever sent, so a retry or a
  superseded state can never be applied out of order; the device applies each rev once.
- Device events are ACKed every time they arrive but reported once (deduplicated by boot id and
  sequence number).
- A new boot id (HELLO or heartbeat) means the device forgot everything: the full state is
  pushed again at once, with the time left on the running turn as last reported.
"""

from __future__ import annotations

import collections
import logging
import random
from dataclasses import dataclass, field

from host.link import codec as p

log = logging.getLogger(__name__)

RETRY_S = 0.2
HEARTBEAT_S = 1.0
DEVICE_TIMEOUT_S = 3.0

# Link-level event kinds, reported next to the device's own (done, expired, pause, ...).
LINK_UP = "link_up"
LINK_DOWN = "link_down"
DEVICE_RESET = "device_reset"
REJECTED = "rejected"


@dataclass(frozen=True)
class DeviceEvent:
    """Something that happened on the device (or to the link), for the referee.

    ``kind``: "done", "expired", "pause", "resume", "mute", "unmute" (from the device) or
    "link_up", "link_down", "device_reset", "rejected" (from the link). For "done", ``player``
    is the player whose turn just ended and ``turn`` that turn's number; the device has already
    started the next player's timer.
    """

    kind: str
    turn: int = -1
    player: int = -1
    player_name: str = ""
    remaining_ms: int = 0
    boot_id: int = 0
    detail: str = ""


@dataclass
class DeviceStatus:
    """The device as last reported by its heartbeat."""

    boot_id: int | None = None
    rev: int = 0
    turn: int = 0
    current: int = p.NO_PLAYER
    remaining_ms: int = 0
    running: bool = False
    paused: bool = False
    expired: bool = False
    muted: bool = False
    host_ok: bool = False
    has_state: bool = False
    role: int = 0
    reported_at: float = 0.0


@dataclass
class _Timing:
    """The countdown of the turn the device was last timing (kept across its reboots)."""

    turn: int = -1
    current: int = p.NO_PLAYER
    remaining_ms: int = 0
    running: bool = False
    expired: bool = False
    at: float = 0.0


@dataclass
class _Inflight:
    seq: int
    ftype: int
    frame: bytes
    sent_at: float
    rev: int = -1


def _fresh_state() -> p.State:
    # Revisions start at a random number so that a restarted host can never repeat the rev the
    # device applied last (it would be ACKed but not applied).
    return p.State(rev=random.getrandbits(31))


@dataclass
class LinkCore:
    state: p.State = field(default_factory=_fresh_state)
    status: DeviceStatus = field(default_factory=DeviceStatus)

    def __post_init__(self) -> None:
        self.decoder = p.Decoder()
        self.seq = 0
        self.have_state = False  # the referee has set something to show
        self.acked_rev = -1  # newest rev the current boot of the device has ACKed
        self.inflight: _Inflight | None = None
        self.presses: collections.deque[int] = collections.deque()
        self.events: collections.deque[DeviceEvent] = collections.deque()
        self._seen: collections.deque[tuple[int, int]] = collections.deque(maxlen=64)
        self.tx: list[bytes] = []
        self.device_at: float | None = None
        self.last_event_seq = 0  # newest device event taken into account (this boot)
        self.timing = _Timing()
        self.next_heartbeat = 0.0
        self.up = False
        self.stats = {"sent": 0, "retries": 0, "acked": 0, "naks": 0, "events": 0, "damaged": 0}

    # ------------------------------------------------------------ referee side

    def set_state(
        self,
        players: list[str],
        current: int | None,
        scores: list[int],
        timer_seconds: float,
        running: bool | None = None,
        message: str = "",
        game: str = "",
        new_turn: bool | None = None,
        muted: bool | None = None,
    ) -> int:
        """Replace what the device shows; returns the state's revision number."""
        if len(scores) != len(players):
            raise ValueError(f"{len(players)} players but {len(scores)} scores")
        if len(players) > p.MAX_PLAYERS:
            raise ValueError(f"{len(players)} players; the device shows at most {p.MAX_PLAYERS}")
        cur = p.NO_PLAYER if current is None else current
        if cur != p.NO_PLAYER and not 0 <= cur < len(players):
            raise ValueError(f"current player {current} is not one of {len(players)} players")
        if timer_seconds < 0:
            raise ValueError("timer_seconds must not be negative")
        old = self.state
        if new_turn is None:
            new_turn = not self.have_state or cur != old.current
        st = p.State(
            rev=old.rev + 1,
            turn=(old.turn + 1) & 0xFFFF if new_turn else old.turn,
            current=cur,
            running=(True if new_turn else old.running) if running is None else running,
            muted=old.muted if muted is None else muted,
            expired=False if new_turn else old.expired,
            timer_ms=round(timer_seconds * 1000),
            remaining_ms=0,
            game=p.fit_text(game, p.MAX_GAME),
            message=p.fit_text(message, p.MAX_MESSAGE),
            players=[p.fit_text(name, p.MAX_NAME) for name in players],
            scores=[int(s) for s in scores],
        )
        self.state = st
        self.have_state = True
        return st.rev

    def press(self, button: int) -> None:
        """Press a button on a simulated device (real firmware refuses with NAK)."""
        self.presses.append(button)

    @property
    def applied(self) -> bool:
        """The device has acknowledged the newest state."""
        return self.have_state and self.acked_rev == self.state.rev

    # ------------------------------------------------------------ connection

    def connection_made(self, now: float) -> None:
        self.decoder.reset()
        self.inflight = None
        self.tx.append(self._frame(p.HELLO, p.encode_hello(0, 0, "tableref-host")))
        self.tx.append(self._frame(p.HEARTBEAT))
        self.next_heartbeat = now + HEARTBEAT_S

    def connection_lost(self) -> None:
        self.inflight = None
        self.device_at = None
        if self.up:
            self.up = False
            self.events.append(DeviceEvent(LINK_DOWN, boot_id=self.status.boot_id or 0))

    def connected(self, now: float) -> bool:
        return self.device_at is not None and now - self.device_at < DEVICE_TIMEOUT_S

    # ------------------------------------------------------------ bytes in

    def _frame(self, ftype: int, payload: bytes = b"", seq: int | None = None) -> bytes:
        if seq is None:
            self.seq = (self.seq + 1) & 0xFFFF
            seq = self.seq
        return p.encode_frame(seq, ftype, payload)

    def feed(self, data: bytes, now: float) -> None:
        damaged = self.decoder.errors
        frames = self.decoder.feed(data)
        if self.decoder.errors != damaged:
            # Line noise is expected (the retries recover it), so it is counted, not an event.
            self.stats["damaged"] = self.decoder.errors
            log.info("dropped damaged frame(s) from the device: %s", self.decoder.last_error)
        for exc in self.decoder.rejected:
            self.events.append(DeviceEvent(REJECTED, detail=f"device speaks {exc}"))
        self.decoder.rejected = []
        for seq, ftype, payload in frames:
            try:
                self._handle(seq, ftype, payload, now)
            except p.ProtocolError as exc:
                # A sound frame (CRC fine) with a payload we cannot read: a firmware mismatch.
                self.events.append(DeviceEvent(REJECTED, detail=f"bad {ftype:#x} payload: {exc}"))
                if ftype == p.EVENT:  # refuse it, or the device would resend it forever
                    self.tx.append(self._frame(p.NAK, p.encode_nak(p.NAK_PAYLOAD, str(exc)), seq))

    def _heard(self, boot_id: int, now: float) -> None:
        self.device_at = now
        if boot_id != self.status.boot_id:
            first = self.status.boot_id is None
            self.status.boot_id = boot_id
            self.acked_rev = -1  # a fresh boot knows nothing: push everything again
            self.inflight = None
            self._seen.clear()
            self.last_event_seq = 0
            if not first:
                self.events.append(DeviceEvent(DEVICE_RESET, boot_id=boot_id))
        if not self.up:
            self.up = True
            self.events.append(DeviceEvent(LINK_UP, boot_id=boot_id))

    def _handle(self, seq: int, ftype: int, payload: bytes, now: float) -> None:
        if ftype == p.HELLO:
            _version, boot_id, role, _name = p.decode_hello(payload)
            self.status.role = role
            self._heard(boot_id, now)
        elif ftype == p.HEARTBEAT:
            boot_id, rev, turn, current, flags, remaining = p.decode_heartbeat(payload)
            self._heard(boot_id, now)
            s = self.status
            s.rev, s.turn, s.current, s.remaining_ms, s.reported_at = (
                rev,
                turn,
                current,
                remaining,
                now,
            )
            s.running = bool(flags & p.HB_RUNNING)
            s.paused = bool(flags & p.HB_PAUSED)
            s.expired = bool(flags & p.HB_EXPIRED)
            s.muted = bool(flags & p.HB_MUTED)
            s.host_ok = bool(flags & p.HB_HOST_OK)
            s.has_state = bool(flags & p.HB_HAS_STATE)
            if s.has_state:
                self.timing = _Timing(turn, current, remaining, s.running, s.expired, now)
            elif self.acked_rev >= 0 and self.inflight is None:
                self.acked_rev = -1  # it lost our state without rebooting: send it again
        elif ftype in (p.ACK, p.NAK):
            self.device_at = now
            nak = p.decode_nak(payload) if ftype == p.NAK else None
            fl = self.inflight
            if fl is None or fl.seq != seq:
                return  # the answer to a frame already settled (a retry's twin)
            # Either way the command is done with: a NAKed one would be refused again.
            if fl.ftype == p.STATE:
                self.acked_rev = fl.rev
            elif fl.ftype == p.PRESS and self.presses:
                self.presses.popleft()
            self.inflight = None
            if nak is None:
                self.stats["acked"] += 1
                return
            self.stats["naks"] += 1
            code, reason = nak
            what = p.TYPE_NAMES.get(fl.ftype, str(fl.ftype))
            self.events.append(
                DeviceEvent(REJECTED, detail=f"device refused {what} (code {code}): {reason}")
            )
        elif ftype == p.EVENT:
            self.device_at = now
            kind, turn, player, remaining = p.decode_event(payload)
            self.tx.append(self._frame(p.ACK, seq=seq))
            key = (self.status.boot_id or 0, seq)
            if key in self._seen:
                return  # a retry of an event we already reported
            self._seen.append(key)
            self.stats["events"] += 1
            self.last_event_seq = seq
            self._mirror(kind, turn, player, remaining, now)
            if self.have_state:
                # Re-send with the new ``seen``: a state the device judged stale (built before
                # this press) is then applied whole, so both sides end up the same.
                self.state.rev = (self.state.rev + 1) & 0x7FFFFFFF
            names = self.state.players
            self.events.append(
                DeviceEvent(
                    p.EVENT_NAMES[kind],
                    turn=turn,
                    player=player if player != p.NO_PLAYER else -1,
                    player_name=names[player] if 0 <= player < len(names) else "",
                    remaining_ms=remaining,
                    boot_id=self.status.boot_id or 0,
                )
            )

    def _mirror(self, kind: int, turn: int, player: int, remaining: int, now: float) -> None:
        """Keep our copy of the state in step with what the device already did by itself.

        Not pushed (the device has it); it matters for the next push, e.g. after a reboot.
        """
        st = self.state
        if kind in (p.EV_MUTE, p.EV_UNMUTE):
            st.muted = kind == p.EV_MUTE
            return
        if turn != st.turn or not st.players:
            return  # about a turn the referee has already moved past
        if kind == p.EV_DONE:
            st.current = (player + 1) % len(st.players)
            st.turn = (turn + 1) & 0xFFFF
            st.running = True
            st.expired = False
            self.timing = _Timing(st.turn, st.current, st.timer_ms, True, False, now)
        elif kind == p.EV_EXPIRED:
            st.expired = True
            self.timing = _Timing(turn, player, 0, False, True, now)
        elif kind in (p.EV_PAUSE, p.EV_RESUME):
            st.running = kind == p.EV_RESUME
            self.timing = _Timing(turn, player, remaining, st.running, False, now)

    # ------------------------------------------------------------ bytes out

    def _remaining_for_push(self, now: float) -> int:
        """Time left on the current turn, for a device that rebooted mid-turn (0 = full)."""
        tm = self.timing
        st = self.state
        if tm.turn != st.turn or tm.current != st.current or tm.expired:
            return 0
        left = tm.remaining_ms
        if tm.running:
            left -= int((now - tm.at) * 1000)
        return max(1, left)

    def poll(self, now: float) -> bytes:
        if self.up and not self.connected(now):
            self.up = False
            self.events.append(DeviceEvent(LINK_DOWN, boot_id=self.status.boot_id or 0))
        if now >= self.next_heartbeat:
            self.tx.append(self._frame(p.HEARTBEAT))
            if self.status.boot_id is None:
                self.tx.append(self._frame(p.HELLO, p.encode_hello(0, 0, "tableref-host")))
            self.next_heartbeat = now + HEARTBEAT_S
        fl = self.inflight
        if fl is not None and now - fl.sent_at >= RETRY_S:
            if fl.ftype == p.STATE and fl.rev != self.state.rev:
                self.inflight = None  # superseded: send the newest instead of retrying
            else:
                fl.sent_at = now
                self.tx.append(fl.frame)
                self.stats["retries"] += 1
        if self.inflight is None and self.connected(now):
            self._send_next(now)
        out = b"".join(self.tx)
        self.tx = []
        return out

    def _send_next(self, now: float) -> None:
        if self.presses:
            frame = self._frame(p.PRESS, p.encode_press(self.presses[0]))
            self.inflight = _Inflight(self.seq, p.PRESS, frame, now)
        elif self.have_state and self.acked_rev != self.state.rev:
            st = self.state
            st.remaining_ms = self._remaining_for_push(now)
            st.seen = self.last_event_seq
            if self.timing.turn == st.turn and self.timing.current == st.current:
                st.expired = self.timing.expired
            frame = self._frame(p.STATE, p.encode_state(st))
            self.inflight = _Inflight(self.seq, p.STATE, frame, now, st.rev)
        else:
            return
        self.stats["sent"] += 1
        self.tx.append(frame)
