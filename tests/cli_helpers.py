"""Run the ``tableref`` command line in-process, as the console script does."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from host.cli import main


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)


def tableref(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> Result:
    monkeypatch.setattr(sys, "argv", ["tableref", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``tableref *args`` as (exit status, stdout, stderr), for tests without monkeypatch."""
    with pytest.MonkeyPatch.context() as mp:
        result = tableref(capsys, mp, *args)
    return result.code, result.out, result.err
