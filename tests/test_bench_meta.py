"""The benchmark runner's record of where it ran: timings mean nothing without the machine."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

import bench.__main__ as runner


def test_result_names_the_machine_it_ran_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = types.ModuleType("bench.tiny")
    module.run = lambda: {"answer": 42}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.tiny", module)
    monkeypatch.setattr(runner, "RESULTS", tmp_path)

    assert runner.main(["tiny"]) == 0

    written = json.loads((tmp_path / "tiny.json").read_text())
    assert written["answer"] == 42
    meta = written["_meta"]
    assert meta["cpus"] >= 1
    assert isinstance(meta["cpu"], str) and meta["cpu"] and meta["cpu"] != "unknown"
    assert meta["seconds"] >= 0
