"""Where per-user vision state lives: table calibrations and enrolled deck profiles."""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

DATA_DIR_ENV = "TABLEREF_DATA_DIR"
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def data_dir(override: str | Path | None = None) -> Path:
    """The user's tableref data directory: ``override``, else $TABLEREF_DATA_DIR, else the
    platform's user data dir (``~/.local/share/tableref`` on Linux)."""
    if override is not None:
        return Path(override)
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("tableref", appauthor=False))


def check_name(kind: str, name: str) -> str:
    """A table or deck name becomes a file name, so it must be a plain word."""
    if not _SAFE_NAME.match(name):
        raise ValueError(
            f"invalid {kind} name {name!r}: use 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name
