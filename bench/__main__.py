"""Run every benchmark module (or those named) and write its results as JSON.

Each module in this package defines ``run() -> dict``; its result lands in
``bench/results/<module>.json`` with the machine it ran on.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import platform
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def _modules() -> list[str]:
    # Modules starting with "_" are parts that a public benchmark module gathers, or tools
    # run on their own (``python -m bench._sweep``).
    found = pkgutil.iter_modules([str(Path(__file__).parent)])
    return sorted(m.name for m in found if not m.name.startswith("_"))


def _cpu_model() -> str:
    # Timings differ by half between the 2-core machines this runs on; the model tells which.
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(argv: list[str]) -> int:
    names = argv or _modules()
    RESULTS.mkdir(parents=True, exist_ok=True)
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        started = time.perf_counter()
        print(f"bench {name} ...", flush=True)
        result = module.run()
        result["_meta"] = {
            "seconds": round(time.perf_counter() - started, 2),
            "machine": platform.machine(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "cpu": _cpu_model(),
            "date": time.strftime("%Y-%m-%d"),
        }
        path = RESULTS / f"{name}.json"
        path.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        print(f"  wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
