"""The host's protocol state machine in isolation, and how the device client finds a Pico."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from firmware.device import Device
from host.link import client
from host.link import codec as p
from host.link.session import LinkCore


def exchange(host: LinkCore, dev: Device, t: float, rounds: int = 5) -> float:
    for _ in range(rounds):
        t += 0.01
        now = int(t * 1000)
        host.feed(dev.poll(now), t)
        dev.feed(host.poll(t), now)
        host.feed(dev.take_output(), t)
    return t


def test_refusal_is_reported_not_retried_forever() -> None:
    host, dev = LinkCore(), Device(7, 0)  # real firmware: no remote presses
    host.connection_made(0.0)
    t = exchange(host, dev, 0.0)
    host.press(p.BTN_DONE)
    t = exchange(host, dev, t, 10)
    rejected = [e for e in host.events if e.kind == "rejected"]
    assert len(rejected) == 1
    assert rejected[0].detail == "device refused PRESS (code 4): PRESS: simulator only"
    assert host.inflight is None and not host.presses and host.stats["naks"] == 1


def test_set_state_validates_and_numbers_turns() -> None:
    host = LinkCore()
    r1 = host.set_state(["ann", "bob"], 0, [0, 0], 60, game="rummikub")
    turn = host.state.turn
    r2 = host.set_state(["ann", "bob"], 0, [5, 0], 60)  # same player: same turn
    assert r2 == r1 + 1 and host.state.turn == turn
    host.set_state(["ann", "bob"], 1, [5, 0], 60)
    assert host.state.turn == turn + 1
    host.set_state(["ann", "bob"], 1, [5, 0], 60, new_turn=True)
    assert host.state.turn == turn + 2
    host.set_state(["a-very-long-player-name", "bob"], None, [1, 2], 0, message="x" * 80)
    assert host.state.players[0] == "a-very-long-" and len(host.state.message) == 48
    assert host.state.current == p.NO_PLAYER
    with pytest.raises(ValueError, match="at most 8"):
        host.set_state(["p"] * 9, 0, [0] * 9, 60)
    with pytest.raises(ValueError, match="must not be negative"):
        host.set_state(["a"], 0, [0], -1)


def test_two_host_sessions_never_share_a_revision() -> None:
    assert len({LinkCore().state.rev for _ in range(50)}) > 45


def test_device_on_another_protocol_version_is_reported() -> None:
    host = LinkCore()
    body = bytes([9, 1, 0, p.HEARTBEAT])
    import binascii

    body += binascii.crc32(body).to_bytes(4, "little")
    host.feed(b"\x00" + p.cobs_encode(body) + b"\x00", 0.0)
    assert [e.detail for e in host.events] == ["device speaks protocol version 9, expected 1"]


def test_find_pico_prefers_micropython(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x000A),
        SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005),
    ]
    monkeypatch.delenv("TABLEREF_DEVICE_PORT", raising=False)
    monkeypatch.setattr(client.list_ports, "comports", lambda: ports)
    assert client.find_pico_port() == "/dev/ttyACM1"
    monkeypatch.setattr(client.list_ports, "comports", lambda: ports[:1])
    assert client.find_pico_port() is None
    monkeypatch.setenv("TABLEREF_DEVICE_PORT", "/dev/null")
    assert client.find_pico_port() == "/dev/null"


def test_unreadable_event_is_refused_and_dropped_by_the_device() -> None:
    host, dev = LinkCore(), Device(8, 0)
    host.connection_made(0.0)
    t = exchange(host, dev, 0.0)
    # an event the host cannot read (kind 9) sits at the head of the device's queue
    dev.outbox.append((500, p.encode_frame(500, p.EVENT, bytes([9, 0, 0, 0, 0, 0, 0, 0]))))
    dev.tx.append(dev.outbox[0][1])
    dev.press(p.BTN_MUTE, int(t * 1000))  # a good event queued behind it
    t = exchange(host, dev, t, 60)
    kinds = [e.kind for e in host.events]
    assert "rejected" in kinds and "mute" in kinds and dev.outbox == []
    assert "unknown event kind 9" in next(e.detail for e in host.events if e.kind == "rejected")


def test_a_garbage_frame_is_counted_and_named_not_acted_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    host = LinkCore()
    host.connection_made(0.0)
    good = p.encode_frame(1, p.HELLO, p.encode_hello(42, 0, "pico"))
    broken = bytearray(good)
    broken[3] ^= 0x55  # one flipped byte: the CRC no longer matches
    with caplog.at_level("INFO", logger="host.link.session"):
        host.feed(b"\x00" + bytes(broken), 0.1)
    assert host.stats["damaged"] == 1 and host.status.boot_id is None
    assert "dropped damaged frame(s) from the device: CRC mismatch" in caplog.text
    host.feed(good, 0.2)  # the next sound frame still gets through
    assert host.status.boot_id == 42


def test_an_unknown_button_is_named() -> None:
    link = client.DeviceLink("/dev/null")  # never started: press fails before any I/O
    try:
        with pytest.raises(ValueError, match="no button 'start': the device has done, pause, mute"):
            link.press("start")
    finally:
        link.close()
