"""``tableref``: the command line. Each module below registers its commands on ``app``."""

from __future__ import annotations

import sys

import typer

# Importing a module registers its commands; one module per area keeps them small.
import host.cli.calibrate  # (table calibration and zones)
import host.cli.device  # (the table device and its firmware)
import host.cli.enroll  # (deck enrolment)
import host.cli.run  # noqa: F401  (the application: serve, run, play, token, export, import)
from host.cli import allin, cactus, demo, fourcolor, replay, rummikub  # noqa: F401
from host.cli import vision as _vision  # noqa: F401
from host.cli.app import app
from host.cli.common import BAD_INPUT


def main() -> None:
    try:
        app()
    except BAD_INPUT as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)


__all__ = ["app", "main"]
