"""Rummikub with a Twist: suggest a legal play (most tiles, most points, or a valid opening).

First the cautious play: every table set kept, new sets from the rack, tiles added at set
ends. Then a search over every rearrangement of the table that looks only for something
better: every table tile must land in a set, rack tiles may. It always takes the lowest
numbered tile left (the *pivot*) and either grows a run left open at the number below it,
lays a new set with the pivot as its lowest numbered tile (groups, 3-tile run seeds with
regular, double and colour-change jokers, mirror runs and groups), or, for a rack tile,
leaves it on the rack. Positions (tiles left + open runs) are memoised with exact values
or upper bounds, and a position whose rack tiles together cannot beat the best play found
is cut off. Jokers are never laid where they are redundant (the end of a run longer than 3,
a group of 4): jokers left over are added to the end of a set afterwards.

A table the search cannot rebuild (a mirror set waiting for its tile, say) is retried with
its special-joker sets kept as they are. Every hint is checked by the turn referee before
it is returned. A time budget bounds the search; the best play found so far is returned and
``complete`` says whether the search finished.
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


# -- moves at the pivot ------------------------------------------------------------------------
# A move is a tuple of ints: (NEW, open colour or -1, open end, *tiles) lays a new set and,
# for a run, leaves it open for extension at its end; (EXT, colour, end, *tiles) lengthens
# the open run of that colour ending at that number with tiles (jokers filling a gap, then
# the pivot). Runs are laid as 3-tile seeds and grown one number at a time, so a position
# only needs to know which runs are open at the pivot's number, not how long they are.
NEW, EXT = 0, 1
MAX_GAP = 2  # jokers between an open run's end and the pivot when extending it


def _new_sets(p: int, avail: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """New sets whose lowest numbered tile is the pivot ``p``."""
    colour, number = p % N_COLOURS, p // N_COLOURS + 1
    jokers = {j: avail[j] for j in (J, DJ, CJ, MJ)}
    for tiles in _groups(p, colour, number, avail, jokers):
        yield (NEW, -1, 0, *tiles)
    yield from _runs(p, colour, number, avail, jokers)
    if jokers[MJ]:
        for tiles in _mirror_groups(p, colour, number, avail):
            yield (NEW, -1, 0, *tiles)
        for tiles in _mirror_runs(p, colour, number, avail):
            yield (NEW, -1, 0, *tiles)


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
            tiles = 1 + len(chosen) + len(fill)
            # jokers only where needed: a group of 4 tiles holding a joker is redundant
            if (tiles == 3 or (tiles > 3 and not fill)) and slots <= N_COLOURS:
                yield (p, *chosen, *fill)


def _runs(
    p: int, colour: int, number: int, avail: Sequence[int], jokers: dict[int, int]
) -> Iterator[tuple[int, ...]]:
    """3-tile run seeds starting with the pivot or with one joker before it."""
    used = [0] * N_IDS
    used[p] = 1
    yield from _seed((p,), colour, number + 1, used, avail)
    for j, width in ((J, 1), (DJ, 2), (CJ, 1)):
        if jokers[j] and number > width:
            used[j] += 1
            yield from _seed((j, p), colour, number + 1, used, avail)
            used[j] -= 1


def _seed(
    run: tuple[int, ...], colour: int, nxt: int, used: list[int], avail: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    if len(run) == 3:
        if nxt <= 13:
            yield (NEW, colour, nxt - 1, *run)
        else:
            yield (NEW, -1, 0, *run)
        return
    if nxt > 13:
        return
    tid = _tid(colour, nxt)
    if avail[tid] > used[tid]:
        used[tid] += 1
        yield from _seed((*run, tid), colour, nxt + 1, used, avail)
        used[tid] -= 1
    if avail[J] > used[J]:
        used[J] += 1
        yield from _seed((*run, J), colour, nxt + 1, used, avail)
        used[J] -= 1
    if avail[DJ] > used[DJ] and nxt + 1 <= 13:
        used[DJ] += 1
        yield from _seed((*run, DJ), colour, nxt + 2, used, avail)
        used[DJ] -= 1
    if avail[CJ] > used[CJ] and run[-1] != CJ:
        used[CJ] += 1
        for other in range(N_COLOURS):
            if other != colour:
                yield from _seed((*run, CJ), other, nxt + 1, used, avail)
        used[CJ] -= 1


def _extensions(
    p: int, opens: tuple[tuple[int, int], ...], avail: Sequence[int]
) -> Iterator[tuple[int, ...]]:
    """Ways to lengthen an open run so that it ends with the pivot."""
    colour, number = p % N_COLOURS, p // N_COLOURS + 1
    for oc, end in sorted(set(opens)):
        gap = number - 1 - end
        if oc == colour:
            if gap == 0:
                yield (EXT, oc, end, p)
            elif gap == 1 and avail[J]:
                yield (EXT, oc, end, J, p)
            elif gap == 2:
                if avail[DJ]:
                    yield (EXT, oc, end, DJ, p)
                if avail[J] >= 2:
                    yield (EXT, oc, end, J, J, p)
        elif gap == 1 and avail[CJ]:
            yield (EXT, oc, end, CJ, p)


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
NEG: Final = float("-inf")
EXACT = True  # a memo entry holding the exact value (else an upper bound)
Opens = tuple[tuple[int, int], ...]


def _tiles_of(move: tuple[int, ...]) -> tuple[int, ...]:
    return move[3:]


def _after(move: tuple[int, ...], opens: Opens, p: int) -> Opens:
    """Open runs after ``move``."""
    kind, colour, end = move[0], move[1], move[2]
    out = list(opens)
    if kind == EXT:
        out.remove((colour, end))
        number = p // N_COLOURS + 1
        if number < 13:
            out.append((p % N_COLOURS, number))
    elif colour >= 0:
        out.append((colour, end))
    return tuple(sorted(out))


class _Search:
    """Branch and bound over positions, memoised with exact values or upper bounds.

    A position is the tiles left (table tiles that must be laid, rack tiles that may) and
    the runs open for extension. ``_solve(position, alpha)`` returns the best gain still
    to be had when it beats ``alpha``, otherwise an upper bound ≤ ``alpha``; the bound that
    cuts a position off is the weight of the rack tiles left in it.
    """

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
        # key -> (value, exact?, best move (None: leave the pivot on the rack), pivot)
        self.memo: dict[
            tuple[bytes, Opens, int], tuple[float, bool, tuple[int, ...] | None, int]
        ] = {}
        self.must0, self.may0 = must, may
        self.calls = 0
        self.max_steps = max_steps
        self.best_total = NEG
        self.best_path: list[tuple[int, ...]] = []
        self.cap = sum(w * k for w, k in zip(weight, may, strict=True))
        self.avail = [a + b for a, b in zip(must, may, strict=True)]  # kept in step
        self.new_sets: dict[tuple[int, bytes, bytes], list[tuple[int, ...]]] = {}

    def _value(self, move: tuple[int, ...], p: int) -> int:
        if move[0] == EXT:
            return sum(range(move[2] + 1, p // N_COLOURS + 2))
        return check_set(tuple(_token(t) for t in _tiles_of(move)), self.mirror_value).value

    def run(self, alpha: float = NEG) -> tuple[float, list[tuple[int, ...]], bool]:
        """Best gain, its moves, and whether the search finished; only gains above
        ``alpha`` are looked for (NEG and no moves when there is none)."""
        must, may = list(self.must0), list(self.may0)
        try:
            total = self._solve(must, may, (), 0, [], 0.0, alpha, self.cap, 0)
        except _OutOfTime:
            if self.best_total <= alpha:
                return NEG, [], False
            return self.best_total, self.best_path, False
        except _Done:
            return self.best_total, self.best_path, True
        if total <= alpha:
            return NEG, [], True
        return total, self._rebuild(list(self.must0), list(self.may0), (), 0), True

    def _pivot(self, from_tile: int = 0) -> int:
        """The lowest numbered tile left (none below ``from_tile`` is left)."""
        avail = self.avail
        for t in range(from_tile, N_NUMBERED):
            if avail[t]:
                return t
        return -1

    def _key(
        self, must: list[int], may: list[int], opens: Opens, value: int
    ) -> tuple[bytes, Opens, int]:
        return bytes(must) + bytes(may), opens, min(value, self.need_value)

    @staticmethod
    def _take(move: tuple[int, ...], must: list[int], may: list[int]) -> None:
        for t in _tiles_of(move):
            if must[t]:
                must[t] -= 1
            else:
                may[t] -= 1

    def _rebuild(
        self, must: list[int], may: list[int], opens: Opens, value: int
    ) -> list[tuple[int, ...]]:
        """The best continuation from a solved position, following exact memo entries."""
        path: list[tuple[int, ...]] = []
        while True:
            p = next((t for t in range(N_NUMBERED) if must[t] or may[t]), -1)
            if p >= 0:
                opens = tuple(o for o in opens if o[1] >= p // N_COLOURS - MAX_GAP)
            entry = self.memo.get(self._key(must, may, opens, value))
            if entry is None or not entry[1] or entry[0] == NEG or entry[3] < 0:
                return path
            _, _, move, pivot = entry
            if move is None:
                may[pivot] -= 1
                continue
            self._take(move, must, may)
            value += self._value(move, pivot)
            opens = _after(move, opens, pivot)
            path.append(move)

    def _solve(
        self,
        must: list[int],
        may: list[int],
        opens: Opens,
        value: int,
        path: list[tuple[int, ...]],
        gained: float,
        alpha: float,
        left: float,
        from_tile: int,
    ) -> float:
        """``left``: total weight of the rack tiles still in the position (the bound);
        ``from_tile``: no numbered tile below it is left."""
        self.calls += 1
        if self.calls > self.max_steps or (
            self.calls & 255 == 0 and time.perf_counter() > self.deadline
        ):
            raise _OutOfTime
        pivot = self._pivot(from_tile)
        if pivot >= 0 and opens:
            # a run open below the pivot's number minus the widest gap can never grow again
            opens = tuple(o for o in opens if o[1] >= pivot // N_COLOURS - MAX_GAP)
        key = self._key(must, may, opens, value)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] <= alpha):
            if hit[1] and hit[0] > NEG:
                self._offer(gained + hit[0], path, must, may, opens, value)
            return hit[0]
        if left <= alpha:
            return left  # even placing every rack tile left cannot beat alpha
        if pivot < 0:
            # Jokers left over are laid at the end of some set afterwards (a mirror joker
            # cannot be: it needs two sides); rack jokers count as placed.
            done = not must[MJ] and key[2] >= self.need_value
            result = sum(self.weight[j] * may[j] for j in (J, DJ, CJ)) if done else NEG
            self.memo[key] = (result, EXACT, None, -1)
            if done:
                self._offer(gained + result, path, must, may, opens, value)
            return result
        best, best_move = NEG, None
        avail = self.avail
        # Growing a run first, then new sets placing the most rack tiles: a full placement
        # found early ends the search.
        moves = list(_extensions(pivot, opens, avail)) if opens else []
        moves += sorted(self._new_sets(pivot), key=lambda m: -self._optional_gain(m, must))
        for move in moves:
            from_must: list[int] = []
            gain = 0
            for t in _tiles_of(move):
                avail[t] -= 1
                if must[t]:
                    must[t] -= 1
                    from_must.append(t)
                else:
                    may[t] -= 1
                    gain += self.weight[t]
            set_value = self._value(move, pivot) if key[2] < self.need_value else 0
            path.append(move)
            got = self._solve(
                must,
                may,
                _after(move, opens, pivot),
                value + set_value,
                path,
                gained + gain,
                max(alpha, best) - gain,
                left - gain,
                pivot,
            )
            path.pop()
            for t in _tiles_of(move):
                avail[t] += 1
                if t in from_must:
                    from_must.remove(t)
                    must[t] += 1
                else:
                    may[t] += 1
            if got + gain > best:
                best, best_move = got + gain, move
        if not must[pivot]:
            may[pivot] -= 1
            avail[pivot] -= 1
            skipped = self.weight[pivot]
            got = self._solve(
                must, may, opens, value, path, gained, max(alpha, best), left - skipped, pivot
            )
            may[pivot] += 1
            avail[pivot] += 1
            if got > best:
                best, best_move = got, None
        # hit, if any, was only an upper bound above alpha: this result is at least as tight
        self.memo[key] = (best, best > alpha, best_move, pivot)
        return best

    def _new_sets(self, pivot: int) -> list[tuple[int, ...]]:
        """New sets at the pivot; they depend only on the tiles of its number and the three
        above it and on the jokers, so they are generated once per such neighbourhood."""
        low = pivot - pivot % N_COLOURS
        avail = self.avail
        near = (pivot, bytes(avail[low : min(low + 4 * N_COLOURS, N_NUMBERED)]), bytes(avail[J:]))
        found = self.new_sets.get(near)
        if found is None:
            found = list(_new_sets(pivot, avail))
            self.new_sets[near] = found
        return found

    def _optional_gain(self, move: tuple[int, ...], must: list[int]) -> int:
        tiles = _tiles_of(move)
        spare = {t: must[t] for t in tiles}
        gain = 0
        for t in tiles:
            if spare[t]:
                spare[t] -= 1
            else:
                gain += self.weight[t]
        return gain

    def _offer(
        self,
        total: float,
        path: list[tuple[int, ...]],
        must: list[int],
        may: list[int],
        opens: Opens,
        value: int,
    ) -> None:
        if total > self.best_total:
            self.best_total = total
            self.best_path = list(path) + self._rebuild(list(must), list(may), opens, value)
            if total >= self.cap:
                raise _Done


def _lay_moves(moves: list[tuple[int, ...]]) -> list[tuple[str, ...]]:
    """The sets a list of moves builds, as tokens in table order."""
    sets: list[list[int]] = []
    ends: list[tuple[int, int] | None] = []
    for move in moves:
        kind, colour, end, tiles = move[0], move[1], move[2], _tiles_of(move)
        if kind == NEW:
            sets.append(list(tiles))
            ends.append((colour, end) if colour >= 0 else None)
            continue
        index = ends.index((colour, end))
        sets[index].extend(tiles)
        last = tiles[-1]
        number = last // N_COLOURS + 1
        ends[index] = (last % N_COLOURS, number) if number < 13 else None
    return [tuple(_token(t) for t in s) for s in sets]


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
    alpha: float = NEG,
) -> tuple[list[tuple[str, ...]] | None, bool]:
    """The sets of the best arrangement gaining more than ``alpha`` (None: none found),
    and whether the search finished."""
    must = _counts(table_tiles)
    search = _Search(
        must,
        _drop_hopeless(must, _counts(rack)),
        _weights(rack, goal),
        deadline,
        need_value,
        mirror_value,
        max_steps,
    )
    total, path, complete = search.run(alpha)
    if total == NEG:
        return None, complete
    return _lay_moves(path), complete


def _could_join_a_set(t: int, avail: Sequence[int]) -> bool:
    """False only when no set at all can hold tile ``t`` (a safe over-approximation)."""
    jokers = avail[J] + 2 * avail[DJ] + avail[CJ] + avail[MJ]
    if jokers >= 2:
        return True
    colour, number = t % N_COLOURS, t // N_COLOURS + 1
    others = sum(1 for c in range(N_COLOURS) if c != colour and avail[_tid(c, number)])
    if others + jokers >= 2 or (avail[t] >= 2 and avail[MJ]):
        return True
    for start in range(max(1, number - 2), min(number, 11) + 1):
        missing = sum(
            1 for n in range(start, start + 3) if n != number and not avail[_tid(colour, n)]
        )
        if missing <= jokers:
            return True
    return False


def _drop_hopeless(must: list[int], may: list[int]) -> list[int]:
    """Rack tiles that can join no set cannot be played: leave them out of the search."""
    avail = [a + b for a, b in zip(must, may, strict=True)]
    kept = list(may)
    for t in range(N_NUMBERED):
        if may[t] and not _could_join_a_set(t, avail):
            kept[t] = 0
    return kept


def _lay_leftovers(
    table: list[tuple[str, ...]], tiles: list[str], mirror_value: MirrorValue, start: int = 0
) -> list[str]:
    """Add tiles at either end of the sets from ``start`` on while the sets stay valid and
    complete; heaviest first. Returns the tiles no set would take."""
    left = list(tiles)
    placed = True
    while placed and left:
        placed = False
        for token in sorted(set(left), key=lambda t: -tile_value(t)):
            for index in range(start, len(table)):
                s = table[index]
                for grown in ((*s, token), (token, *s)):
                    verdict = check_set(grown, mirror_value)
                    if verdict.valid and not verdict.awaiting_mirror:
                        table[index] = grown
                        left.remove(token)
                        placed = True
                        break
                if placed:
                    break
            if placed:
                break
    return left


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

    First the cautious play (table sets kept, new sets and tiles at set ends), then, unless
    ``rearrange=False``, a search over every rearrangement of the table that only looks for
    plays better than the cautious one. ``max_steps`` bounds the search by positions
    visited instead of time, so that a seeded bot plays the same on any machine.
    """
    before = as_table(table)
    deadline = time.perf_counter() + budget_s
    rack = list(rack)
    weights = _weights(rack, goal)

    def attempt(frozen: Table, alpha: float, need: int) -> tuple[Hint | None, bool]:
        loose = Counter(t for s in before for t in s) - Counter(t for s in frozen for t in s)
        sets, complete = _search(
            list(loose.elements()), rack, goal, deadline, need, mirror_value, max_steps, alpha
        )
        if sets is None:
            return None, complete
        new_table = [*frozen, *sets]
        start = len(frozen) if initial else 0
        must_left = list((loose - Counter(t for s in sets for t in s)).elements())
        if _lay_leftovers(new_table, must_left, mirror_value, start):
            return None, complete  # a table joker found no place: no play this way
        used = Counter(t for s in sets for t in s) - Counter(must_left)
        _lay_leftovers(new_table, list((Counter(rack) - used).elements()), mirror_value, start)
        hint = _verified(
            before, _tidy(before, new_table), rack, initial, mirror_value, complete, opening_points
        )
        return hint, complete

    best, complete = attempt(before, NEG, opening_points if initial else 0)
    if rearrange and not initial:
        floor = sum(weights[_id(t)] for t in best.played) if best else NEG
        full, complete = attempt((), floor, 0)
        if full is None and any(t in ("DJ", "CJ", "MJ") for s in before for t in s):
            # a table set the search cannot rebuild (a long mirror set, say): keep those
            special = tuple(s for s in before if any(t in ("DJ", "CJ", "MJ") for t in s))
            full, _ = attempt(special, floor, 0)
        if full is not None and (best is None or _score(full, goal) > _score(best, goal)):
            best = full
    if best is None or not best.played:
        note = (
            f"no opening of {opening_points} points from the rack alone: draw a tile"
            if initial
            else "no legal play found: draw a tile"
        )
        return Hint(before, (), 0, 0, complete, note)
    if best.complete != complete:
        best = Hint(best.table, best.played, best.points, best.opening_value, complete, best.note)
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
    return Hint(as_table(after), verdict.played, points, verdict.opening_value, complete, note)
