"""Rummikub with a Twist: suggest a legal play (most tiles, most points, or a valid opening).

The search rebuilds the whole table: every table tile must land in a set, rack tiles may.
It always takes the lowest remaining numbered tile (the *pivot*) and tries every set that
has it as its lowest numbered tile (runs of up to 6 slots with jokers, colour changes and
double jokers; groups; mirror runs and groups), or, for a rack tile, leaving it on the rack.
Sub-positions are memoised by the tiles left, so each is solved once. Runs longer than 6
slots are never needed: they split into shorter valid runs holding the same tiles.

A table the generator cannot rebuild (e.g. a long mirror set) falls back to keeping its
special-joker sets as they are, then to keeping the whole table and adding to it. Every hint
is checked by the turn referee before it is returned. A time budget bounds the search; the
best play found so far is returned and ``complete`` says whether the search finished.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from host.rules.notation import RUMMIKUB_COLOURS, tile_value
from host.rules.rummikub_sets import MirrorValue, check_set
from host.rules.rummikub_turn import Table, as_table, referee_turn

Goal = Literal["tiles", "points"]

N_COLOURS: Final = 4
N_NUMBERED: Final = 52
J, DJ, CJ, MJ = 52, 53, 54, 55
N_IDS: Final = 56
JOKER_IDS: Final = {"J": J, "DJ": DJ, "CJ": CJ, "MJ": MJ}
MAX_RUN_SLOTS: Final = 6
MAX_SET_JOKERS: Final = 2


def _tid(colour: int, number: int) -> int:
    return (number - 1) * N_COLOURS + colour


def _token(tid: int) -> str:
    if tid >= N_NUMBERED:
        return ("J", "DJ", "CJ", "MJ")[tid - N_NUMBERED]
    return f"{RUMMIKUB_COLOURS[tid % N_COLOURS]}{tid // N_COLOURS + 1}"


def _id(token: str) -> int:
    if token in JOKER_IDS:
        return JOKER_IDS[token]
    return _tid(RUMMIKUB_COLOURS.index(token[0]), int(token[1:]))


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested play: the whole table after it and the tiles it takes from the rack."""

    table: Table
    played: tuple[str, ...]
    points: int  # rack value of the played tiles (jokers 30)
    opening_value: int  # initial-meld value, when it is an opening
    complete: bool  # the search finished within its time budget
    note: str

    @property
    def tiles_placed(self) -> int:
        return len(self.played)

    def to_json(self) -> dict[str, object]:
        return {
            "play": bool(self.played),
            "table": [list(s) for s in self.table],
            "played": list(self.played),
            "tiles_placed": self.tiles_placed,
            "points": self.points,
            "opening_value": self.opening_value,
            "complete": self.complete,
            "note": self.note,
        }


class _OutOfTime(Exception):
    pass


class _Done(Exception):
    """Every rack tile is placed: nothing can beat it."""


# -- candidate sets containing the pivot as their lowest numbered tile ----------------------
def _candidates(p: int, avail: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Sets (as tile-id tuples in table order) whose lowest numbered tile is ``p``."""
    colour, number = p % N_COLOURS, p // N_COLOURS + 1
    jokers = {j: avail[j] for j in (J, DJ, CJ, MJ)}
    yield from _groups(p, colour, number, avail, jokers)
    yield from _runs(p, colour, number, avail, jokers)
    if jokers[MJ]:
        yield from _mirror_groups(p, colour, number, avail)
        yield from _mirror_runs(p, colour, number, avail)


def _groups(
    p: int, colour: int, number: int, avail: Sequence[int], jokers: dict[int, int]
) -> Iterator[tuple[int, ...]]:
    others = [_tid(c, number) for c in range(colour + 1, N_COLOURS) if avail[_tid(c, number)]]
    fills: list[tuple[int, ...]] = [()]
    if jokers[J]:
        fills.append((J,))
    if jokers[J] >= 2:
        fills.append((J, J))
    if jokers[DJ]:
        fills.append((DJ,))
    for mask in range(1 << len(others)):
        chosen = [others[i] for i in range(len(others)) if mask >> i & 1]
        for fill in fills:
            slots = 1 + len(chosen) + sum(2 if j == DJ else 1 for j in fill)
            if 1 + len(chosen) + len(fill) >= 3 and slots <= N_COLOURS:
                yield (p, *chosen, *fill)


def _runs(
    p: int, colour: int, number: int, avail: Sequence[int], jokers: dict[int, int]
) -> Iterator[tuple[int, ...]]:
    prefixes: list[tuple[int, ...]] = [()]
    if number >= 2 and jokers[J]:
        prefixes.append((J,))
    if number >= 3 and jokers[DJ]:
        prefixes.append((DJ,))
    if number >= 2 and jokers[CJ]:
        prefixes.append((CJ,))
    for prefix in prefixes:
        slots = sum(2 if j == DJ else 1 for j in prefix) + 1
        used = Counter(prefix)
        yield from _extend((*prefix, p), colour, number + 1, slots, used, avail)


def _extend(
    run: tuple[int, ...],
    colour: int,
    nxt: int,
    slots: int,
    used: Counter[int],
    avail: Sequence[int],
) -> Iterator[tuple[int, ...]]:
    if len(run) >= 3:
        yield run
    if slots >= MAX_RUN_SLOTS or nxt > 13:
        return
    tid = _tid(colour, nxt)
    if avail[tid] > used[tid]:
        used[tid] += 1
        yield from _extend((*run, tid), colour, nxt + 1, slots + 1, used, avail)
        used[tid] -= 1
    n_jokers = sum(used[j] for j in (J, DJ, CJ))
    if n_jokers >= MAX_SET_JOKERS:
        return
    if avail[J] > used[J]:
        used[J] += 1
        yield from _extend((*run, J), colour, nxt + 1, slots + 1, used, avail)
        used[J] -= 1
    if avail[DJ] > used[DJ] and nxt + 1 <= 13:
        used[DJ] += 1
        yield from _extend((*run, DJ), colour, nxt + 2, slots + 2, used, avail)
        used[DJ] -= 1
    if avail[CJ] > used[CJ]:
        used[CJ] += 1
        for other in range(N_COLOURS):
            if other != colour:
                yield from _extend((*run, CJ), other, nxt + 1, slots + 1, used, avail)
        used[CJ] -= 1


def _mirror_groups(
    p: int, colour: int, number: int, avail: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    ids = [_tid(c, number) for c in range(colour, N_COLOURS)]
    for a in ids:
        for b in ids:
            need = Counter((p, a, b)) if a != p else Counter((p, b))
            if a == p:
                if all(avail[t] >= k for t, k in need.items()):
                    yield (p, MJ, b)
            elif a > p and all(avail[t] >= k for t, k in need.items()):
                # two a side: p a MJ x y with {x, y} one copy of each number-7 colour pair
                for c2 in ids:
                    need2 = Counter((p, a, b, c2))
                    if b != c2 and all(avail[t] >= k for t, k in need2.items()):
                        yield (p, a, MJ, b, c2)


def _mirror_runs(
    p: int, colour: int, number: int, avail: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    for depth in (1, 2, 3):
        peak = number + depth
        if peak > 13:
            return
        side = [_tid(colour, n) for n in range(number, peak)]
        if all(avail[t] >= 2 for t in side):
            yield (*side, MJ, *reversed(side))


# -- the search -------------------------------------------------------------------------------
class _Search:
    def __init__(
        self,
        must: list[int],
        may: list[int],
        weight: list[int],
        deadline: float,
        need_value: int,
        mirror_value: MirrorValue,
        max_steps: int,
    ) -> None:
        self.weight = weight
        self.deadline = deadline
        self.need_value = need_value
        self.mirror_value = mirror_value
        self.memo: dict[tuple[bytes, int], tuple[float, tuple[int, ...] | None, int]] = {}
        self.must0, self.may0 = must, may
        self.calls = 0
        self.max_steps = max_steps
        self.best_total = float("-inf")
        self.best_path: list[tuple[int, ...]] = []
        self.cap = sum(w * k for w, k in zip(weight, may, strict=True))

    def _value(self, ids: tuple[int, ...]) -> int:
        return check_set(tuple(_token(t) for t in ids), self.mirror_value).value

    def run(self) -> tuple[float, list[tuple[int, ...]], bool]:
        must, may = list(self.must0), list(self.may0)
        try:
            total = self._solve(must, may, 0, [], 0.0)
        except _OutOfTime:
            return self.best_total, self.best_path, False
        except _Done:
            return self.best_total, self.best_path, True
        if total == float("-inf"):
            return total, [], True
        return total, self._rebuild(list(self.must0), list(self.may0), 0), True

    def _rebuild(self, must: list[int], may: list[int], value: int) -> list[tuple[int, ...]]:
        """The best continuation from a solved position, following the memo."""
        path: list[tuple[int, ...]] = []
        while True:
            key = (bytes(must) + bytes(may), min(value, self.need_value))
            entry = self.memo.get(key)
            if entry is None or entry[2] == -1:
                return path
            _, move, skip = entry
            if move is None:
                may[skip] -= 1
                continue
            for t in move:
                if must[t]:
                    must[t] -= 1
                else:
                    may[t] -= 1
            value += self._value(move)
            path.append(move)

    def _solve(
        self,
        must: list[int],
        may: list[int],
        value: int,
        path: list[tuple[int, ...]],
        gained: float,
    ) -> float:
        self.calls += 1
        if self.calls > self.max_steps or (
            self.calls & 1023 == 0 and time.perf_counter() > self.deadline
        ):
            raise _OutOfTime
        capped = min(value, self.need_value)
        key = (bytes(must) + bytes(may), capped)
        hit = self.memo.get(key)
        if hit is not None:
            if hit[0] > float("-inf"):
                self._offer(gained + hit[0], path, must, may, value)
            return hit[0]
        pivot = next((t for t in range(N_NUMBERED) if must[t] or may[t]), -1)
        if pivot < 0:
            done = not any(must[N_NUMBERED:]) and capped >= self.need_value
            result = 0.0 if done else float("-inf")
            self.memo[key] = (result, None, -1)
            if result == 0.0:
                self._offer(gained, path, must, may, value)
            return result
        best: float = float("-inf")
        best_move: tuple[int, ...] | None = None
        if not must[pivot]:
            may[pivot] -= 1
            got = self._solve(must, may, value, path, gained)
            may[pivot] += 1
            if got > best:
                best = got
        avail = [a + b for a, b in zip(must, may, strict=True)]
        for move in _candidates(pivot, avail):
            taken_must: list[int] = []
            gain = 0
            for t in move:
                if must[t]:
                    must[t] -= 1
                    taken_must.append(t)
                else:
                    may[t] -= 1
                    gain += self.weight[t]
            set_value = self._value(move) if capped < self.need_value else 0
            path.append(move)
            got = self._solve(must, may, value + set_value, path, gained + gain)
            path.pop()
            for t in move:
                if t in taken_must:
                    taken_must.remove(t)
                    must[t] += 1
                else:
                    may[t] += 1
            if got + gain > best:
                best, best_move = got + gain, move
        self.memo[key] = (best, best_move, pivot if best_move is None else -2)
        return best

    def _offer(
        self, total: float, path: list[tuple[int, ...]], must: list[int], may: list[int], value: int
    ) -> None:
        if total > self.best_total:
            self.best_total = total
            self.best_path = list(path) + self._rebuild(list(must), list(may), value)
            if total >= self.cap:
                raise _Done


# -- public -----------------------------------------------------------------------------------
def _weights(rack: Sequence[str], goal: Goal) -> list[int]:
    weight = [0] * N_IDS
    for token in set(rack):
        points = tile_value(token)
        weight[_id(token)] = 1000 + points if goal == "tiles" else 1000 * points + 1
    return weight


def _counts(tiles: Sequence[str]) -> list[int]:
    counts = [0] * N_IDS
    for token in tiles:
        counts[_id(token)] += 1
    return counts


def _search(
    table_tiles: Sequence[str],
    rack: Sequence[str],
    goal: Goal,
    deadline: float,
    need_value: int,
    mirror_value: MirrorValue,
    max_steps: int,
) -> tuple[list[tuple[str, ...]], bool] | None:
    search = _Search(
        _counts(table_tiles),
        _counts(rack),
        _weights(rack, goal),
        deadline,
        need_value,
        mirror_value,
        max_steps,
    )
    total, path, complete = search.run()
    if total == float("-inf"):
        return None
    return [tuple(_token(t) for t in move) for move in path], complete


def _extend_greedily(
    table: list[tuple[str, ...]], rack: list[str], mirror_value: MirrorValue
) -> None:
    """Add leftover rack tiles at either end of any set while it stays valid and complete."""
    changed = True
    while changed:
        changed = False
        for token in sorted(set(rack), key=lambda t: -tile_value(t)):
            for index in range(len(table)):
                s = table[index]
                for grown in ((*s, token), (token, *s)):
                    verdict = check_set(grown, mirror_value)
                    if verdict.valid and not verdict.awaiting_mirror:
                        table[index] = grown
                        rack.remove(token)
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break


def find_hint(
    table: Sequence[Sequence[str]],
    rack: Sequence[str],
    *,
    initial: bool = False,
    goal: Goal = "tiles",
    mirror_value: MirrorValue = "number",
    budget_s: float = 2.0,
    opening_points: int = 30,
    rearrange: bool = True,
    max_steps: int = 10**9,
) -> Hint:
    """The best legal play found for ``rack`` on ``table`` (``initial``: an opening meld).

    ``rearrange=False`` keeps every table set as it is and only adds new sets and tiles at
    the ends of sets (fast; what a cautious player does). ``max_steps`` bounds the search
    by positions visited instead of time, so that a seeded bot plays the same on any machine.
    """
    before = as_table(table)
    started = time.perf_counter()
    rack = list(rack)
    if initial:
        found = _search([], rack, goal, started + budget_s, opening_points, mirror_value, max_steps)
        attempts: list[tuple[Table, list[tuple[str, ...]], bool]] = []
        if found is not None and found[0]:
            attempts.append((before, found[0], found[1]))
    else:
        attempts = []
        plans: list[Table] = [
            (),
            tuple(s for s in before if any(t in ("DJ", "CJ", "MJ") for t in s)),
            before,
        ]
        if not rearrange:
            plans = [before]
        for frozen in plans:
            if attempts and attempts[-1][2]:
                break
            loose = Counter(t for s in before for t in s) - Counter(t for s in frozen for t in s)
            budget_left = started + budget_s - time.perf_counter()
            found = _search(
                list(loose.elements()),
                rack,
                goal,
                time.perf_counter() + max(budget_left, 0.05),
                0,
                mirror_value,
                max_steps,
            )
            if found is not None:
                attempts.append((frozen, found[0], found[1]))
    best: Hint | None = None
    for frozen, sets, complete in attempts:
        new_table = [*frozen, *sets]
        left = list((Counter(rack) - Counter(t for s in sets for t in s)).elements())
        if not initial:
            _extend_greedily(new_table, left, mirror_value)
        hint = _verified(
            before, _tidy(before, new_table), rack, initial, mirror_value, complete, opening_points
        )
        if hint is not None and (best is None or _score(hint, goal) > _score(best, goal)):
            best = hint
    if best is None or not best.played:
        note = (
            f"no opening of {opening_points} points from the rack alone: draw a tile"
            if initial
            else "no legal play found: draw a tile"
        )
        return Hint(before, (), 0, 0, bool(best.complete) if best else True, note)
    return best


def _tidy(before: Table, after: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Sets left as they were first, in their old order; then the new or changed ones."""
    remaining = list(after)
    kept = []
    for old in before:
        if old in remaining:
            remaining.remove(old)
            kept.append(old)
    return kept + remaining


def _score(hint: Hint, goal: Goal) -> tuple[int, int]:
    if goal == "tiles":
        return hint.tiles_placed, hint.points
    return hint.points, hint.tiles_placed


def _verified(
    before: Table,
    after: list[tuple[str, ...]],
    rack: Sequence[str],
    initial: bool,
    mirror_value: MirrorValue,
    complete: bool,
    opening_points: int,
) -> Hint | None:
    verdict = referee_turn(
        before,
        after,
        rack,
        opened=not initial,
        mirror_value=mirror_value,
        opening_points=opening_points,
    )
    if not verdict.legal:
        return None
    points = sum(tile_value(t) for t in verdict.played)
    note = (
        f"play {len(verdict.played)} tile(s): {' '.join(verdict.played)}"
        if verdict.played
        else "no tile to play"
    )
    if not complete:
        note += " (best found within the time budget)"
    return Hint(as_table(after), verdict.played, points, verdict.opening_value, complete, note)
