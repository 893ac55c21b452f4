"""The serial link, measured over a pseudo-terminal against the firmware running in the real
MicroPython interpreter (unix port, 160 KB heap) — no board needed.

- round trip: a STATE frame written by the host until its ACK is read back (the protocol
  round trip, host codec + pty + MicroPython decode/apply/encode), p50/p99 over 500;
  also through the public API (``DeviceLink.set_state`` -> ``wait_applied``), which adds the
  link thread's wake-up.
- commands per second: back-to-back STATE commands, each waiting for its ACK (stop-and-wait,
  as the link does it).
- countdown drift: a 60 s turn in REAL time while the device redraws its screen every second
  and each redraw blocks for 23 ms (the Pico's 1 KB I2C transfer at 400 kHz); drift = when the
  EXPIRED event arrives minus (the STATE's ACK + 60.000 s). A second, simulated-clock figure
  checks the countdown arithmetic alone over a 60 s turn polled with jitter.
"""

from __future__ import annotations

import os
import random
import select
import statistics
import time

from firmware import timer
from host.link import codec as p
from host.link.client import DeviceLink
from host.link.unixport import MicroPythonDevice

RTT_SAMPLES = 500
DRIFT_SECONDS = 60.0
I2C_REDRAW_MS = 23


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _raw_round_trips(port: str, n: int) -> tuple[list[float], float]:
    """Frame-level round trips on the pty, no link thread: (samples ms, commands/s)."""
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
    os.set_blocking(fd, False)
    try:
        dec = p.Decoder()
        st = p.State(
            rev=1,
            turn=1,
            current=0,
            running=True,
            timer_ms=60000,
            game="rummikub",
            players=["ann", "bob", "cy", "dee"],
            scores=[0, 0, 0, 0],
        )
        samples = []
        started = time.perf_counter()
        for i in range(n):
            st.rev = i + 2
            st.scores = [i, 2 * i, 3 * i, 4 * i]
            seq = (i + 100) & 0xFFFF
            frame = p.encode_frame(seq, p.STATE, p.encode_state(st))
            t0 = time.perf_counter()
            os.write(fd, frame)
            acked = False
            while not acked:
                ready, _, _ = select.select([fd], [], [], 1.0)
                if not ready:
                    raise RuntimeError(f"no ACK for seq {seq}")
                for s, ftype, _ in dec.feed(os.read(fd, 4096)):
                    acked = acked or (ftype == p.ACK and s == seq)
            samples.append((time.perf_counter() - t0) * 1000)
        rate = n / (time.perf_counter() - started)
        return samples, rate
    finally:
        os.close(fd)


def _api_round_trips(link: DeviceLink, n: int) -> list[float]:
    samples = []
    for i in range(n):
        t0 = time.perf_counter()
        rev = link.set_state(["ann", "bob"], 0, [i, -i], 60, game="rummikub")
        if not link.wait_applied(rev, timeout=2):
            raise RuntimeError("state not applied")
        samples.append((time.perf_counter() - t0) * 1000)
    return samples


def _drift_real(seconds: float) -> dict[str, float]:
    """A real-time turn; the device reports its remaining time in every heartbeat (1 s).

    For each heartbeat, error = (time left by the host's clock) - (time left by the device).
    The first heartbeats' error is the fixed latency (pty, scheduling); how much the error grows
    from the first ten heartbeats to the last ten (medians) is the countdown's drift.
    """
    with MicroPythonDevice(redraw_ms=I2C_REDRAW_MS) as dev, DeviceLink(dev.port) as link:
        deadline = time.monotonic() + 10
        while not link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        rev = link.set_state(["ann", "bob"], 0, [0, 0], seconds, game="rummikub")
        if not link.wait_applied(rev, timeout=5):
            raise RuntimeError("state not applied")
        started = time.monotonic()
        errors: list[float] = []
        seen = 0.0
        expired_at = None
        while expired_at is None:
            ev = link.get_event(timeout=0.02)
            if ev is not None and ev.kind == "expired":
                expired_at = time.monotonic()
            st = link.status
            if st.reported_at != seen and st.running:
                seen = st.reported_at
                host_left = (seconds - (st.reported_at - started)) * 1000
                errors.append(host_left - st.remaining_ms)
            if time.monotonic() - started > seconds + 10:
                raise RuntimeError("no expiry")
    k = min(10, len(errors) // 3)
    early, late = statistics.median(errors[:k]), statistics.median(errors[-k:])
    return {
        "turn_s": seconds,
        "drift_ms": round(late - early, 2),
        "heartbeats": len(errors),
        "latency_ms_first": round(early, 2),
        "expiry_error_ms": round((expired_at - started - seconds) * 1000, 2),
    }


def _drift_virtual(seconds: float) -> dict[str, float]:
    """The countdown arithmetic alone: polls every 10 ms plus up to 30 ms of jitter (a redraw
    now and then), for a 60 s turn; expiry is seen at the first poll past the deadline."""
    rng = random.Random(1)
    cd = timer.Countdown()
    now = 123_456
    cd.start(now, int(seconds * 1000))
    start = now
    worst_late = 0
    while True:
        step = 10 + (rng.randrange(31) if rng.random() < 0.1 else 0)
        now += step
        if cd.poll(now) == timer.EXPIRE:
            late = now - (start + int(seconds * 1000))
            worst_late = max(worst_late, late)
            break
    return {"turn_s": seconds, "expired_after_deadline_ms": worst_late, "poll_ms": 10}


def run() -> dict[str, object]:
    with MicroPythonDevice() as dev, DeviceLink(dev.port) as link:
        deadline = time.monotonic() + 10
        while not link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        api = _api_round_trips(link, 200)
    with MicroPythonDevice() as dev:
        time.sleep(0.3)  # interpreter start-up
        raw, rate = _raw_round_trips(dev.port, RTT_SAMPLES)
    drift = _drift_real(DRIFT_SECONDS)
    return {
        "device": "firmware.unix_main in MicroPython (unix port, -X heapsize=160k) over a pty",
        "round_trip_ms": {
            "p50": round(statistics.median(raw), 3),
            "p99": round(_pct(raw, 0.99), 3),
            "max": round(max(raw), 3),
            "samples": len(raw),
            "target_p50": 5.0,
        },
        "api_round_trip_ms": {
            "p50": round(statistics.median(api), 3),
            "p99": round(_pct(api, 0.99), 3),
            "samples": len(api),
            "note": "DeviceLink.set_state -> wait_applied, includes the link thread",
        },
        "commands_per_second": round(rate, 1),
        "countdown_drift": {
            **drift,
            "redraw_block_ms": I2C_REDRAW_MS,
            "target_ms": 5.0,
            "note": (
                "real time; drift = growth of (host clock - device countdown) from the first "
                "to the last ten heartbeats; expiry_error includes pty and scheduling latency "
                "and the 5 ms device poll"
            ),
        },
        "countdown_drift_virtual": _drift_virtual(DRIFT_SECONDS),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
