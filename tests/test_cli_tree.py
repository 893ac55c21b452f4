"""Every ``tableref`` command answers ``--help``, and every one that prints a result has ``--json``
(issue 2). Walks the whole typer tree, so a command added later is held to the same contract."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from host.cli import app

# Commands that print no result to put in JSON; each says why.
NO_RESULT: dict[str, str] = {
    "serve": "serves the dashboard until stopped",
    "run": "referees a live table until stopped",
    "export": "its output is the export itself (JSON or CSV)",
}


# typer ships its own copy of click, so groups are told apart by what they can do.
def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def _child(group: Any, name: str) -> Any:
    found = group.get_command(group.context_class(group), name)
    assert found is not None, name
    return found


def _commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name in group.list_commands(group.context_class(group)):
        yield (*path, name)
        child = _child(group, name)
        if _is_group(child):
            yield from _commands(child, (*path, name))


ROOT = typer.main.get_command(app)
COMMANDS: list[tuple[str, ...]] = [(), *_commands(ROOT)]


def _command(path: tuple[str, ...]) -> Any:
    command = ROOT
    for name in path:
        command = _child(command, name)
    return command


LEAVES = [p for p in COMMANDS if not _is_group(_command(p))]


def test_the_tree_holds_every_area() -> None:
    leaves = {" ".join(p) for p in LEAVES}
    assert {
        "score allin",
        "score rummikub",
        "score fourcolor",
        "check cactus",
        "check rummikub",
        "hint rummikub",
        "replay",
        "demo",
        "device simulate",
        "device status",
        "firmware check",
        "firmware deploy",
    } <= leaves


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "tableref")
def test_help_works(path: tuple[str, ...]) -> None:
    res = CliRunner().invoke(app, [*path, "--help"])
    assert res.exit_code == 0, res.output
    assert "Usage:" in res.stdout and (_command(path).help or "").split("\n")[0].strip()


@pytest.mark.parametrize("path", LEAVES, ids=lambda p: " ".join(p))
def test_every_command_with_a_result_takes_json(path: tuple[str, ...]) -> None:
    options = {opt for param in _command(path).params for opt in param.opts}
    name = " ".join(path)
    if name in NO_RESULT:
        assert "--json" not in options, f"{name} is listed as having no result"
    else:
        assert "--json" in options, f"{name} prints a result but has no --json"
