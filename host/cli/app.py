"""The typer applications every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="tableref",
    help="Table assistant for game night: read cards and tiles, referee, score, time turns.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
score_app = typer.Typer(help="Score a hand or a game's end.", no_args_is_help=True)
check_app = typer.Typer(
    help="Check whether played cards or tiles form legal sets.", no_args_is_help=True
)
hint_app = typer.Typer(help="Suggest a legal play.", no_args_is_help=True)
app.add_typer(score_app, name="score")
app.add_typer(check_app, name="check")
app.add_typer(hint_app, name="hint")
