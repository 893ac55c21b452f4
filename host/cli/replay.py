"""``tableref replay``: rebuild any game from its JSON-lines event log and show where it ended."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit
from host.rules.base import events_from_jsonl
from host.rules.notation import GAME_TITLES
from host.rules.registry import load_game
from host.rules.summary import summarize


def replay_text(text: str, source: str) -> dict[str, Any]:
    """The summary of the game a JSON-lines log records, plus how many events it holds."""
    events = events_from_jsonl(text, source)
    game = load_game(events)
    result = summarize(game)
    result["events"] = len(game)
    return result


@app.command("replay")
def replay(
    file: Annotated[str, typer.Argument(help="The event log (JSON lines); - reads stdin.")],
    as_json: JsonOption = False,
) -> None:
    """Replay a game's event log through its rules engine and print scores and winner."""
    try:
        if file == "-":
            text = sys.stdin.read()
        else:
            path = Path(file)
            if not path.is_file():
                raise InputError(f"no such log file: {file}")
            text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file} is not a text log (not UTF-8 at byte {exc.start})") from None
    result = replay_text(text, file)
    emit(result, as_json, lambda: render_summary(result))


def render_summary(result: dict[str, Any]) -> None:
    title = GAME_TITLES.get(result["game"], result["game"])
    typer.echo(f"{title}: {len(result['players'])} players, {result['events']} events")
    scores = result["scores"]
    width = max(len(n) for n in scores)
    for name, score in sorted(scores.items(), key=lambda kv: kv[1], reverse=True):
        typer.echo(f"  {name:<{width}}  {score}")
    if not result["finished"]:
        typer.echo("game in progress")
    elif result["winner"] is None:
        typer.echo("game over: no winner")
    else:
        typer.echo(f"winner: {result['winner']}")
