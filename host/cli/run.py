"""The application's commands: serve, run, play, token, sessions, export, import."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Annotated, Any

import typer

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit
from host.referee import RefereeError, Table, replay_summary
from host.settings import Settings, load_settings
from host.store import Store, StoreError

DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", help="Where the store and token live (default: user data dir)."),
]
Host = Annotated[str | None, typer.Option("--host", help="Address to listen on.")]
Port = Annotated[int | None, typer.Option("--port", help="Port to listen on.")]
DeviceOpt = Annotated[
    str | None,
    typer.Option("--device", help="'simulator', 'none', 'auto' or a serial port."),
]
TableOpt = Annotated[
    str | None,
    typer.Option(
        "--table",
        help="Place cards in the zones of this calibrated table (`tableref calibrate`); "
        "default: seat sectors of the image.",
    ),
]


def _settings(**flags: Any) -> Settings:
    try:
        return load_settings(**flags)
    except ValueError as exc:
        raise InputError(f"bad settings: {exc}") from None


def _store(data_dir: Path | None) -> Store:
    return Store(_settings(data_dir=data_dir).db_path)


def _check_table(settings: Settings) -> None:
    """Refuse a --table (or setting) with no usable calibration before anything starts; what
    each game needs of its zones is checked when the game starts."""
    if settings.table:
        from vision import calibrate

        try:
            calibrate.load(settings.table, settings.data_dir)
        except ValueError as exc:
            raise InputError(str(exc)) from None


def serve_table(settings: Settings, table: Table, announce: bool = True) -> None:
    """Serve the dashboard and API for ``table`` until interrupted."""
    import uvicorn

    from host.api.app import create_app

    api = create_app(settings, table)
    if announce:
        typer.echo(f"dashboard: http://{settings.host}:{settings.port}/")
        typer.echo(f"token for changes: `tableref token` (stored in {settings.token_path})")
    uvicorn.run(api, host=settings.host, port=settings.port, log_level="warning")


@app.command()
def serve(data_dir: DataDir = None, host: Host = None, port: Port = None,
          device: DeviceOpt = None, table_name: TableOpt = None) -> None:  # fmt: skip
    """Serve the dashboard and API; running games resume where they were."""
    from host.api.app import build_table

    settings = _settings(data_dir=data_dir, host=host, port=port, device=device, table=table_name)
    _check_table(settings)
    table = build_table(settings)
    if table.referees:
        typer.echo(f"resumed games: {', '.join(str(g) for g in sorted(table.referees))}")
    serve_table(settings, table)


@app.command()
def run(
    camera: Annotated[str | None, typer.Option(help="Camera index, video file or folder.")] = None,
    device: DeviceOpt = None,
    data_dir: DataDir = None,
    host: Host = None,
    port: Port = None,
    table_name: TableOpt = None,
) -> None:
    """Referee a real table: camera frames read by vision, the board, the dashboard."""
    from host.api.app import build_table
    from host.camera_feed import CameraFeed

    settings = _settings(
        data_dir=data_dir, host=host, port=port, device=device, camera=camera, table=table_name
    )
    _check_table(settings)
    table = build_table(settings)
    feed = CameraFeed.open(settings.camera or "0", table, settings.deck, settings.data_dir)
    threading.Thread(target=feed.run, name="camera", daemon=True).start()
    serve_table(settings, table)


@app.command()
def play(
    script: Annotated[Path, typer.Argument(help="A recorded table script (JSON lines).")],
    data_dir: DataDir = None,
    delay: Annotated[float, typer.Option(help="Seconds between steps.")] = 0.0,
    progress: Annotated[bool, typer.Option(help="Print each step as it is played.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Replay a recorded table script into the store; resumes after a crash."""
    from host.api.app import build_table
    from host.script import ScriptError, ScriptPlayer, load_script

    if not script.is_file():
        raise InputError(f"no script file {script}")
    try:
        steps = load_script(script)
    except ScriptError as exc:
        raise InputError(str(exc)) from None
    settings = _settings(data_dir=data_dir, device="none")
    table = build_table(settings)
    player = ScriptPlayer(table, steps, base=script.parent)

    def show(index: int) -> None:
        if progress:
            typer.echo(f"step {index}", err=True)

    try:
        referee = player.play(delay=delay, on_step=show)
    except (ScriptError, RefereeError) as exc:
        raise InputError(f"{script}: {exc}") from None
    summary = referee.summary()
    result = {"game_id": referee.game_id, "summary": summary, "errors": player.errors}
    emit(result, as_json, lambda: _print_summary(referee.row.game, summary))


def _print_summary(game: str, summary: dict[str, Any]) -> None:
    scores = summary.get("scores") or {}
    typer.echo(f"{game}: " + ", ".join(f"{p} {s}" for p, s in scores.items()))
    if summary.get("winner"):
        typer.echo(f"  winner: {summary['winner']}")


@app.command()
def token(data_dir: DataDir = None,
          url: Annotated[bool, typer.Option(help="Print a dashboard link carrying it.")] = False,
          as_json: JsonOption = False) -> None:  # fmt: skip
    """Print the table's token (made at first start); changes through the API need it."""
    from host.api.token import load_or_create_token

    settings = _settings(data_dir=data_dir)
    value = load_or_create_token(settings.token_path)
    link = f"http://{settings.host}:{settings.port}/#token={value}"
    emit({"token": value, "url": link}, as_json, lambda: typer.echo(link if url else value))


@app.command()
def sessions(data_dir: DataDir = None, as_json: JsonOption = False) -> None:
    """List the stored sessions and their games."""
    store = _store(data_dir)
    rows: list[dict[str, Any]] = [
        {"id": s.id, "name": s.name, "created": s.created, "players": list(s.players),
         "games": [{"id": g.id, "game": g.game, "status": g.status,
                    "scores": (g.summary or {}).get("scores")} for g in store.games(s.id)]}
        for s in store.sessions()
    ]  # fmt: skip

    def render() -> None:
        for s in rows:
            typer.echo(f"{s['id']}: {s['name']} ({', '.join(s['players'])}) {s['created']}")
            for g in s["games"]:
                typer.echo(f"   game {g['id']} {g['game']} {g['status']} {g['scores'] or ''}")

    emit(rows, as_json, render)


@app.command("export")
def export_(
    session: Annotated[int, typer.Argument(help="Session id (see `tableref sessions`).")],
    format: Annotated[str, typer.Option("--format", help="json or csv.")] = "json",
    what: Annotated[str, typer.Option(help="For CSV: events or scores.")] = "events",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="File to write.")] = None,
    data_dir: DataDir = None,
) -> None:
    """Export a session as JSON (re-importable) or CSV."""
    store = _store(data_dir)
    try:
        if format == "json":
            text = json.dumps(store.export_session(session), ensure_ascii=False, indent=2) + "\n"
        elif format == "csv":
            if what not in ("events", "scores"):
                raise InputError(f"--what must be events or scores, not {what!r}")
            text = store.export_csv(session, what)  # type: ignore[arg-type]
        else:
            raise InputError(f"--format must be json or csv, not {format!r}")
    except StoreError as exc:
        raise InputError(str(exc)) from None
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text)
        typer.echo(f"wrote {output}")


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A session exported as JSON.")],
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Import a session exported as JSON; every game's log is replayed and must be legal."""
    if not file.is_file():
        raise InputError(f"no file {file}")
    store = _store(data_dir)
    try:
        sid = store.import_session(file.read_text(), validate=replay_summary)
    except StoreError as exc:
        raise InputError(f"{file}: {exc}") from None
    emit({"session": sid}, as_json, lambda: typer.echo(f"imported as session {sid}"))
