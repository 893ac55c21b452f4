"""``tableref device ...`` (the table device, real or simulated) and ``tableref firmware ...``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit, fail

if TYPE_CHECKING:  # the link pulls in pyserial: imported only when a command needs it
    from host.link.client import DeviceLink

device_app = typer.Typer(
    help="The table device: simulate it, ask it how it is.", no_args_is_help=True
)
firmware_app = typer.Typer(help="Check and install the Pico firmware.", no_args_is_help=True)
app.add_typer(device_app, name="device")
app.add_typer(firmware_app, name="firmware")

DEMO_PLAYERS = ["ann", "bob", "cy"]


def _demo_step(link: DeviceLink, step: int) -> None:
    """Drive the simulated device like a referee would: turns, scores, a press now and then."""
    if step == 0:
        link.set_state(DEMO_PLAYERS, 0, [0, 0, 0], 12, game="rummikub")
    elif step % 8 == 4:
        link.press("done")
    elif step % 8 == 6:
        st = link.state
        scores = [s + (3 if i == st.current else 0) for i, s in enumerate(st.scores)]
        link.set_state(st.players, st.current, scores, 12, game="rummikub")


@device_app.command("simulate")
def simulate(
    png: Annotated[
        Path | None, typer.Option(help="Keep this PNG file updated with the screen.")
    ] = None,
    seconds: Annotated[
        float, typer.Option(min=0.0, help="Stop after this many seconds (0: until Ctrl-C).")
    ] = 0.0,
    ascii_art: Annotated[
        bool, typer.Option("--ascii/--no-ascii", help="Print the screen on every change.")
    ] = True,
    demo: Annotated[
        bool, typer.Option(help="Also play a little game against it, as the referee would.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Run the simulated device (the firmware's own logic) on a pseudo-terminal.

    Point the host at the printed port (``--port``), or let ``host.link.connect()`` start one by
    itself: the simulator is what it uses whenever no board is attached.
    """
    from host.link.client import DeviceLink
    from host.link.simulator import SimulatedDevice

    if png is not None and not png.parent.is_dir():
        # The screen is written from the device thread: fail here, before anything starts.
        raise InputError(f"--png {png}: there is no folder {png.parent}")
    last_print = [0.0]

    def show(sim: SimulatedDevice) -> None:
        if ascii_art and not as_json and time.monotonic() - last_print[0] >= 0.25:
            last_print[0] = time.monotonic()
            sys.stdout.write("\x1b[H\x1b[2J" if sys.stdout.isatty() else "\n")
            sys.stdout.write(f"simulated device on {sim.port}\n{sim.screen_ascii()}\n")
            sys.stdout.flush()

    sim = SimulatedDevice(png_path=png, on_redraw=show).start()
    link = DeviceLink(sim.port).start() if demo else None
    if not as_json:
        typer.echo(f"simulated device on {sim.port} (Ctrl-C to stop)")
    started = time.monotonic()
    step = 0
    try:
        while not seconds or time.monotonic() - started < seconds:
            if link is not None:
                _demo_step(link, step)
                step += 1
            time.sleep(0.25)
    except KeyboardInterrupt:
        pass
    finally:
        if link is not None:
            link.close()
        sim.render()
        if png is not None:
            sim.framebuffer.save_png(png)
        screen_text = sim.screen_ascii()
        sim.close()
    result = {
        "port": sim.port,
        "boot_id": sim.device.boot_id,
        "redraws": sim.redraws,
        "tones": len(sim.tones),
        "screen": screen_text.splitlines(),
        "png": str(png) if png else None,
    }
    emit(result, as_json, lambda: typer.echo(screen_text))


@device_app.command("status")
def status(
    port: Annotated[str | None, typer.Option(help="Serial port (default: find the Pico).")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for the device.")] = 3.0,
    as_json: JsonOption = False,
) -> None:
    """Connect to the device and report its heartbeat (boot id, timer, link)."""
    from host.link.client import DeviceLink, find_pico_port

    port = port or find_pico_port()
    if port is None:
        raise InputError("no Pico attached (USB VID 2E8A); pass --port, or run: device simulate")
    with DeviceLink(port) as link:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and link.status.reported_at == 0.0:
            time.sleep(0.05)
        st = link.status
    if st.boot_id is None:
        raise InputError(f"no answer from {port} within {timeout:g} s (is the firmware running?)")
    result = {"port": port, **vars(st)}
    emit(result, as_json, lambda: typer.echo(json.dumps(result, indent=2)))


@firmware_app.command("check")
def check(as_json: JsonOption = False) -> None:
    """Offline checks: mpy-cross compiles every file; the logic cases pass under MicroPython
    (also in a Pico-sized 160 KB heap)."""
    from host.link import tools

    result = tools.check()

    def render() -> None:
        typer.echo(f"mpy-cross: {len(result.compiled)} files compiled")
        for name, err in result.compile_errors.items():
            typer.echo(f"  {name}: {err}")
        for heap, tail in result.logic_runs.items():
            typer.echo(f"micropython (heap {heap}): {tail.splitlines()[-1] if tail else '?'}")
        typer.echo("ok" if result.ok else "FAILED")

    emit(result.as_dict(), as_json, render)
    if not result.ok:
        raise typer.Exit(1)


@firmware_app.command("deploy")
def deploy(
    port: Annotated[str | None, typer.Option(help="Serial port (default: find the Pico).")] = None,
    dry_run: Annotated[bool, typer.Option(help="Compile and print the commands only.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Compile the firmware with mpy-cross and copy it to the Pico with mpremote."""
    import subprocess

    from host.link import tools
    from host.link.client import find_pico_port

    port = port or find_pico_port()
    if port is None:
        raise InputError("no Pico attached (USB VID 2E8A); plug it in or pass --port")
    if not dry_run and not Path(port).exists():
        raise InputError(f"no serial port {port} (is the Pico plugged in?)")
    try:
        commands = tools.deploy(port, dry_run=dry_run)
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        # A failed copy leaves the board half-written: say which step failed, not a traceback.
        raise fail(f"deploy to {port} failed: {exc}", 1) from None
    result = {"port": port, "dry_run": dry_run, "commands": commands}
    emit(result, as_json, lambda: typer.echo("\n".join(" ".join(cmd) for cmd in commands)))
