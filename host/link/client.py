"""``DeviceLink``: the referee's handle on the table device, over USB serial (pyserial).

One background thread owns the port: it finds the Pico by USB VID/PID (or uses the port it was
given), reconnects by itself after an unplug, speaks the protocol through ``LinkCore`` and
hands device events to the referee through a queue (``events()`` / ``get_event()``) and/or a
callback. ``set_state`` may be called from any thread at any time, connected or not: the newest
state is what the device shows as soon as it can.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import queue
import select
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import serial
from serial.tools import list_ports

from host.link import codec as p
from host.link.ports import StartClose, button_code
from host.link.session import DeviceEvent, DeviceStatus, LinkCore

if TYPE_CHECKING:
    from host.link.simulator import SimulatedDevice

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A  # Raspberry Pi (RP2040/RP2350 boards)
MICROPYTHON_PID = 0x0005  # MicroPython's USB CDC on a Pico
BAUDRATE = 115200  # ignored by USB CDC, but pyserial wants one
RECONNECT_S = 0.5
TICK_S = 0.01


def find_pico_port() -> str | None:
    """$TABLEREF_DEVICE_PORT if that exists (the udev rule's /dev/tableref-pico), else the
    serial port of the first attached Raspberry Pi Pico (USB VID 0x2E8A), else None."""
    named = os.environ.get("TABLEREF_DEVICE_PORT")
    if named and os.path.exists(named):
        return named
    picos = [info for info in list_ports.comports() if info.vid == PICO_VID]
    # a Pico running MicroPython first, then any other Raspberry Pi USB serial device
    picos.sort(key=lambda info: (info.pid != MICROPYTHON_PID, info.device))
    return str(picos[0].device) if picos else None


class DeviceLink(StartClose):
    """The device client. Use as a context manager or call ``start()`` / ``close()``.

    ``port``: a serial device path (a Pico, or a simulator's pty); None means "find a Pico by
    VID/PID, and keep looking". ``find`` overrides how a port is found (it is called again after
    every disconnect, so a simulator restarted on a new pty is picked up).
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        find: Callable[[], str | None] | None = None,
        on_event: Callable[[DeviceEvent], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port = port
        self._find = find or (lambda: self.port or find_pico_port())
        self._on_event = on_event
        self._clock = clock
        self._core = LinkCore()
        self._lock = threading.RLock()
        self._events: queue.Queue[DeviceEvent] = queue.Queue()
        self._applied = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._serial: serial.Serial | None = None
        self.connected_port: str | None = None
        self.simulator: SimulatedDevice | None = None  # owned when connect() started one

    # ------------------------------------------------------------ lifecycle

    def start(self) -> DeviceLink:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="device-link", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._drop_port()
        if self.simulator is not None:
            self.simulator.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    # ------------------------------------------------------------ the referee's API

    def set_state(
        self,
        players: list[str],
        current: int | None,
        scores: list[int],
        timer_seconds: float = 60.0,
        running: bool | None = None,
        message: str = "",
        *,
        game: str = "",
        new_turn: bool | None = None,
        muted: bool | None = None,
    ) -> int:
        """Show this on the device; returns the state's revision (see ``wait_applied``).

        ``current``: index into ``players`` whose turn it is (None: nobody's). A different
        ``current`` than last time starts a new turn with a full ``timer_seconds`` countdown;
        pass ``new_turn=True`` to restart the same player's turn. ``running``/``muted`` left
        as None keep what the device has (its pause and mute buttons are authoritative).
        ``timer_seconds=0`` shows no countdown. Names are cut to 12 bytes, the message to 48.
        """
        with self._lock:
            rev = self._core.set_state(
                players,
                current,
                scores,
                timer_seconds,
                running=running,
                message=message,
                game=game,
                new_turn=new_turn,
                muted=muted,
            )
        self._wake()
        return rev

    def press(self, button: str) -> None:
        """Press "done", "pause" or "mute" on a SIMULATED device (real firmware refuses)."""
        with self._lock:
            self._core.press(button_code(button))
        self._wake()

    def get_event(self, timeout: float | None = None) -> DeviceEvent | None:
        """The next device event, waiting up to ``timeout`` seconds (None: forever)."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def events(self, timeout: float | None = None) -> Iterator[DeviceEvent]:
        """Yield device events as they come; stops after ``timeout`` seconds of silence."""
        while True:
            ev = self.get_event(timeout)
            if ev is None:
                return
            yield ev

    def wait_applied(self, rev: int | None = None, timeout: float = 5.0) -> bool:
        """Block until the device has acknowledged state ``rev`` (default: the newest)."""
        deadline = self._clock() + timeout
        with self._applied:
            while True:
                want = self._core.state.rev if rev is None else rev
                if self._core.have_state and self._core.acked_rev >= want:
                    return True
                left = deadline - self._clock()
                if left <= 0:
                    return False
                self._applied.wait(min(left, 0.05))

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._core.connected(self._clock())

    @property
    def status(self) -> DeviceStatus:
        """The device's last heartbeat (time left, paused, muted, host-ok, boot id)."""
        with self._lock:
            return DeviceStatus(**vars(self._core.status))

    @property
    def state(self) -> p.State:
        """What the link will (re)send: the referee's last state plus the device's own moves."""
        with self._lock:
            return copy.deepcopy(self._core.state)

    @property
    def stats(self) -> dict[str, int]:
        with self._lock:
            return dict(self._core.stats)

    # ------------------------------------------------------------ the thread

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _open(self) -> bool:
        port = self._find()
        if port is None:
            return False
        try:
            ser = serial.Serial(port, BAUDRATE, timeout=0, write_timeout=0.5, exclusive=True)
        except (serial.SerialException, OSError) as exc:
            log.debug("cannot open %s: %s", port, exc)
            return False
        self._serial = ser
        self.connected_port = port
        with self._lock:
            self._core.connection_made(self._clock())
        log.info("device port %s open", port)
        return True

    def _drop_port(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                ser.close()
            with self._lock:
                self._core.connection_lost()
            self._dispatch()

    def _dispatch(self) -> None:
        with self._lock:
            out = list(self._core.events)
            self._core.events.clear()
            self._applied.notify_all()
        for ev in out:
            self._events.put(ev)
            if self._on_event is not None:
                try:
                    self._on_event(ev)
                except Exception:  # the referee's bug must not kill the link
                    log.exception("device event callback failed for %s", ev)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(RECONNECT_S)
                continue
            ser = self._serial
            assert ser is not None
            try:
                ready, _, _ = select.select([ser.fileno(), self._wake_r], [], [], TICK_S)
                if self._wake_r in ready:
                    os.read(self._wake_r, 4096)
                data = ser.read(ser.in_waiting or 1) if ser.fileno() in ready else b""
                if ser.fileno() in ready and not data:
                    raise serial.SerialException("device disconnected (read returned nothing)")
                with self._lock:
                    now = self._clock()
                    if data:
                        self._core.feed(data, now)
                    out = self._core.poll(now)
                if out:
                    ser.write(out)
            except (serial.SerialException, OSError, ValueError) as exc:
                log.info("device link lost: %s", exc)
                self._drop_port()
                self._stop.wait(RECONNECT_S)
            self._dispatch()
