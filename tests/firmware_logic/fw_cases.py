"""Firmware logic cases that run unchanged under CPython (pytest) and MicroPython (run_mp.py).

Plain functions named case_*, plain asserts, and only what both interpreters have.
"""

import json

from firmware import buttons, leds, screen
from firmware import protocol as p
from firmware import timer as t
from firmware.clock import TICKS_PERIOD, ticks_add, ticks_diff
from firmware.device import HOST_TIMEOUT_MS, RETRY_MS, SOUND_BEEP, SOUND_EXPIRE, Device

HERE = __file__.rsplit("/", 1)[0]


def load_vectors() -> dict[str, list[dict[str, object]]]:
    with open(HERE + "/vectors.json") as f:
        data: dict[str, list[dict[str, object]]] = json.load(f)
    return data


def unhex(text: object) -> bytes:
    return bytes.fromhex(str(text))


def raises(fn: object, *args: object) -> str:
    """Call fn; return the ProtocolError message (fails if nothing was raised)."""
    try:
        fn(*args)  # type: ignore[operator]
    except p.ProtocolError as exc:
        return str(exc)
    raise AssertionError(f"expected ProtocolError from {args}")


class Lcg:
    """Deterministic bytes without the random module (same sequence on both interpreters)."""

    def __init__(self, seed: int) -> None:
        self.x = seed

    def next(self) -> int:
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 16) & 0xFF

    def bytes(self, n: int) -> bytes:
        return bytes([self.next() for _ in range(n)])


class Recorder(screen.Canvas):
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.rects = 0

    def fill(self, c: int) -> None:
        self.texts = []

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        self.rects += 1

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        self.texts.append(s)


def state(**kw: object) -> p.State:
    st = p.State(
        rev=1,
        turn=1,
        current=0,
        running=True,
        timer_ms=60000,
        game="rummikub",
        players=["ann", "bob", "cy"],
        scores=[10, -5, 0],
    )
    for k in kw:
        setattr(st, k, kw[k])
    return st


def frames(data: bytes) -> list[tuple[int, int, bytes]]:
    return p.Decoder().feed(data)


def events_in(data: bytes) -> list[tuple[int, int, bytes]]:
    return [f for f in frames(data) if f[1] == p.EVENT]


def fresh(now: int = 1000) -> Device:
    dev = Device(0xB007, now, allow_press=True)
    dev.take_output()
    return dev


def give(dev: Device, st: p.State, now: int, seq: int = 7) -> list[tuple[int, int, bytes]]:
    dev.feed(p.encode_frame(seq, p.STATE, p.encode_state(st)), now)
    return frames(dev.take_output())


# ---------------------------------------------------------------- codec


def case_cobs_vectors() -> None:
    for v in load_vectors()["cobs"]:
        raw, enc = unhex(v["raw"]), unhex(v["encoded"])
        assert p.cobs_encode(raw) == enc, v
        assert p.cobs_decode(enc) == raw, v


def case_cobs_roundtrip_random() -> None:
    rng = Lcg(7)
    for n in (0, 1, 253, 254, 255, 256, 600):
        data = rng.bytes(n)
        enc = p.cobs_encode(data)
        assert 0 not in enc
        assert p.cobs_decode(enc) == data


def case_frame_vectors() -> None:
    for v in load_vectors()["frames"]:
        frame = p.encode_frame(int(v["seq"]), int(v["type"]), unhex(v["payload"]))  # type: ignore[call-overload]
        assert frame == unhex(v["frame"]), v["name"]
        got = frames(frame)
        assert got == [(v["seq"], v["type"], unhex(v["payload"]))], v["name"]


def case_state_vectors() -> None:
    for v in load_vectors()["states"]:
        f = v["fields"]
        st = p.State(*f)  # type: ignore[misc]
        assert p.encode_state(st) == unhex(v["payload"]), v["name"]
        assert p.decode_state(unhex(v["payload"])) == st, v["name"]


def case_bad_payload_vectors() -> None:
    decoders = {"STATE": p.decode_state, "EVENT": p.decode_event, "HELLO": p.decode_hello}
    for v in load_vectors()["bad_payloads"]:
        msg = raises(decoders[str(v["type"])], unhex(v["payload"]))
        assert str(v["error"]) in msg, (v, msg)


def case_damaged_frames_are_dropped() -> None:
    good = p.encode_frame(3, p.HEARTBEAT, b"")
    flipped = bytearray(good)
    flipped[4] ^= 0x40
    assert frames(bytes(flipped)) == []
    assert frames(good[:-3] + b"\x00") == []
    dec = p.Decoder()
    dec.feed(bytes(flipped) + good)
    assert dec.errors == 1 and dec.frames == 1


def case_version_error_carries_seq() -> None:
    body = bytes([9, 0x34, 0x12, p.STATE])
    import binascii

    body += (binascii.crc32(body) & 0xFFFFFFFF).to_bytes(4, "little")
    dec = p.Decoder()
    assert dec.feed(b"\x00" + p.cobs_encode(body) + b"\x00") == []
    assert len(dec.rejected) == 1 and dec.rejected[0].seq == 0x1234


def case_noise_between_frames() -> None:
    a = p.encode_frame(1, p.HEARTBEAT, b"")
    b = p.encode_frame(2, p.ACK, b"")
    noise = b"MicroPython v1.28.0 on 2026-01-01; Raspberry Pi Pico\r\n>>> \x03\x04"
    got = frames(noise + a + Lcg(3).bytes(40) + b"\x00" + Lcg(4).bytes(40) + b)
    assert [(s, ty) for s, ty, _ in got] == [(1, p.HEARTBEAT), (2, p.ACK)]


def case_frames_split_byte_by_byte() -> None:
    data = p.encode_frame(5, p.STATE, p.encode_state(state())) * 2
    dec = p.Decoder()
    got = []
    for i in range(len(data)):
        got += dec.feed(data[i : i + 1])
    assert len(got) == 2 and got[0][0] == 5


def case_runaway_noise_is_bounded() -> None:
    dec = p.Decoder()
    dec.feed(b"\x55" * 5000)
    assert len(dec.buf) <= p.MAX_ENCODED
    got = dec.feed(p.encode_frame(9, p.ACK, b""))
    assert [g[0] for g in got] == [9] and dec.noise > 4000


def case_limits_refuse_clearly() -> None:
    msg = raises(p.encode_state, state(players=["a"] * 9, scores=[0] * 9))
    assert "9 players" in msg
    msg = raises(p.encode_state, state(players=["a-very-long-name"], scores=[1], current=0))
    assert "limit 12" in msg
    assert p.fit_text("Zoë-Zoë-Zoë-Zoë", 12).encode() == "Zoë-Zoë-Zo".encode()


# ---------------------------------------------------------------- timer


def case_beeps_at_ten_and_last_five_then_expiry() -> None:
    for start in (5000, TICKS_PERIOD - 20000):  # the second one wraps the tick counter
        cd = t.Countdown()
        cd.start(start, 60000)
        got = []
        for ms in range(0, 61000, 10):
            what = cd.poll(ticks_add(start, ms))
            if what:
                got.append((ms, what))
        want = [(50000, 1), (55000, 1), (56000, 1), (57000, 1), (58000, 1), (59000, 1)]
        want.append((60000, t.EXPIRE))
        assert got == want, got
        assert cd.state == t.EXPIRED and cd.seconds(ticks_add(start, 61000)) == 0


def case_pause_keeps_time() -> None:
    cd = t.Countdown()
    cd.start(0, 60000)
    assert cd.pause(20000)
    assert cd.remaining(90000) == 40000  # nothing passes while paused
    assert cd.resume(90000)
    assert cd.remaining(100000) == 30000 and cd.seconds(100001) == 30


def case_restart_mid_turn_skips_passed_beeps() -> None:
    cd = t.Countdown()
    cd.start(0, 7000)
    assert cd.poll(1500) == t.NOTHING  # 5.5 s left: the 10 s beep is behind us
    assert cd.poll(2000) == t.BEEP  # 5 s


def case_late_poll_does_not_stretch_the_turn() -> None:
    cd = t.Countdown()
    cd.start(0, 60000)
    assert cd.poll(30000) == t.NOTHING
    assert cd.poll(57500) == t.BEEP  # several thresholds crossed at once: one beep
    assert cd.poll(60001) == t.EXPIRE


def case_debounce_counts_one_press() -> None:
    deb = buttons.Debouncer(30)
    presses = 0
    samples = [(0, True), (2, False), (4, True), (6, False), (8, True)]
    samples += [(ms, True) for ms in range(10, 100, 2)] + [(100, False), (102, True)]
    samples += [(ms, False) for ms in range(104, 200, 2)]
    for ms, level in samples:
        presses += deb.update(level, ms)
    assert presses == 1


def case_ticks_diff_wraps() -> None:
    near = TICKS_PERIOD - 10
    later = ticks_add(near, 25)
    assert TICKS_PERIOD >= 1 << 30
    assert later == 15 and ticks_diff(later, near) == 25 and ticks_diff(near, later) == -25


# ---------------------------------------------------------------- device


def case_state_applied_once_and_acked_each_time() -> None:
    dev = fresh()
    acks = give(dev, state(), 1000, seq=7) + give(dev, state(), 1100, seq=7)
    assert [(s, ty) for s, ty, _ in acks] == [(7, p.ACK), (7, p.ACK)]
    assert dev.applied == 1 and dev.players == ["ann", "bob", "cy"]


def case_same_turn_keeps_countdown() -> None:
    dev = fresh()
    give(dev, state(), 1000)
    give(dev, state(rev=2, scores=[11, -5, 0], remaining_ms=3000), 21000)
    assert dev.countdown.remaining(21000) == 40000  # not restarted, remaining_ms ignored
    give(dev, state(rev=3, running=False), 31000)
    assert dev.countdown.state == t.PAUSED and dev.countdown.remaining(99000) == 30000
    give(dev, state(rev=4, turn=2, current=1), 40000)
    assert dev.countdown.remaining(40000) == 60000 and dev.countdown.state == t.RUNNING


def case_restored_turn_uses_remaining() -> None:
    dev = fresh()
    give(dev, state(remaining_ms=12345), 1000)
    assert dev.countdown.remaining(1000) == 12345
    dev2 = fresh()
    give(dev2, state(expired=True), 1000)
    assert dev2.countdown.state == t.EXPIRED and dev2.take_sounds() == []


def case_done_starts_next_player_and_reports() -> None:
    dev = fresh()
    give(dev, state(), 1000)
    dev.press(p.BTN_DONE, 21000)
    assert dev.current == 1 and dev.turn == 2
    assert dev.countdown.remaining(21000) == 60000
    sent = frames(dev.take_output())
    assert len(sent) == 1 and sent[0][1] == p.EVENT
    assert p.decode_event(sent[0][2]) == (p.EV_DONE, 1, 0, 40000)
    # not acknowledged: sent again after RETRY_MS, and again, until the ACK comes
    assert events_in(dev.poll(21000 + RETRY_MS - 1)) == []
    again = events_in(dev.poll(21000 + RETRY_MS))
    assert again and again[0][0] == sent[0][0]
    dev.feed(p.encode_frame(sent[0][0], p.ACK), 21300)
    assert dev.outbox == []
    assert events_in(dev.poll(22000)) == []


def case_done_wraps_to_first_player() -> None:
    dev = fresh()
    give(dev, state(current=2), 1000)
    dev.press(p.BTN_DONE, 2000)
    assert dev.current == 0


def case_expiry_reports_and_sounds() -> None:
    dev = fresh()
    give(dev, state(timer_ms=11000), 0)
    sounds = []
    events = []
    for ms in range(0, 12000, 10):
        dev.feed(p.encode_frame(1, p.HEARTBEAT), ms) if ms % 1000 == 0 else None
        for s, ty, pay in frames(dev.poll(ms)):
            if ty == p.EVENT:
                events.append(p.decode_event(pay))
                dev.feed(p.encode_frame(s, p.ACK), ms)
        sounds += dev.take_sounds()
    assert sounds == [SOUND_BEEP] * 6 + [SOUND_EXPIRE]
    assert events == [(p.EV_EXPIRED, 1, 0, 0)]


def case_mute_silences_but_reports() -> None:
    dev = fresh()
    give(dev, state(timer_ms=6000), 0)
    dev.press(p.BTN_MUTE, 10)
    assert dev.muted
    kinds = []
    out = dev.take_output()
    for ms in range(0, 7000, 10):
        for seq, _, pay in events_in(out):
            kinds.append(p.decode_event(pay)[0])
            dev.feed(p.encode_frame(seq, p.ACK), ms)  # each event waits for the one before
        out = dev.poll(ms)
    assert dev.take_sounds() == []
    assert kinds == [p.EV_MUTE, p.EV_EXPIRED]


def case_pause_button_toggles() -> None:
    dev = fresh()
    give(dev, state(), 0)
    dev.press(p.BTN_PAUSE, 10000)
    assert dev.countdown.state == t.PAUSED
    dev.press(p.BTN_PAUSE, 50000)
    assert dev.countdown.remaining(50000) == 50000
    assert [o[0] for o in dev.outbox] and len(dev.outbox) == 2


def case_host_lost_after_silence_countdown_continues() -> None:
    dev = fresh(0)
    give(dev, state(), 0)
    assert dev.host_ok(HOST_TIMEOUT_MS - 1)
    assert not dev.host_ok(HOST_TIMEOUT_MS)
    rec = Recorder()
    screen.render(dev, rec, 10000)
    assert "HOST LOST" in rec.texts
    assert dev.countdown.remaining(10000) == 50000
    dev.feed(p.encode_frame(3, p.HEARTBEAT), 10000)
    screen.render(dev, rec, 10001)
    assert "LINK" in rec.texts and "HOST LOST" not in rec.texts


def case_refusals_name_the_problem() -> None:
    dev = Device(1, 0, allow_press=False)
    dev.take_output()
    dev.feed(p.encode_frame(4, p.PRESS, p.encode_press(p.BTN_DONE)), 0)
    dev.feed(p.encode_frame(5, 0x7E, b""), 0)
    dev.feed(p.encode_frame(6, p.STATE, b"\x01\x02"), 0)
    naks = [(s, p.decode_nak(pay)) for s, ty, pay in frames(dev.take_output()) if ty == p.NAK]
    assert naks[0] == (4, (p.NAK_UNSUPPORTED, "PRESS: simulator only"))
    assert naks[1] == (5, (p.NAK_TYPE, "unknown frame type 126"))
    assert naks[2][0] == 6 and naks[2][1][0] == p.NAK_PAYLOAD and "STATE" in naks[2][1][1]
    assert dev.have_state is False


def case_hello_answered_with_boot_id() -> None:
    dev = fresh()
    dev.feed(p.encode_frame(1, p.HELLO, p.encode_hello(0, 0, "host")), 5)
    hello = [pay for _, ty, pay in frames(dev.take_output()) if ty == p.HELLO]
    assert p.decode_hello(hello[0])[:3] == (p.VERSION, 0xB007, 1)


# ---------------------------------------------------------------- screen and LEDs


def case_screen_shows_turn_timer_scores() -> None:
    dev = fresh(0)
    give(dev, state(message="r5 twice"), 0)
    rec = Recorder()
    screen.render(dev, rec, 15500)
    assert "> ann" in rec.texts and "RUN" in rec.texts and "T1" in rec.texts
    assert ">ann 10 bob   -5" in rec.texts and "cy    0" in rec.texts
    assert "r5 twice" in rec.texts
    assert screen.countdown_text(60) == "1:00" and screen.countdown_text(45) == "45"
    two = screen.score_lines(["ann", "bob"], [10, -5], 0, 2)
    assert two == [">ann 10 bob   -5"]
    eight = [
        screen.score_lines(["p" + str(i) for i in range(8)], list(range(8)), 7, 2, pg)
        for pg in (0, 1)
    ]
    assert eight == [
        ["p0    0 p1     1", "p2    2 p3     3"],
        ["p4    4 p5     5", "p6    6 >p7    7"],
    ]
    assert screen.clip("Zoë", 8) == "Zo?"
    six = screen.score_lines(
        ["ann", "bob", "cy", "dee", "eve", "fay"], [10, -5, 0, 120, 3, 44], 0, 3
    )
    assert six == [">ann 10 bob   -5", "cy    0 dee  120", "eve   3 fay   44"]


def case_screen_redraws_only_on_change() -> None:
    dev = fresh(0)
    give(dev, state(), 0)
    assert screen.signature(dev, 100) == screen.signature(dev, 900)
    assert screen.signature(dev, 100) != screen.signature(dev, 1100)


def case_led_patterns_differ_in_shape() -> None:
    dev = fresh(0)
    give(dev, state(), 0)
    lit = [c != leds.OFF for c in leds.pattern(dev, 30000)]
    assert lit == [True] * 6 + [False] * 6  # half the time: half the arc
    dev.press(p.BTN_PAUSE, 30000)
    lit = [c != leds.OFF for c in leds.pattern(dev, 30000)]
    assert lit == [True, False] * 6  # dotted ring
    dev.press(p.BTN_PAUSE, 30000)
    dev.feed(p.encode_frame(2, p.HEARTBEAT), 55000)
    assert leds.pattern(dev, 56000)[0] == leds.RED and leds.pattern(dev, 56125)[0] == leds.OFF
    assert leds.pattern(dev, 51000)[:2] == [leds.AMBER] * 2  # under 10 s: amber, slow blink
    dev.poll(61000)
    last = [c != leds.OFF for c in leds.pattern(dev, 61000)]
    assert last == [True, False] * 6 and leds.pattern(dev, 61125) != leds.pattern(dev, 61000)
    assert leds.pattern(dev, 70000)[0] == leds.BLUE  # host silent for 15 s: blue blink


def case_stale_state_does_not_undo_a_press() -> None:
    dev = fresh()
    give(dev, state(), 1000)
    dev.press(p.BTN_DONE, 5000)  # ann -> bob, turn 2; the host has not heard yet
    move = dev.move_seq
    give(dev, state(rev=2, scores=[12, -5, 0], seen=0), 5100)  # built before the press
    assert dev.current == 1 and dev.turn == 2 and dev.scores == [12, -5, 0]
    assert dev.countdown.remaining(5100) == 59900
    give(dev, state(rev=3, turn=5, current=2, seen=move), 6000)  # the host overrules: cy
    assert dev.current == 2 and dev.turn == 5 and dev.countdown.remaining(6000) == 60000


CASES = [(name, fn) for name, fn in sorted(globals().items()) if name.startswith("case_")]
