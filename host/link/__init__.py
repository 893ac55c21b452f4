"""The table device: serial protocol, device client, simulator.

For the referee::

    from host.link import connect

    link = connect()            # the attached Pico, else a simulated device (see below)
    link.set_state(["ann", "bob"], current=0, scores=[0, 0], timer_seconds=60,
                   game="rummikub")
    for ev in link.events(timeout=1.0):   # or connect(on_event=callback)
        if ev.kind == "done": ...          # ev.player ended turn ev.turn; next timer runs
        elif ev.kind == "expired": ...
    link.close()

The codec (``host.link.codec``) is the firmware's own ``firmware/protocol.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from host.link.client import DeviceLink, find_pico_port
from host.link.session import DeviceEvent, DeviceStatus


def connect(
    port: str | None = None,
    *,
    simulate: bool | None = None,
    on_event: Callable[[DeviceEvent], None] | None = None,
) -> DeviceLink:
    """A started DeviceLink.

    ``port`` given: that port. Otherwise the first attached Pico (found by USB VID 0x2E8A);
    if none is attached (or ``simulate=True``), a ``SimulatedDevice`` is started on a pty and
    owned by the link (``link.simulator``; closed with the link). ``simulate=False`` waits for a
    board instead.
    """
    if port is None and (simulate or (simulate is None and find_pico_port() is None)):
        from host.link.simulator import SimulatedDevice

        sim = SimulatedDevice().start()
        link = DeviceLink(sim.port, on_event=on_event)
        link.simulator = sim
        return link.start()
    return DeviceLink(port, on_event=on_event).start()


__all__ = ["DeviceEvent", "DeviceLink", "DeviceStatus", "connect", "find_pico_port"]
