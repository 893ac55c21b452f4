"""Shared CLI plumbing: JSON or human output, and the errors that mean bad input (exit 2)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from host.rules.base import LogError
from host.rules.notation import NotationError

JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


class InputError(ValueError):
    """Bad command-line input that no engine error describes already."""


# Exceptions that mean "the input was wrong": reported in one line, exit status 2.
BAD_INPUT: tuple[type[Exception], ...] = (NotationError, LogError, InputError)


def emit(result: Any, as_json: bool, render: Callable[[], None]) -> None:
    """Print ``result`` as JSON, or call ``render`` for people."""
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    else:
        render()


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)
