"""The hint search: best plays on small positions, checked against exhaustive enumeration."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from host.rules.rummikub import find_hint, referee_turn
from host.rules.rummikub_play import random_position


def sets(*texts: str) -> list[list[str]]:
    return [t.split() for t in texts]


def test_book_rearrangement_found_three_groups_and_a_run() -> None:
    hint = find_hint(sets("r5 r6 r7", "o5 o6 o7", "k5 k6 k7 k8 k9"), ["k10", "b5"])
    assert hint.played == ("b5", "k10") and hint.complete


def test_book_joker_won_back_and_replayed() -> None:
    hint = find_hint(sets("k1 k2 J", "r1 b1 o1", "r2 b2 o2"), ["r11", "r12"])
    assert sorted(hint.played) == ["r11", "r12"]
    assert any("J" in s and "r11" in s for s in hint.table)


def test_hint_uses_twist_jokers() -> None:
    assert find_hint(sets("k9 k10 k11"), ["o2", "DJ", "o5"]).tiles_placed == 3
    mirror = find_hint([], ["b4", "MJ", "b4", "r10", "r11", "r12", "k1"], initial=False)
    assert {"b4", "MJ"} <= set(mirror.played)
    change = find_hint([], ["r3", "r4", "CJ", "b6", "b7"])
    assert change.tiles_placed == 5


def test_opening_needs_30_from_the_rack_alone() -> None:
    hint = find_hint(sets("k1 k2 k3"), ["r10", "r11", "r12", "k4", "o1", "o9"], initial=True)
    assert hint.played == ("r10", "r11", "r12") and hint.opening_value == 33
    assert hint.table[0] == ("k1", "k2", "k3")  # the table is left untouched
    none = find_hint(sets("k1 k2 k3"), ["r1", "r2", "r3", "k4"], initial=True)
    assert not none.played and "no opening of 30 points" in none.note


@pytest.mark.parametrize("seed", range(3))
def test_points_goal_trades_tiles_for_points(seed: int) -> None:
    table, rack = random_position(random.Random(100 + seed), table_sets=4, rack_size=8)
    by_tiles = find_hint(table, rack, goal="tiles")
    by_points = find_hint(table, rack, goal="points")
    assert by_points.points >= by_tiles.points
    assert by_tiles.tiles_placed >= by_points.tiles_placed


def test_no_play_says_draw() -> None:
    hint = find_hint(sets("r4 r5 r6"), ["k9", "b2"])
    assert not hint.played and hint.note == "no legal play found: draw a tile"


def _exhaustive_best(table: list[list[str]], rack: list[str]) -> int:
    """Most rack tiles placeable: try every subset of the rack, largest first, by search."""
    for size in range(len(rack), 0, -1):
        for subset in set(itertools.combinations(sorted(rack), size)):
            hint = find_hint(table, list(subset), budget_s=5)
            if hint.tiles_placed == size:
                return size
    return 0


@pytest.mark.parametrize("seed", range(6))
def test_hints_are_legal_and_no_smaller_than_any_rack_subset(seed: int) -> None:
    rng = random.Random(seed)
    table, rack = random_position(rng, table_sets=4, rack_size=6)
    hint = find_hint(table, rack, budget_s=5)
    assert hint.complete
    verdict = referee_turn(table, hint.table, rack, opened=True)
    assert verdict.legal or not hint.played, verdict.reasons
    assert Counter(hint.played) <= Counter(rack)
    assert hint.tiles_placed == _exhaustive_best(table, rack)


def test_same_tiles_placed_as_rummikub_solver_on_standard_positions() -> None:
    from rummikub_solver import Colour, RuleSet, SolverMode

    rules = RuleSet()
    letters = {"k": Colour.BLACK, "b": Colour.BLUE, "o": Colour.ORANGE, "r": Colour.RED}
    order = list(Colour)

    def tile_of(token: str) -> int:
        if token == "J":
            return int(rules.tiles[-1])
        return order.index(letters[token[0]]) * rules.numbers + int(token[1:])

    rng = random.Random(2026)
    for _ in range(6):
        table, rack = random_position(rng, table_sets=rng.randint(3, 8), rack_size=10)
        state = rules.new_game()
        state.initial = False
        state.add_table(*(tile_of(t) for s in table for t in s))
        state.add_rack(*(tile_of(t) for t in rack))
        solution = rules.solve(state, SolverMode.TILE_COUNT)
        theirs = len(solution.tiles) if solution else 0
        hint = find_hint(table, rack, budget_s=10)
        assert hint.complete
        assert hint.tiles_placed == theirs, (table, rack)


def test_a_table_joker_freed_by_the_search_is_laid_again() -> None:
    hint = find_hint(sets("r5 r6 r7 J"), ["r8"])
    assert hint.played == ("r8",)
    assert sum(s.count("J") for s in hint.table) == 1
    assert referee_turn(sets("r5 r6 r7 J"), hint.table, ["r8"], opened=True).legal


def test_a_table_set_waiting_for_its_mirror_gets_it() -> None:
    table = sets("b4 MJ b4 b3", "k9 k10 k11")
    hint = find_hint(table, ["k12", "b3"])
    assert sorted(hint.played) == ["b3", "k12"]
    assert ("b3", "b4", "MJ", "b4", "b3") in hint.table


def test_cautious_hint_keeps_every_table_set() -> None:
    table = sets("r5 r6 r7", "o5 o6 o7", "k5 k6 k7 k8 k9")
    hint = find_hint(table, ["k10", "b5"], rearrange=False)
    assert hint.played == ("k10",)
    assert hint.table == (
        ("r5", "r6", "r7"),
        ("o5", "o6", "o7"),
        ("k5", "k6", "k7", "k8", "k9", "k10"),
    )
