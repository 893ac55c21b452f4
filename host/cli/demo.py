"""``tableref demo``: a recorded game night refereed, stored in SQLite and served live."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from host.cli.app import app
from host.cli.common import JsonOption, emit


@app.command("demo")
def demo(
    seed: Annotated[int, typer.Option("--seed", help="Seed of the recorded night.")] = 7,
    port: Annotated[int, typer.Option(help="Dashboard port.")] = 8000,
    host: Annotated[str, typer.Option(help="Dashboard address.")] = "127.0.0.1",
    delay: Annotated[float, typer.Option(help="Seconds between script steps.")] = 0.05,
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Base data dir (the demo uses DIR/demo).")
    ] = None,
    stay: Annotated[
        bool, typer.Option(help="Keep serving the dashboard after the night (Ctrl-C ends).")
    ] = True,
    vision: Annotated[
        bool, typer.Option(help="Render frames and read them with vision where it can.")
    ] = True,
    as_json: JsonOption = False,
) -> None:
    """Play a recorded game night: one game of each kind, refereed, stored and served."""
    from host.api.app import build_table
    from host.demo.night import fresh_demo_dir, play_night, serve_in_background
    from host.settings import load_settings

    base = load_settings(data_dir=data_dir)
    settings = load_settings(
        data_dir=fresh_demo_dir(base), host=host, port=port, device="simulator"
    )
    table = build_table(settings)
    server = serve_in_background(settings, table)
    if not as_json:
        typer.echo(f"dashboard: http://{host}:{port}/   (store: {settings.db_path})")

    def progress(result: dict[str, Any]) -> None:
        if not as_json:
            _print_game(result)

    results = play_night(table, seed=seed, delay=delay, on_game=progress, vision=vision)
    emit({"games": results, "store": str(settings.db_path)}, as_json, lambda: None)
    if stay and not as_json:
        typer.echo(f"the night is over; the dashboard stays at http://{host}:{port}/ (Ctrl-C ends)")
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    server.should_exit = True
    table.device.close()


def _print_game(result: dict[str, Any]) -> None:
    scores = ", ".join(f"{p} {s}" for p, s in (result["scores"] or {}).items())
    mark = "= ground truth" if result["matches"] else "≠ ground truth " + str(result["expected"])
    typer.echo(f"{result['game']:>10}: {scores}; winner {result['winner']}  ({mark})")
    if result.get("vision"):
        v = result["vision"]
        typer.echo(
            f"            vision read {v['right']} of {v['objects']} objects right; a person "
            f"confirmed {v['confirmed']}, corrected {v['relabelled']}, added {v['missed']}, "
            f"removed {v['spurious']}; the camera's gate skipped "
            f"{v['hand_frames'] - v['hand_passed']} of {v['hand_frames']} frames with a hand"
        )
    else:
        typer.echo(f"            read by {result['read_by']}")
    for error in result["errors"]:
        typer.echo(f"            {error}")
