"""Rummikub rules benchmark: checking a 100-tile table, and hints beside rummikub-solver.

- ``check_100``: validate every set of a ~100-tile Twist table (validator cache cleared
  before each repetition, so each check is cold), and referee a whole turn on it.
- ``hint_standard``: the same seeded standard-rule positions (104 numbered tiles + 2 jokers,
  from ``random_position``) solved by our search and by rummikub-solver (an ILP through
  cvxpy); tiles placed and seconds per solve side by side.
- ``hint_twist``: our search on Twist positions (no other solver knows these jokers).
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from host.rules.rummikub import check_set, find_hint, referee_turn
from host.rules.rummikub_play import random_position
from host.rules.rummikub_sets import _check

POSITIONS = 40
HINT_BUDGET_S = 2.0


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def _big_table(rng: random.Random) -> list[list[str]]:
    table, _ = random_position(rng, table_sets=40, rack_size=0, standard=False)
    tiles, out = 0, []
    for s in table:
        if tiles >= 100:
            break
        out.append(s)
        tiles += len(s)
    return out


def _check_100() -> dict[str, Any]:
    gc.collect()
    gc.disable()  # as timeit does: a collection pause is not the checker's time
    try:
        return _check_100_timed()
    finally:
        gc.enable()


def _check_100_timed() -> dict[str, Any]:
    rng = random.Random(2024)
    tables = [_big_table(rng) for _ in range(20)]
    check_times, turn_times, check_cpu, turn_cpu = [], [], [], []
    for table in tables:
        for _ in range(10):
            _check.cache_clear()
            started, cpu = time.perf_counter(), time.process_time()
            verdicts = [check_set(s) for s in table]
            check_times.append(time.perf_counter() - started)
            check_cpu.append(time.process_time() - cpu)
            assert all(v.valid for v in verdicts)
            # a turn laying one tile at the end of the longest set, the table shown reordered
            longest = max(range(len(table)), key=lambda i: len(table[i]))
            before = [s if i != longest else s[:-1] for i, s in enumerate(table)]
            after = [*table[1:], table[0]]
            _check.cache_clear()
            started, cpu = time.perf_counter(), time.process_time()
            verdict = referee_turn(before, after, [table[longest][-1]], opened=True)
            turn_times.append(time.perf_counter() - started)
            turn_cpu.append(time.process_time() - cpu)
            assert verdict.played == (table[longest][-1],)
    sizes = [sum(map(len, t)) for t in tables]
    return {
        "tables": len(tables),
        "tiles_per_table": {"min": min(sizes), "max": max(sizes)},
        "sets_per_table": round(statistics.mean(len(t) for t in tables), 1),
        # wall clock, and CPU time of this process (what is left when other jobs share the
        # machine's cores and preempt it)
        "check_all_sets": _ms(check_times),
        "check_all_sets_cpu": _ms(check_cpu),
        "referee_turn": _ms(turn_times),
        "referee_turn_cpu": _ms(turn_cpu),
        "target_ms": 5,
    }


def _solver() -> Callable[[list[list[str]], list[str]], tuple[int, float]] | None:
    try:
        from rummikub_solver import Colour, RuleSet, SolverMode
    except ImportError:
        return None
    rules = RuleSet()
    colour_index = {c: i for i, c in enumerate(Colour)}
    letters = {"k": Colour.BLACK, "b": Colour.BLUE, "o": Colour.ORANGE, "r": Colour.RED}
    joker = rules.tiles[-1]

    def tile_of(token: str) -> int:
        if token == "J":
            return int(joker)
        return colour_index[letters[token[0]]] * rules.numbers + int(token[1:])

    def solve(table: list[list[str]], rack: list[str]) -> tuple[int, float]:
        state = rules.new_game()
        state.initial = False
        state.add_table(*(tile_of(t) for s in table for t in s))
        state.add_rack(*(tile_of(t) for t in rack))
        started = time.perf_counter()
        solution = rules.solve(state, SolverMode.TILE_COUNT)
        elapsed = time.perf_counter() - started
        return (len(solution.tiles) if solution else 0), elapsed

    # the first solve builds the model: keep it out of the timings
    solve([["r1", "r2", "r3"]], ["r4"])
    return solve


def _positions(standard: bool, seed: int) -> list[tuple[list[list[str]], list[str]]]:
    rng = random.Random(seed)
    return [
        random_position(
            rng, table_sets=rng.randint(3, 14), rack_size=rng.randint(6, 16), standard=standard
        )
        for _ in range(POSITIONS)
    ]


def _ours(table: list[list[str]], rack: list[str]) -> tuple[int, float, bool]:
    started = time.perf_counter()
    hint = find_hint(table, rack, budget_s=HINT_BUDGET_S)
    return hint.tiles_placed, time.perf_counter() - started, hint.complete


def _hint_standard() -> dict[str, Any]:
    solver = _solver()
    rows = []
    for table, rack in _positions(standard=True, seed=7):
        placed, seconds, complete = _ours(table, rack)
        row: dict[str, Any] = {
            "table_tiles": sum(map(len, table)),
            "rack": len(rack),
            "ours_placed": placed,
            "ours_s": round(seconds, 4),
            "ours_complete": complete,
        }
        if solver is not None:
            theirs, their_s = solver(table, rack)
            row.update({"solver_placed": theirs, "solver_s": round(their_s, 4)})
        rows.append(row)
    summary: dict[str, Any] = {
        "positions": len(rows),
        "hint_budget_s": HINT_BUDGET_S,
        "ours_time": _ms([r["ours_s"] for r in rows]),
        "ours_complete": sum(r["ours_complete"] for r in rows),
        "ours_tiles_total": sum(r["ours_placed"] for r in rows),
    }
    if solver is None:
        summary["rummikub_solver"] = "not installed (pip install -e '.[dev]')"
    else:
        summary.update(
            {
                "solver_time": _ms([r["solver_s"] for r in rows]),
                "solver_tiles_total": sum(r["solver_placed"] for r in rows),
                "same_tiles_placed": sum(r["ours_placed"] == r["solver_placed"] for r in rows),
                "ours_more": sum(r["ours_placed"] > r["solver_placed"] for r in rows),
                "ours_fewer": sum(r["ours_placed"] < r["solver_placed"] for r in rows),
            }
        )
    return {"summary": summary, "positions": rows}


def _hint_twist() -> dict[str, Any]:
    rows = [_ours(table, rack) for table, rack in _positions(standard=False, seed=11)]
    return {
        "positions": len(rows),
        "time": _ms([s for _, s, _ in rows]),
        "complete": sum(c for _, _, c in rows),
        "tiles_total": sum(p for p, _, _ in rows),
    }


def measure() -> dict[str, Any]:
    return {
        "check_100": _check_100(),
        "hint_standard": _hint_standard(),
        "hint_twist": _hint_twist(),
    }
