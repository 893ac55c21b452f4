"""End to end over pseudo-terminals: DeviceLink (pyserial, its own thread) against the firmware
running in the real MicroPython interpreter (unix port, Pico-sized heap), and against the
in-process simulator (unplug, replug, reboot)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from host.link import DeviceEvent, DeviceLink, connect
from host.link import codec as p
from host.link.simulator import SimulatedDevice
from host.link.unixport import MicroPythonDevice

PLAYERS = ["ann", "bob", "cy"]


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> float:
    start = time.monotonic()
    while not cond():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.005)
    return time.monotonic() - start


def next_event(link: DeviceLink, kinds: set[str], timeout: float = 5.0) -> DeviceEvent:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ev = link.get_event(timeout=max(0.0, deadline - time.monotonic()))
        if ev is not None and ev.kind in kinds:
            return ev
    raise AssertionError(f"no {kinds} event within {timeout} s")


@pytest.fixture
def board() -> Iterator[MicroPythonDevice]:
    with MicroPythonDevice() as b:  # Pico-sized heap
        yield b


def test_rummikub_turn_cycle_against_micropython(board: MicroPythonDevice) -> None:
    """Three done presses go round the table, each reported once; then a turn runs out."""
    with DeviceLink(board.port) as link:
        wait_for(lambda: link.connected, 10, "the firmware's HELLO")
        scores = [0, 0, 0]
        rev = link.set_state(PLAYERS, 0, scores, timer_seconds=2.5, game="rummikub")
        assert link.wait_applied(rev, timeout=3)
        for turn, player in ((1, 0), (2, 1), (3, 2)):
            link.press("done")
            ev = next_event(link, {"done", "expired"})
            assert (ev.kind, ev.turn, ev.player, ev.player_name) == (
                "done",
                turn,
                player,
                PLAYERS[player],
            )
            assert ev.remaining_ms > 0
            # the device already runs the next player's minute; the referee confirms it
            nxt = (player + 1) % 3
            scores[player] += 5
            rev = link.set_state(PLAYERS, nxt, scores, timer_seconds=2.5, game="rummikub")
            assert link.wait_applied(rev, timeout=3)
            assert link.state.turn == turn + 1  # the same turn, not restarted
        ev = next_event(link, {"expired"}, timeout=6)
        assert (ev.turn, ev.player, ev.player_name) == (4, 0, "ann")
        wait_for(lambda: link.status.expired, 2, "a heartbeat saying the turn ran out")
        st = link.status
        assert (st.turn, st.current, st.has_state, st.host_ok) == (4, 0, True, True)
        assert link.get_event(timeout=0.3) is None  # nothing reported twice
        assert link.stats["naks"] == 0
    assert board.running  # no traceback, no out-of-memory


def test_micropython_reboot_gets_full_state_back(board: MicroPythonDevice) -> None:
    with DeviceLink(board.port) as link:
        wait_for(lambda: link.connected, 10, "the firmware's HELLO")
        link.set_state(PLAYERS, 1, [3, 4, 5], timer_seconds=30, game="rummikub", message="hi")
        assert link.wait_applied(timeout=3)
        wait_for(lambda: link.status.has_state, 3, "a heartbeat with the state")
        first_boot = link.status.boot_id
        time.sleep(1.2)
        err = board.power_off()
        assert "Traceback" not in err, err
        board.boot()
        took = wait_for(
            lambda: link.status.boot_id != first_boot and link.status.has_state, 5, "restore"
        )
        st = link.status
        assert (st.current, st.turn) == (1, link.state.turn)
        assert 25_000 < st.remaining_ms < 29_000  # carried on, not restarted at 30 s
        assert next_event(link, {"device_reset"}, timeout=1).boot_id == st.boot_id
        # start-up of the interpreter included; the protocol part is well under that
        assert took < 5


def test_simulator_unplug_replug_reboot() -> None:
    sim = SimulatedDevice(seed=1).start()
    link = DeviceLink(find=lambda: sim.port or None).start()
    try:
        wait_for(lambda: link.connected, 5, "connection")
        link.set_state(PLAYERS, 0, [1, 2, 3], timer_seconds=60, game="rummikub")
        assert link.wait_applied(timeout=3)
        sim.press("done")
        assert next_event(link, {"done"}).player == 0
        assert link.state.current == 1  # mirrored from the device
        sim.unplug()
        next_event(link, {"link_down"}, timeout=5)
        sim.replug()  # a new pty path, and the board rebooted
        took = wait_for(
            lambda: link.connected and sim.device.have_state and sim.device.current == 1,
            5,
            "reconnect and restore",
        )
        assert took < 3
        assert sim.device.players == PLAYERS and sim.device.scores == [1, 2, 3]
        boot = sim.device.boot_id
        sim.reboot()
        wait_for(lambda: sim.device.have_state, 2, "state after reboot")
        assert sim.device.boot_id != boot and sim.device.current == 1
        assert sim.boots == 3
    finally:
        link.close()
        sim.close()


def test_connect_defaults_to_the_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("host.link.find_pico_port", lambda: None)
    events: list[DeviceEvent] = []
    link = connect(on_event=events.append)
    try:
        assert link.simulator is not None
        link.set_state(["ann", "bob"], 1, [0, 7], timer_seconds=45, game="rummikub")
        assert link.wait_applied(timeout=3)
        wait_for(lambda: link.simulator is not None and link.simulator.redraws > 1, 2, "draw")
        assert link.simulator.device.players == ["ann", "bob"]
        assert "#" in link.simulator.screen_ascii()
        assert link.simulator.screen_png().startswith(b"\x89PNG")
        wait_for(lambda: any(e.kind == "link_up" for e in events), 2, "callback")
    finally:
        sim = link.simulator
        link.close()
    assert sim is not None and sim.port  # stopped with the link
    with pytest.raises(ValueError, match="current player 5 is not one of 2 players"):
        link.set_state(["ann", "bob"], 5, [0, 0], 60)
    with pytest.raises(ValueError, match="2 players but 1 scores"):
        link.set_state(["ann", "bob"], 0, [0], 60)


def test_real_firmware_refuses_remote_presses() -> None:
    from firmware.device import Device

    dev = Device(1, 0)  # as on the Pico: allow_press=False
    dev.take_output()
    dev.feed(p.encode_frame(9, p.PRESS, p.encode_press(p.BTN_DONE)), 0)
    (seq, ftype, payload), *_ = p.Decoder().feed(dev.take_output())
    assert (seq, ftype) == (9, p.NAK)
    assert p.decode_nak(payload) == (p.NAK_UNSUPPORTED, "PRESS: simulator only")


def test_pico_main_runs_on_micropython_with_fake_hardware() -> None:
    """firmware/main.py itself (asyncio tasks, kbd_intr, adapters over a fake ``machine``):
    takes a state, times a turn out with the buzzer, refuses remote presses like a real
    board, and hands the REPL back on a REPL frame."""
    import os
    import pty
    import subprocess
    import tty

    from host.link import tools

    master, slave = pty.openpty()
    tty.setraw(slave)
    runner = tools.REPO / "tests" / "firmware_logic" / "run_pico_main.py"
    proc = subprocess.Popen(
        [tools.tool("micropython"), "-X", f"heapsize={tools.PICO_HEAP}", str(runner)],
        stdin=master,
        stdout=master,
        stderr=subprocess.PIPE,
        cwd=tools.REPO,
    )
    try:
        with DeviceLink(os.ttyname(slave)) as link:
            wait_for(lambda: link.connected, 10, "HELLO from main.py")
            assert link.status.role == 1  # a real device, not the simulator
            link.set_state(PLAYERS, 2, [1, 2, 3], timer_seconds=1.2, game="rummikub")
            assert link.wait_applied(timeout=3)
            assert next_event(link, {"expired"}, timeout=4).player_name == "cy"
            link.press("done")
            assert "PRESS: simulator only" in next_event(link, {"rejected"}).detail
        fd = os.open(os.ttyname(slave), os.O_RDWR | os.O_NOCTTY)
        os.write(fd, p.encode_frame(77, p.REPL))
        os.close(fd)
        _, err = proc.communicate(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, err
    i2c_bytes, shows, tones, led_writes = (int(x) for x in err.decode().split()[-4:])
    assert shows >= 3 and i2c_bytes > 3 * 1024  # whole frames went to the OLED
    assert tones >= 2  # the 1 s beep and the long tone at expiry
    assert led_writes >= 3
