"""The serial protocol codec: ONE file, run unchanged by the Pico and by the host.

The host imports this very file (``host/link/codec.py`` re-exports it), so a frame the host
writes is decoded by the same lines of code that the device runs. Only ``struct`` and
``binascii`` are used, because those exist on MicroPython and CPython alike.

Wire format (see firmware/PROTOCOL.md for every message)::

    0x00 | COBS( version u8 | seq u16 | type u8 | payload | crc32 u32 ) | 0x00

All integers are little-endian; the CRC-32 (IEEE, as ``binascii.crc32``) covers everything
before it. The leading 0x00 flushes whatever garbage (REPL noise, a half frame) came before.
"""

import struct
from binascii import crc32

VERSION = 1

# Frame types.
HELLO = 0x01
ACK = 0x02
NAK = 0x03
HEARTBEAT = 0x04
STATE = 0x10
PRESS = 0x11
REPL = 0x12
EVENT = 0x20

TYPE_NAMES = {
    HELLO: "HELLO",
    ACK: "ACK",
    NAK: "NAK",
    HEARTBEAT: "HEARTBEAT",
    STATE: "STATE",
    PRESS: "PRESS",
    REPL: "REPL",
    EVENT: "EVENT",
}

# NAK codes.
NAK_VERSION = 1
NAK_PAYLOAD = 2
NAK_TYPE = 3
NAK_UNSUPPORTED = 4

# EVENT kinds (device -> host).
EV_DONE = 1
EV_EXPIRED = 2
EV_PAUSE = 3
EV_RESUME = 4
EV_MUTE = 5
EV_UNMUTE = 6

EVENT_NAMES = {
    EV_DONE: "done",
    EV_EXPIRED: "expired",
    EV_PAUSE: "pause",
    EV_RESUME: "resume",
    EV_MUTE: "mute",
    EV_UNMUTE: "unmute",
}

# Buttons (PRESS payload, and the firmware's own button ids).
BTN_DONE = 1
BTN_PAUSE = 2
BTN_MUTE = 3

# STATE flags.
ST_RUNNING = 0x01
ST_MUTED = 0x02
ST_EXPIRED = 0x04

# HEARTBEAT (device) flags.
HB_RUNNING = 0x01
HB_PAUSED = 0x02
HB_EXPIRED = 0x04
HB_MUTED = 0x08
HB_HOST_OK = 0x10
HB_HAS_STATE = 0x20

NO_PLAYER = 0xFF

# Limits: a decoded frame (header + payload + crc) never exceeds MAX_FRAME bytes, so the
# device's receive buffer is bounded and a runaway stream of noise cannot exhaust its heap.
MAX_FRAME = 255
HEADER_LEN = 4
CRC_LEN = 4
MAX_PAYLOAD = MAX_FRAME - HEADER_LEN - CRC_LEN
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 2
MAX_PLAYERS = 8
MAX_NAME = 12
MAX_GAME = 16
MAX_MESSAGE = 48


class ProtocolError(ValueError):
    """A frame or payload that does not decode; the message says what is wrong."""


class VersionError(ProtocolError):
    """A frame with a valid CRC but another protocol version (answered by NAK)."""

    def __init__(self, seq: int, version: int) -> None:
        super().__init__(f"protocol version {version}, expected {VERSION}")
        self.seq = seq
        self.version = version


# ---------------------------------------------------------------- COBS


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no 0x00."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    n = len(data)
    for i in range(n):
        b = data[i]
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:  # a full block of 254 data bytes
                out[code_at] = code
                code = 1
                if i + 1 == n:
                    return bytes(out)
                code_at = len(out)
                out.append(0)
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("COBS: zero byte inside a frame")
        end = i + code
        if end > n:
            raise ProtocolError("COBS: block runs past the frame end")
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------- frames


def encode_frame(seq: int, ftype: int, payload: bytes = b"") -> bytes:
    """One frame, delimiters included, ready to write."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = struct.pack("<BHB", VERSION, seq & 0xFFFF, ftype) + payload
    body += struct.pack("<I", crc32(body) & 0xFFFFFFFF)
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(encoded: bytes) -> tuple[int, int, bytes]:
    """COBS bytes between two delimiters -> (seq, type, payload).

    Raises ProtocolError for anything damaged and VersionError (which carries the seq, so it
    can be answered) for a sound frame of another protocol version.
    """
    body = cobs_decode(encoded)
    if len(body) < HEADER_LEN + CRC_LEN:
        raise ProtocolError(f"frame of {len(body)} bytes is shorter than header and CRC")
    (want,) = struct.unpack("<I", body[-CRC_LEN:])
    if crc32(body[:-CRC_LEN]) & 0xFFFFFFFF != want:
        raise ProtocolError("CRC mismatch")
    version, seq, ftype = struct.unpack("<BHB", body[:HEADER_LEN])
    if version != VERSION:
        raise VersionError(seq, version)
    return seq, ftype, bytes(body[HEADER_LEN:-CRC_LEN])


class Decoder:
    """Splits a byte stream at 0x00 and decodes frames; noise is counted and dropped.

    ``feed`` returns (seq, type, payload) for each sound frame; sound frames of another
    protocol version are kept in ``rejected`` (the caller NAKs those and clears the list).
    """

    def __init__(self) -> None:
        self.buf = bytearray()
        self.overflow = False
        self.frames = 0
        self.errors = 0  # damaged frames: bad COBS or CRC
        self.noise = 0  # bytes dropped because a frame was too long to be one of ours
        self.last_error = ""  # why the latest damaged frame was dropped, for diagnostics
        self.rejected: list[VersionError] = []

    def reset(self) -> None:
        self.buf = bytearray()
        self.overflow = False

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        found: list[tuple[int, int, bytes]] = []
        start = 0
        n = len(data)
        while start < n:
            z = data.find(b"\x00", start)
            end = n if z < 0 else z
            if not self.overflow:
                self.buf.extend(data[start:end])
                if len(self.buf) > MAX_ENCODED:
                    self.noise += len(self.buf)
                    self.buf = bytearray()
                    self.overflow = True
            else:
                self.noise += end - start
            if z < 0:
                break
            if self.overflow:
                self.overflow = False
            elif self.buf:
                chunk = bytes(self.buf)
                self.buf = bytearray()
                try:
                    found.append(decode_frame(chunk))
                    self.frames += 1
                except VersionError as exc:
                    self.rejected.append(exc)
                except ProtocolError as exc:
                    self.errors += 1
                    self.last_error = str(exc)
            start = z + 1
        return found


# ---------------------------------------------------------------- payload helpers


def _put_str(out: bytearray, text: str, limit: int) -> None:
    raw = text.encode("utf-8")
    if len(raw) > limit:
        raise ProtocolError(f"text {text!r} is {len(raw)} bytes, limit {limit}")
    out.append(len(raw))
    out.extend(raw)


def _get_str(data: bytes, at: int, limit: int, what: str) -> tuple[str, int]:
    if at >= len(data):
        raise ProtocolError(f"payload ends before {what}")
    size = data[at]
    at += 1
    if size > limit or at + size > len(data):
        raise ProtocolError(f"{what}: bad length {size}")
    try:
        text = bytes(data[at : at + size]).decode("utf-8")
    except UnicodeError:
        raise ProtocolError(f"{what} is not UTF-8") from None
    return text, at + size


def _need(data: bytes, size: int, what: str) -> None:
    if len(data) < size:
        raise ProtocolError(f"{what} payload is {len(data)} bytes, needs {size}")


def fit_text(text: str, limit: int) -> str:
    """Shorten ``text`` to at most ``limit`` UTF-8 bytes without splitting a character."""
    while len(text.encode("utf-8")) > limit:
        text = text[:-1]
    return text


# ---------------------------------------------------------------- messages


class State:
    """STATE (host -> device): everything the device shows, sent whole every time."""

    def __init__(
        self,
        rev: int = 0,
        turn: int = 0,
        current: int = NO_PLAYER,
        running: bool = False,
        muted: bool = False,
        expired: bool = False,
        timer_ms: int = 0,
        remaining_ms: int = 0,
        game: str = "",
        message: str = "",
        players: list[str] | None = None,
        scores: list[int] | None = None,
        seen: int = 0,
    ) -> None:
        self.rev = rev
        self.turn = turn
        self.current = current
        self.running = running
        self.muted = muted
        self.expired = expired
        self.timer_ms = timer_ms
        self.remaining_ms = remaining_ms
        self.game = game
        self.message = message
        self.players = players if players is not None else []
        self.scores = scores if scores is not None else []
        # seq of the last device EVENT the host had taken into account: lets the device tell
        # a state that predates one of its own button presses (see device.apply_state)
        self.seen = seen

    def fields(self) -> tuple[object, ...]:
        return (
            self.rev,
            self.turn,
            self.current,
            self.running,
            self.muted,
            self.expired,
            self.timer_ms,
            self.remaining_ms,
            self.game,
            self.message,
            list(self.players),
            list(self.scores),
            self.seen,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"State{self.fields()!r}"


STATE_HEAD = "<IHHBBII"
STATE_HEAD_LEN = 18


def encode_state(st: State) -> bytes:
    n = len(st.players)
    if n > MAX_PLAYERS or len(st.scores) != n:
        raise ProtocolError(f"{n} players with {len(st.scores)} scores (at most {MAX_PLAYERS})")
    if st.current != NO_PLAYER and not 0 <= st.current < n:
        raise ProtocolError(f"current player {st.current} out of range")
    flags = (
        (ST_RUNNING if st.running else 0)
        | (ST_MUTED if st.muted else 0)
        | (ST_EXPIRED if st.expired else 0)
    )
    out = bytearray(
        struct.pack(
            STATE_HEAD,
            st.rev & 0xFFFFFFFF,
            st.turn & 0xFFFF,
            st.seen & 0xFFFF,
            st.current,
            flags,
            st.timer_ms,
            st.remaining_ms,
        )
    )
    _put_str(out, st.game, MAX_GAME)
    _put_str(out, st.message, MAX_MESSAGE)
    out.append(n)
    for i in range(n):  # MicroPython's zip takes no strict=
        _put_str(out, st.players[i], MAX_NAME)
        out.extend(struct.pack("<i", st.scores[i]))
    return bytes(out)


def decode_state(data: bytes) -> State:
    _need(data, STATE_HEAD_LEN, "STATE")
    rev, turn, seen, current, flags, timer_ms, remaining_ms = struct.unpack(
        STATE_HEAD, data[:STATE_HEAD_LEN]
    )
    game, at = _get_str(data, STATE_HEAD_LEN, MAX_GAME, "game")
    message, at = _get_str(data, at, MAX_MESSAGE, "message")
    if at >= len(data):
        raise ProtocolError("payload ends before the player count")
    n = data[at]
    at += 1
    if n > MAX_PLAYERS:
        raise ProtocolError(f"{n} players, at most {MAX_PLAYERS}")
    players = []
    scores = []
    for i in range(n):
        name, at = _get_str(data, at, MAX_NAME, f"player {i} name")
        if at + 4 > len(data):
            raise ProtocolError(f"payload ends inside player {i} score")
        players.append(name)
        scores.append(struct.unpack("<i", data[at : at + 4])[0])
        at += 4
    if at != len(data):
        raise ProtocolError(f"{len(data) - at} stray bytes after STATE")
    if current != NO_PLAYER and current >= n:
        raise ProtocolError(f"current player {current} out of range for {n} players")
    return State(
        rev,
        turn,
        current,
        bool(flags & ST_RUNNING),
        bool(flags & ST_MUTED),
        bool(flags & ST_EXPIRED),
        timer_ms,
        remaining_ms,
        game,
        message,
        players,
        scores,
        seen,
    )


def encode_hello(boot_id: int, role: int, name: str) -> bytes:
    """HELLO: protocol version u8, boot id u32, role u8 (0 host, 1 device, 2 simulator)."""
    out = bytearray(struct.pack("<BIB", VERSION, boot_id & 0xFFFFFFFF, role))
    _put_str(out, fit_text(name, 32), 32)
    return bytes(out)


def decode_hello(data: bytes) -> tuple[int, int, int, str]:
    """-> (protocol version, boot id, role, name)."""
    _need(data, 7, "HELLO")
    version, boot_id, role = struct.unpack("<BIB", data[:6])
    name, _ = _get_str(data, 6, 32, "name")
    return version, boot_id, role, name


def encode_nak(code: int, reason: str) -> bytes:
    out = bytearray([code])
    _put_str(out, fit_text(reason, 64), 64)
    return bytes(out)


def decode_nak(data: bytes) -> tuple[int, str]:
    _need(data, 2, "NAK")
    reason, _ = _get_str(data, 1, 64, "reason")
    return data[0], reason


HB_FORMAT = "<IIHBBI"
HB_LEN = 16


def encode_heartbeat(
    boot_id: int, rev: int, turn: int, current: int, flags: int, remaining_ms: int
) -> bytes:
    """Device heartbeat; the host's heartbeat has an empty payload."""
    return struct.pack(
        HB_FORMAT,
        boot_id & 0xFFFFFFFF,
        rev & 0xFFFFFFFF,
        turn & 0xFFFF,
        current,
        flags,
        remaining_ms,
    )


def decode_heartbeat(data: bytes) -> tuple[int, int, int, int, int, int]:
    """-> (boot id, applied rev, turn, current, flags, remaining ms)."""
    _need(data, HB_LEN, "HEARTBEAT")
    boot_id, rev, turn, current, flags, remaining = struct.unpack(HB_FORMAT, data[:HB_LEN])
    return boot_id, rev, turn, current, flags, remaining


EV_FORMAT = "<BHBI"
EV_LEN = 8


def encode_event(kind: int, turn: int, player: int, remaining_ms: int) -> bytes:
    return struct.pack(EV_FORMAT, kind, turn & 0xFFFF, player, remaining_ms)


def decode_event(data: bytes) -> tuple[int, int, int, int]:
    """-> (kind, turn, player, remaining ms)."""
    _need(data, EV_LEN, "EVENT")
    kind, turn, player, remaining = struct.unpack(EV_FORMAT, data[:EV_LEN])
    if kind not in EVENT_NAMES:
        raise ProtocolError(f"unknown event kind {kind}")
    return kind, turn, player, remaining


def encode_press(button: int) -> bytes:
    return bytes([button])


def decode_press(data: bytes) -> int:
    _need(data, 1, "PRESS")
    if data[0] not in (BTN_DONE, BTN_PAUSE, BTN_MUTE):
        raise ProtocolError(f"unknown button {data[0]}")
    return data[0]
