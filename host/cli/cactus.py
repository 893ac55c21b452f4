"""``tableref check cactus``: is a played Cactus Game set valid, and what does it score."""

from __future__ import annotations

from typing import Annotated

import typer

from host.cli.app import check_app
from host.cli.common import JsonOption, emit
from host.rules.cactus import check_set
from host.rules.notation import split_tokens


@check_app.command("cactus")
def check_cactus(
    cards: Annotated[
        list[str],
        typer.Argument(metavar="CARDS...", help="The played cards, e.g. charlie charlie wild."),
    ],
    as_json: JsonOption = False,
) -> None:
    """Check a Cactus Game character set (exit 0 valid, 1 not a set, 2 unknown card)."""
    verdict = check_set(split_tokens(" ".join(cards)))

    def render() -> None:
        if verdict.valid:
            n = verdict.points
            typer.echo(f"valid: three {verdict.character}, {n} score card{'s' if n > 1 else ''}")
        else:
            typer.echo(verdict.reason)

    emit(verdict.to_json(), as_json, render)
    if not verdict.valid:
        raise typer.Exit(1)
