"""The firmware's logic, under CPython here and under the real MicroPython interpreter below."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import pytest

from host.link import tools

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "firmware_logic"))
import fw_cases as cases

CASES: list[tuple[str, Callable[[], None]]] = cases.CASES


@pytest.mark.parametrize("name,case", CASES, ids=[name for name, _ in CASES])
def test_logic_under_cpython(name: str, case: Callable[[], None]) -> None:
    case()


@pytest.mark.parametrize("heap", [None, tools.PICO_HEAP])
def test_logic_under_micropython(heap: str | None) -> None:
    """The same cases in MicroPython (unix port), also squeezed into a Pico-sized heap."""
    proc = tools.run_micropython([str(tools.LOGIC_RUNNER)], heap=heap)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = proc.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"{len(CASES)} cases, 0 failed"), summary
