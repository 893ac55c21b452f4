"""The set validator against a brute-force checker written independently from the book's words.

The brute force tries every concrete tile each joker could stand for and accepts the set if
any choice makes the concrete slots a group, a run or a mirror set by the plain definitions;
the fast validator instead derives the numbers and colours directly. Hypothesis compares them
on random sets built near valid ones (so both answers occur often), with up to two jokers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from host.rules.rummikub import check_set

COLOURS = "krbo"
NUMBERED = [f"{c}{n}" for c in COLOURS for n in range(1, 14)]

Slot = tuple[str, int, str]  # colour, number, what physical tile it came from


def _expansions(tiles: list[str]) -> Iterator[list[Slot]]:
    """Every way to give each joker concrete slots (a double joker two)."""
    choices: list[list[list[Slot]]] = []
    for token in tiles:
        if token == "DJ":
            choices.append(
                [
                    [(c1, n1, "DJ"), (c2, n2, "DJ")]
                    for c1, c2 in itertools.product(COLOURS, repeat=2)
                    for n1 in range(1, 14)
                    for n2 in range(1, 14)
                ]
            )
        elif token == "J":
            choices.append([[(c, n, token)] for c in COLOURS for n in range(1, 14)])
        elif token in ("CJ", "MJ"):
            # their own colour never matters: a CJ only separates, an MJ only mirrors
            choices.append([[("-", n, token)] for n in range(1, 14)])
        else:
            choices.append([[(token[0], int(token[1:]), "n")]])
    for combo in itertools.product(*choices):
        yield [slot for part in combo for slot in part]


def _run_colours_ok(slots: list[Slot]) -> bool:
    """One colour, except that each colour-change joker starts a new, different colour."""
    stretches: list[set[str]] = [set()]
    for colour, _, kind in slots:
        if kind == "CJ":
            stretches.append(set())
        elif kind != "MJ":
            stretches[-1].add(colour)
    if any(len(s) > 1 for s in stretches):
        return False
    return all(not (a and b and a == b) for a, b in itertools.pairwise(stretches))


def _is_run(slots: list[Slot]) -> bool:
    numbers = [n for _, n, _ in slots]
    return all(b == a + 1 for a, b in itertools.pairwise(numbers)) and _run_colours_ok(slots)


def _is_group(slots: list[Slot]) -> bool:
    if any(kind == "CJ" for _, _, kind in slots):
        return False
    colours = [c for c, _, _ in slots]
    return len({n for _, n, _ in slots}) == 1 and len(set(colours)) == len(colours) <= 4


def _mirror_ok(slots: list[Slot]) -> tuple[bool, bool]:
    """(valid, awaiting) for a set with one mirror joker."""
    m = next(i for i, s in enumerate(slots) if s[2] == "MJ")
    left, right = slots[:m][::-1], slots[m + 1 :]
    if abs(len(left) - len(right)) > 1:
        return False, False
    awaiting = len(left) != len(right)
    peak = slots[m][1]
    as_run = (
        all(n == peak - d for d, (_, n, _) in enumerate(left, start=1))
        and all(n == peak - d for d, (_, n, _) in enumerate(right, start=1))
        and _run_colours_ok(slots)
    )
    numbers = {n for _, n, _ in slots}
    as_group = (
        len(numbers) == 1
        and not any(k == "CJ" for _, _, k in slots)
        and all(len({c for c, _, _ in side}) == len(side) <= 4 for side in (left, right))
    )
    return as_run or as_group, awaiting


def brute(tiles: list[str]) -> tuple[bool, bool, int]:
    """(valid, awaiting a mirror tile, best value) by trying every joker assignment."""
    if len(tiles) < 3:
        return False, False, 0
    mirrors = tiles.count("MJ")
    if mirrors > 1:
        return False, False, 0
    found, awaiting, best = False, False, 0
    for slots in _expansions(tiles):
        if mirrors:
            ok, waits = _mirror_ok(slots)
        else:
            ok, waits = _is_run(slots) or _is_group(slots), False
        if ok:
            value = sum(n for _, n, _ in slots)
            if not found or value > best:
                best, awaiting = value, waits
            found = True
    return found, awaiting, best


@st.composite
def near_valid_sets(draw: st.DrawFn) -> list[str]:
    colour = draw(st.sampled_from(COLOURS))
    kind = draw(st.sampled_from(["run", "group", "mirror_run", "mirror_group"]))
    if kind == "run":
        length = draw(st.integers(3, 6))
        start = draw(st.integers(1, 14 - length))
        tiles = [f"{colour}{n}" for n in range(start, start + length)]
    elif kind == "group":
        number = draw(st.integers(1, 13))
        colours = draw(st.permutations(COLOURS))[: draw(st.integers(3, 4))]
        tiles = [f"{c}{number}" for c in colours]
    elif kind == "mirror_run":
        depth = draw(st.integers(1, 3))
        peak = draw(st.integers(depth + 1, 13))
        side = [f"{colour}{n}" for n in range(peak - depth, peak)]
        tiles = [*side, "MJ", *reversed(side)]
        if peak - depth > 1 and draw(st.booleans()):  # one-sided growth: awaiting its mirror
            extra = f"{colour}{peak - depth - 1}"
            tiles = [extra, *tiles] if draw(st.booleans()) else [*tiles, extra]
    else:
        number = draw(st.integers(1, 13))
        side = [f"{c}{number}" for c in draw(st.permutations(COLOURS))[: draw(st.integers(1, 2))]]
        tiles = [*side, "MJ", *reversed(side)]
        if draw(st.booleans()):
            extra = f"{draw(st.sampled_from(COLOURS))}{number}"
            tiles = [extra, *tiles] if draw(st.booleans()) else [*tiles, extra]
    # mutations: replace tiles by jokers, nudge a number or colour, add or drop a tile
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, len(tiles) - 1))
        if tiles[i] != "MJ":
            tiles[i] = draw(st.sampled_from(["J", "CJ", "DJ"]))
    if draw(st.booleans()):
        i = draw(st.integers(0, len(tiles) - 1))
        if tiles[i] not in ("J", "DJ", "CJ", "MJ"):
            n = int(tiles[i][1:]) + draw(st.sampled_from([-1, 1]))
            c = draw(st.sampled_from(COLOURS))
            if 1 <= n <= 13:
                tiles[i] = f"{c}{n}"
    if draw(st.booleans()):
        tiles.insert(draw(st.integers(0, len(tiles))), draw(st.sampled_from(NUMBERED)))
    if draw(st.booleans()) and len(tiles) > 3:
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return tiles


def _small_enough(tiles: list[str]) -> bool:
    # the brute force multiplies the choices of every joker: keep it to a few thousand
    options = {"J": 52, "DJ": 52 * 52, "CJ": 13, "MJ": 13}
    work = 1
    for t in tiles:
        work *= options.get(t, 1)
    return work <= 4000


@settings(max_examples=400, deadline=None)
@given(near_valid_sets())
def test_validator_agrees_with_brute_force(tiles: list[str]) -> None:
    if not _small_enough(tiles):
        return
    valid, awaiting, value = brute(tiles)
    verdict = check_set(tiles)
    assert verdict.valid == valid, (tiles, verdict.reason)
    if valid:
        assert verdict.awaiting_mirror == awaiting, tiles
        assert verdict.value == value, tiles
    else:
        assert verdict.reason


def test_brute_force_sanity() -> None:
    assert brute(["o2", "DJ", "o5"]) == (True, False, 14)
    assert brute(["b4", "MJ", "b4", "b3"]) == (True, True, 16)
    assert brute(["DJ", "b2", "b3"])[0] is False
