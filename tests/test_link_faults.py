"""Fault injection on a virtual clock: the host's LinkCore and the firmware's Device, with a
channel between them that adds garbage, corrupts 10% of frames and drops bytes.

No real time passes, so minutes of play (and a 10 s host outage) take well under a second.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from firmware import protocol as p
from firmware import screen
from firmware import timer as t
from firmware.device import Device
from host.link.framebuffer import FrameBuffer
from host.link.session import LinkCore

STEP_MS = 2
PLAYERS = ["ann", "bob", "cy", "dee"]


class RecordingDevice(Device):
    """The firmware's Device, noting every state it applies and every event it raises."""

    def __init__(self, boot_id: int, now: int) -> None:
        self.applied_revs: list[int] = []
        self.raised: list[tuple[int, int, int]] = []  # (kind, turn, player)
        super().__init__(boot_id, now, allow_press=True)

    def apply_state(self, st: p.State, now: int) -> None:
        self.applied_revs.append(st.rev)
        super().apply_state(st, now)

    def _event(self, kind: int, turn: int, player: int, remaining: int, now: int) -> int:
        self.raised.append((kind, turn, player))
        return super()._event(kind, turn, player, remaining, now)


@dataclass
class Channel:
    """One direction of the USB cable, made unreliable on purpose."""

    rng: random.Random
    corrupt: float = 0.0  # share of frames with one byte flipped
    drop: float = 0.0  # share of frames that lose one byte
    garbage: float = 0.0  # chance of junk (REPL text, random bytes, zeros) after a write
    cut: bool = False  # the far end is gone: everything is lost
    damaged: int = 0
    queue: list[tuple[int, bytes]] = field(default_factory=list)

    def send(self, data: bytes, now: int) -> None:
        if not data or self.cut:
            return
        out = bytearray()
        for chunk in data.split(b"\x00"):
            if chunk:
                frame = bytearray(chunk)
                if self.rng.random() < self.corrupt:
                    frame[self.rng.randrange(len(frame))] ^= 1 << self.rng.randrange(8)
                    self.damaged += 1
                if self.rng.random() < self.drop and len(frame) > 1:
                    del frame[self.rng.randrange(len(frame))]
                    self.damaged += 1
                out += frame
            out.append(0)
        if self.rng.random() < self.garbage:
            junk = self.rng.choice(
                [
                    b"MicroPython v1.28.0; Raspberry Pi Pico\r\n>>> ",
                    bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 60))),
                    b"\x00\x00\x00",
                ]
            )
            out += junk
        self.queue.append((now + 1, bytes(out[:-1])))  # 1 ms on the wire

    def receive(self, now: int) -> bytes:
        ready = [d for at, d in self.queue if at <= now]
        self.queue = [(at, d) for at, d in self.queue if at > now]
        return b"".join(ready)


class Table:
    """Host, device and the two channels, stepped together on a virtual millisecond clock."""

    def __init__(self, seed: int, corrupt: float = 0.0, drop: float = 0.0, garbage: float = 0.0):
        self.rng = random.Random(seed)
        self.now = 1_000_000
        self.host = LinkCore()
        self.down = Channel(random.Random(seed + 1), corrupt, drop, garbage)
        self.up = Channel(random.Random(seed + 2), corrupt, drop, garbage)
        self.dev = RecordingDevice(0x1000 + seed, self.now)
        self.boots = [self.dev]
        self.host.connection_made(self.secs)
        self.events: list[tuple[str, int, int]] = []
        self.host_paused = False

    @property
    def secs(self) -> float:
        return self.now / 1000

    def reboot(self) -> None:
        self.dev = RecordingDevice(self.rng.getrandbits(32), self.now)
        self.boots.append(self.dev)

    def step(self, ms: int = STEP_MS) -> None:
        for _ in range(max(1, ms // STEP_MS)):
            self.now += STEP_MS
            self.up.send(self.dev.poll(self.now), self.now)
            self.dev.feed(self.down.receive(self.now), self.now)
            self.up.send(self.dev.take_output(), self.now)
            if self.host_paused:
                continue
            self.host.feed(self.up.receive(self.now), self.secs)
            self.down.send(self.host.poll(self.secs), self.now)
            while self.host.events:
                ev = self.host.events.popleft()
                if ev.kind in p.EVENT_NAMES.values():
                    self.events.append((ev.kind, ev.turn, ev.player))

    def run_until(self, cond: object, limit_ms: int) -> int:
        """Step until cond() is true; returns the virtual ms it took (fails past limit_ms)."""
        start = self.now
        while not cond():  # type: ignore[operator]
            assert self.now - start <= limit_ms, f"not within {limit_ms} ms"
            self.step()
        return self.now - start

    def in_sync(self) -> bool:
        st, dev = self.host.state, self.dev
        return (
            dev.have_state
            and dev.players == st.players
            and dev.scores == st.scores
            and dev.current == st.current
            and dev.turn == st.turn
            and dev.message == st.message
        )


def raised_events(table: Table) -> list[tuple[str, int, int]]:
    return [(p.EVENT_NAMES[k], turn, pl) for dev in table.boots for k, turn, pl in dev.raised]


def play(table: Table, seconds: int) -> int:
    """A referee that changes scores, confirms done presses, and a player who presses done."""
    commands = 0
    scores = [0] * len(PLAYERS)
    table.host.set_state(PLAYERS, 0, scores, 20, game="rummikub")
    for _ in range(seconds * 4):
        table.step(250)
        roll = table.rng.random()
        if roll < 0.3:
            scores[table.rng.randrange(len(scores))] += table.rng.randrange(1, 30)
            st = table.host.state
            table.host.set_state(PLAYERS, st.current, scores, 20, game="rummikub")
            commands += 1
        elif roll < 0.4 and table.dev.have_state:
            table.dev.press(p.BTN_DONE, table.now)
        elif roll < 0.42 and table.dev.have_state:
            table.dev.press(p.BTN_PAUSE, table.now)
    return commands


def assert_exactly_once(table: Table) -> None:
    for dev in table.boots:
        assert len(dev.applied_revs) == len(set(dev.applied_revs)), "a state applied twice"
        assert dev.applied_revs == sorted(dev.applied_revs), "states applied out of order"
    assert table.events == raised_events(table), "device events lost or reported twice"


def test_clean_link_delivers_everything_once() -> None:
    table = Table(seed=1)
    commands = play(table, 60)
    table.run_until(lambda: table.in_sync() and table.host.applied, 2000)
    assert commands > 10 and table.host.stats["retries"] == 0
    assert_exactly_once(table)


def test_garbage_corruption_and_drops() -> None:
    table = Table(seed=2, corrupt=0.10, drop=0.05, garbage=0.2)
    commands = play(table, 120)
    table.down.corrupt = table.up.corrupt = table.down.drop = table.up.drop = 0
    table.run_until(lambda: table.in_sync() and table.host.applied and not table.dev.outbox, 3000)
    assert commands > 20
    assert table.down.damaged > 30 and table.up.damaged > 50  # the faults really happened
    assert table.host.stats["retries"] > 10 and table.dev.decoder.errors > 20
    assert len(table.events) > 20
    assert_exactly_once(table)


def test_reboot_mid_game_restores_state_within_two_seconds() -> None:
    table = Table(seed=3, corrupt=0.10, garbage=0.2)
    play(table, 30)
    table.run_until(lambda: table.in_sync() and table.host.applied, 3000)
    table.step(5000)  # well into the turn
    left_before = table.dev.countdown.remaining(table.now)
    paused_before = table.dev.countdown.state == t.PAUSED
    table.reboot()
    took = table.run_until(table.in_sync, 2000)
    assert took <= 2000
    left_after = table.dev.countdown.remaining(table.now)
    # the countdown carries on where it was (less the time the reboot took), not from 20 s
    expected = left_before if paused_before else left_before - took
    assert abs(left_after - expected) <= 1100, (left_before, left_after, took)
    assert (table.dev.countdown.state == t.PAUSED) == paused_before
    assert table.host.status.boot_id == table.dev.boot_id
    play_more = play(table, 20)
    table.run_until(lambda: table.in_sync() and not table.dev.outbox, 3000)
    assert play_more > 0
    assert_exactly_once(table)


def test_host_gone_for_ten_seconds() -> None:
    table = Table(seed=4, garbage=0.1)
    table.host.set_state(PLAYERS, 1, [5, 6, 7, 8], 60, game="rummikub")
    table.run_until(table.in_sync, 1000)
    left = table.dev.countdown.remaining(table.now)
    table.host_paused = True
    table.down.cut = True  # nothing from the host, and nobody reads what the device says
    table.step(4000)
    fb = FrameBuffer()
    screen.render(table.dev, fb, table.now)
    assert "HOST LOST" in fb.to_ascii() or not table.dev.host_ok(table.now)
    assert not table.dev.host_ok(table.now)
    table.dev.press(p.BTN_DONE, table.now)  # a player moves on while the host is away
    table.step(6000)
    # the countdown kept going for the whole outage: 10 s for bob, then a fresh turn for cy
    assert table.dev.current == 2 and table.dev.countdown.remaining(table.now) == 54000
    assert left - 10000 > 0
    table.up.queue.clear()
    table.host_paused = False
    table.down.cut = False
    took = table.run_until(
        lambda: table.dev.host_ok(table.now) and table.host.connected(table.secs), 2000
    )
    assert took < 2000
    table.run_until(lambda: ("done", 1, 1) in table.events, 2000)
    assert table.host.state.current == 2  # the link mirrored the device's own move
    assert_exactly_once(table)


def test_garbage_only_never_confuses_the_device() -> None:
    dev = Device(9, 0)
    rng = random.Random(5)
    junk = bytes(rng.randrange(256) for _ in range(200_000))
    for i in range(0, len(junk), 997):
        dev.feed(junk[i : i + 997], i)
    assert not dev.have_state and dev.applied == 0
    assert dev.decoder.errors > 0 and len(dev.decoder.buf) <= p.MAX_ENCODED
