"""Rules engines benchmark (bench/results/rules.json): one section per game's part module.

Each game's measurements live in ``bench/_rules_<game>.py`` with ``measure() -> dict``.
"""

from __future__ import annotations

import importlib
from typing import Any

PARTS = ("allin", "cactus", "rummikub", "fourcolor")


def run() -> dict[str, Any]:
    result: dict[str, Any] = {}
    for game in PARTS:
        try:
            module = importlib.import_module(f"bench._rules_{game}")
        except ModuleNotFoundError:
            continue
        print(f"  rules/{game}", flush=True)
        result[game] = module.measure()
    return result
