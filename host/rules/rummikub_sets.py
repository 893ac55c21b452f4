"""Rummikub with a Twist: is one set on the table legal, and what does each joker stand for?

A set is its tiles in table order, left to right (RULINGS.md §2). Every tile fills one
*slot* of the set except a double joker, which fills two. A set is read as a run, a group,
or (with a mirror joker) a mirror run or mirror group; the reading that works is reported,
and when none works the rejection names the first thing that breaks the likeliest reading.

Choices where the book is silent (also in README.md):
- A set of jokers only is legal; it is read as the highest-valued set it could be.
- When a set reads both as a run and as a group (``r5 J J``), the higher value wins, ties
  go to the run: that is what a player opening with it would claim.
- Mirror symmetry is by number only, as the book's note says ("只要數字對稱即可"); each side
  of a mirror group still has all-different colours. A set holds at most one mirror joker.
- A colour-change joker stands for a tile in the colour after it; at the left end, in a
  colour different from its right neighbour's.
- An unmatched mirror *slot* may be half of a double joker.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final, Literal

from host.rules.notation import (
    RUMMIKUB_COLOUR_NAMES,
    RUMMIKUB_COLOURS,
    RUMMIKUB_JOKER_NAMES,
    Tile,
    split_tokens,
    tile,
)

MirrorValue = Literal["number", "zero"]
Kind = Literal["group", "run"]

MIN_TILES: Final = 3
LOWEST: Final = 1
HIGHEST: Final = 13


@dataclass(frozen=True, slots=True)
class JokerUse:
    """A joker of a set and the tile(s) it stands for (two for a double joker)."""

    tile: str
    stands_for: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"tile": self.tile, "stands_for": list(self.stands_for)}


@dataclass(frozen=True, slots=True)
class SetCheck:
    """The verdict on one set."""

    tiles: tuple[str, ...]
    valid: bool
    kind: Kind | None
    value: int
    awaiting_mirror: bool
    jokers: tuple[JokerUse, ...]
    reason: str | None
    mirror: bool = False
    # Mirror sets: how many slot pairs match, and the unmatched slot if one is waiting.
    pairs: int = 0
    awaits: str | None = None
    awaits_side: Literal["left", "right"] | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "tiles": list(self.tiles),
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value,
            "awaiting_mirror": self.awaiting_mirror,
            "jokers": [j.to_json() for j in self.jokers],
            "reason": self.reason,
        }


def _joker_name(kind: str) -> str:
    return RUMMIKUB_JOKER_NAMES[kind]


def _colour_name(colour: str) -> str:
    return RUMMIKUB_COLOUR_NAMES[colour]


def _width(t: Tile) -> int:
    return 2 if t.joker == "DJ" else 1


def _show(tiles: tuple[Tile, ...]) -> str:
    return " ".join(t.token for t in tiles)


class _Reject(Exception):
    """One reading of a set fails; the message is the reason in words."""


@dataclass(frozen=True, slots=True)
class _Reading:
    kind: Kind
    numbers: tuple[tuple[int, ...], ...]  # per tile, the number(s) of its slot(s)
    colours: tuple[tuple[str, ...], ...]  # per tile, the colour(s) of its slot(s)
    mirror: bool
    pairs: int = 0
    awaits: str | None = None
    awaits_side: Literal["left", "right"] | None = None

    def value(self, tiles: tuple[Tile, ...], mirror_value: MirrorValue) -> int:
        total = 0
        for t, numbers in zip(tiles, self.numbers, strict=True):
            if t.joker == "MJ" and mirror_value == "zero":
                continue
            total += sum(numbers)
        return total

    def jokers(self, tiles: tuple[Tile, ...]) -> tuple[JokerUse, ...]:
        uses = []
        for t, numbers, colours in zip(tiles, self.numbers, self.colours, strict=True):
            if t.is_joker:
                stands = tuple(f"{c}{n}" for c, n in zip(colours, numbers, strict=True))
                uses.append(JokerUse(t.token, stands))
        return tuple(uses)


# -- colours along a run ---------------------------------------------------------------------
def _run_colours(tiles: tuple[Tile, ...]) -> tuple[tuple[str, ...], ...]:
    """Colour of every slot of a run; colour-change jokers split it into one-colour stretches."""
    stretches: list[list[int]] = [[]]  # tile indexes per stretch, split at each CJ
    for i, t in enumerate(tiles):
        if t.joker == "CJ":
            stretches.append([])
        else:
            stretches[-1].append(i)
    has_cj = len(stretches) > 1
    found: list[str | None] = []
    for members in stretches:
        colours: dict[str, Tile] = {}
        for i in members:
            if not tiles[i].is_joker:
                colours.setdefault(tiles[i].colour, tiles[i])
        if len(colours) > 1:
            first, second = list(colours.values())[:2]
            if has_cj:
                raise _Reject(
                    f"a run is one colour between colour-change jokers: {first.token} and "
                    f"{second.token} differ"
                )
            raise _Reject(
                f"a run is one colour: {first.token} and {second.token} differ "
                f"(a colour-change joker could join them)"
            )
        found.append(next(iter(colours), None))
    for a, b in itertools.pairwise(found):
        if a is not None and a == b:
            raise _Reject(
                f"a colour-change joker needs a different colour on each side: "
                f"{_show(tiles)} is {_colour_name(a)} on both sides"
            )
    chosen = _fill_free(found)
    out: list[tuple[str, ...]] = []
    at = 0
    for i, t in enumerate(tiles):
        if t.joker == "CJ":
            at += 1
            # At the left end it takes the (empty) stretch before it; else the colour after.
            colour = chosen[0] if i == 0 else chosen[at]
            out.append((colour,))
        else:
            out.append((chosen[at],) * _width(t))
    return tuple(out)


def _fill_free(found: list[str | None]) -> list[str]:
    """Give stretches with no numbered tile a colour unlike both neighbours (4 colours)."""
    chosen: list[str] = []
    for i, colour in enumerate(found):
        if colour is not None:
            chosen.append(colour)
            continue
        banned = {chosen[-1]} if chosen else set()
        following = found[i + 1] if i + 1 < len(found) else None
        if following is not None:
            banned.add(following)
        chosen.append(next(c for c in RUMMIKUB_COLOURS if c not in banned))
    return chosen


# -- runs -----------------------------------------------------------------------------------
def _run_numbers(tiles: tuple[Tile, ...]) -> tuple[tuple[int, ...], ...]:
    """Numbers of every slot of a plain run, or :class:`_Reject` saying why there are none."""
    offsets: list[int] = []
    at = 0
    for t in tiles:
        offsets.append(at)
        at += _width(t)
    length = at
    numbered = [(i, offsets[i], t) for i, t in enumerate(tiles) if not t.is_joker]
    if numbered:
        i0, off0, t0 = numbered[0]
        start = t0.number - off0
        previous = (i0, t0)
        for i, off, t in numbered[1:]:
            expected = start + off
            if t.number != expected:
                raise _Reject(_run_break(tiles, previous, (i, t), expected))
            previous = (i, t)
    else:
        start = HIGHEST - length + 1  # jokers only: the highest run they could be
    if length > HIGHEST:
        raise _Reject(f"a run has at most 13 tiles: {_show(tiles)} stands for {length}")
    if start < LOWEST:
        raise _Reject(_below_one(tiles, offsets, start))
    if start + length - 1 > HIGHEST:
        raise _Reject(_above_thirteen(tiles, offsets, start))
    return tuple(
        tuple(start + offsets[i] + k for k in range(_width(t))) for i, t in enumerate(tiles)
    )


def _run_break(
    tiles: tuple[Tile, ...], previous: tuple[int, Tile], current: tuple[int, Tile], expected: int
) -> str:
    (pi, prev), (ci, cur) = previous, current
    shown = _show(tiles)
    if cur.number == prev.number:
        if cur.token == prev.token:
            return f"{cur.token} appears twice in the run {shown}"
        return f"two {cur.number}s in the run {shown}: {prev.token} and {cur.token}"
    if prev.number == HIGHEST and cur.number == LOWEST:
        return f"13 is never followed by 1: {prev.token} then {cur.token} in {shown}"
    if cur.number < expected:
        gap = ci - pi - 1
        if cur.number < prev.number:
            return f"a run goes up from left to right: {cur.token} cannot follow {prev.token}"
        return (
            f"{cur.token} comes too late after {prev.token}: the {gap} tile(s) between them "
            f"stand for more than the numbers between"
        )
    between = ci - pi - 1
    missing = ", ".join(str(n) for n in range(prev.number + 1, cur.number))
    if between == 0:
        return f"{cur.token} cannot follow {prev.token} in the run {shown}: {missing} is missing"
    return (
        f"{cur.token} cannot follow {prev.token} in the run {shown}: the joker(s) between "
        f"them do not cover {missing}"
    )


def _below_one(tiles: tuple[Tile, ...], offsets: list[int], start: int) -> str:
    for i, t in enumerate(tiles):
        if t.joker == "DJ" and start + offsets[i] < LOWEST:
            after = tiles[i + 1] if i + 1 < len(tiles) else None
            if after is not None and not after.is_joker and after.number == 2:
                return "a double joker cannot stand directly before a 2"
            return f"the double joker would stand for numbers below 1 in {_show(tiles)}"
        if t.is_joker and start + offsets[i] < LOWEST:
            return (
                f"the {_joker_name(t.joker)} would stand for a number below 1 in "
                f"{_show(tiles)}: 1 is the lowest number"
            )
    return f"{_show(tiles)} would need numbers below 1"


def _above_thirteen(tiles: tuple[Tile, ...], offsets: list[int], start: int) -> str:
    for i, t in enumerate(tiles):
        top = start + offsets[i] + _width(t) - 1
        if t.joker == "DJ" and top > HIGHEST:
            before = tiles[i - 1] if i > 0 else None
            if before is not None and not before.is_joker and before.number == 12:
                return "a double joker cannot stand directly after a 12"
            return f"the double joker would stand for numbers above 13 in {_show(tiles)}"
        if t.is_joker and top > HIGHEST:
            return (
                f"the {_joker_name(t.joker)} would stand for {top} in {_show(tiles)}: "
                f"13 is the highest number and is never followed by 1"
            )
    return f"{_show(tiles)} would need numbers above 13"


def _as_run(tiles: tuple[Tile, ...]) -> _Reading:
    numbers = _run_numbers(tiles)
    return _Reading("run", numbers, _run_colours(tiles), mirror=False)


# -- groups ---------------------------------------------------------------------------------
def _group_number(tiles: tuple[Tile, ...]) -> int:
    numbered = [t for t in tiles if not t.is_joker]
    if not numbered:
        return HIGHEST
    first = numbered[0]
    for t in numbered[1:]:
        if t.number != first.number:
            raise _Reject(f"a group's tiles share one number: {first.token} and {t.token} differ")
    return first.number


def _group_side_colours(side: tuple[Tile, ...], shown: str) -> list[tuple[str, ...]]:
    """Colours of a group's (or one mirror side's) slots: jokers take the missing colours."""
    seen: dict[str, Tile] = {}
    for t in side:
        if t.is_joker:
            continue
        if t.colour in seen:
            raise _Reject(f"{t.token} appears twice in the group {shown}")
        seen[t.colour] = t
    slots = sum(_width(t) for t in side)
    if slots > len(RUMMIKUB_COLOURS):
        raise _Reject(
            f"a group has at most 4 tiles, one of each colour: {shown} stands for {slots}"
        )
    free = iter(c for c in RUMMIKUB_COLOURS if c not in seen)
    out: list[tuple[str, ...]] = []
    for t in side:
        if t.is_joker:
            out.append(tuple(next(free) for _ in range(_width(t))))
        else:
            out.append((t.colour,))
    return out


def _as_group(tiles: tuple[Tile, ...]) -> _Reading:
    for t in tiles:
        if t.joker == "CJ":
            raise _Reject("a colour-change joker can only be used in a run")
    number = _group_number(tiles)
    colours = tuple(_group_side_colours(tiles, _show(tiles)))
    numbers = tuple((number,) * _width(t) for t in tiles)
    return _Reading("group", numbers, colours, mirror=False)


# -- mirror sets ----------------------------------------------------------------------------
def _mirror_sides(tiles: tuple[Tile, ...], m: int) -> tuple[list[int], list[int]]:
    """Slot distances from the mirror joker, per tile (0 for the mirror joker itself)."""
    distance: list[int] = [0] * len(tiles)
    left_slots = 0
    for i in range(m - 1, -1, -1):
        distance[i] = left_slots + 1
        left_slots += _width(tiles[i])
    right_slots = 0
    for i in range(m + 1, len(tiles)):
        distance[i] = right_slots + 1
        right_slots += _width(tiles[i])
    return distance, [left_slots, right_slots]


def _mirror_balance(
    tiles: tuple[Tile, ...], m: int
) -> tuple[list[int], int, Literal["left", "right"] | None]:
    distance, (left, right) = _mirror_sides(tiles, m)
    if abs(left - right) > 1:
        raise _Reject(
            f"every tile on one side of the mirror joker must be mirrored on the other: "
            f"{_show(tiles)} has {left} on the left and {right} on the right"
        )
    side: Literal["left", "right"] | None = None
    if left > right:
        side = "left"
    elif right > left:
        side = "right"
    return distance, min(left, right), side


def _as_mirror_run(tiles: tuple[Tile, ...], m: int) -> _Reading:
    distance, pairs, side = _mirror_balance(tiles, m)
    peak: int | None = None
    anchor: Tile | None = None
    numbers: list[tuple[int, ...]] = []
    # slot numbers fall by one per step away from the peak, on both sides
    for i, t in enumerate(tiles):
        if t.is_joker:
            continue
        implied = t.number + distance[i]
        if peak is None:
            peak, anchor = implied, t
        elif implied != peak:
            assert anchor is not None
            raise _Reject(
                f"a mirror run rises to the mirror joker and falls after it: {anchor.token} and "
                f"{t.token} do not fit around it in {_show(tiles)}"
            )
    deepest = max(distance[i] + _width(tiles[i]) - 1 for i in range(len(tiles)))
    if peak is None:
        peak = HIGHEST
    if peak > HIGHEST:
        raise _Reject(
            f"the mirror joker stands for the peak of a run ({peak}), so it can never stand "
            f"beside a 13"
        )
    if peak - deepest < LOWEST:
        raise _Reject(f"{_show(tiles)} would need numbers below 1")
    for i, t in enumerate(tiles):
        if i < m:
            # left of the mirror slots rise towards it: a double joker covers d+1 then d
            numbers.append(tuple(peak - distance[i] - k for k in reversed(range(_width(t)))))
        elif i == m:
            numbers.append((peak,))
        else:
            numbers.append(tuple(peak - distance[i] - k for k in range(_width(t))))
    colours = _run_colours(tiles)
    awaits, awaits_side = _awaiting(numbers, colours, side)
    return _Reading("run", tuple(numbers), colours, True, pairs, awaits, awaits_side)


def _as_mirror_group(tiles: tuple[Tile, ...], m: int) -> _Reading:
    for t in tiles:
        if t.joker == "CJ":
            raise _Reject("a colour-change joker can only be used in a run")
    _, pairs, side = _mirror_balance(tiles, m)
    number = _group_number(tiles)
    shown = _show(tiles)
    left = _group_side_colours(tiles[:m], shown)
    right = _group_side_colours(tiles[m + 1 :], shown)
    numbers = tuple((number,) * _width(t) for t in tiles)
    # The mirror joker stands for a number; it is shown in a colour its left side lacks.
    colour_tuple = (*left, (_first_unused(left),), *right)
    awaits, awaits_side = _awaiting(numbers, colour_tuple, side, group=True)
    return _Reading("group", numbers, colour_tuple, True, pairs, awaits, awaits_side)


def _first_unused(side: list[tuple[str, ...]]) -> str:
    used = {c for slot in side for c in slot}
    return next((c for c in RUMMIKUB_COLOURS if c not in used), RUMMIKUB_COLOURS[0])


def _awaiting(
    numbers: list[tuple[int, ...]] | tuple[tuple[int, ...], ...],
    colours: tuple[tuple[str, ...], ...],
    side: Literal["left", "right"] | None,
    *,
    group: bool = False,
) -> tuple[str | None, Literal["left", "right"] | None]:
    """The tile an unbalanced mirror set waits for on its short side, in words."""
    if side is None:
        return None, None
    # the unmatched slot is the outermost slot of the long side
    if side == "right":
        number, colour = numbers[-1][-1], colours[-1][-1]
        other = "left"
    else:
        number, colour = numbers[0][0], colours[0][0]
        other = "right"
    if group:
        return f"a {number} on the {other}", side
    return f"{colour}{number} on the {other}", side


# -- the verdict ----------------------------------------------------------------------------
def _readings(tiles: tuple[Tile, ...]) -> tuple[list[_Reading], list[str]]:
    mirrors = [i for i, t in enumerate(tiles) if t.joker == "MJ"]
    attempts: list[tuple[str, object]] = []
    if len(mirrors) > 1:
        return [], ["a set can hold only one mirror joker: it has a single centre"]
    if mirrors:
        m = mirrors[0]
        attempts = [("run", lambda: _as_mirror_run(tiles, m))]
        attempts.append(("group", lambda: _as_mirror_group(tiles, m)))
    else:
        attempts = [("run", lambda: _as_run(tiles)), ("group", lambda: _as_group(tiles))]
    found: list[_Reading] = []
    reasons: list[str] = []
    for _kind, attempt in attempts:
        try:
            found.append(attempt())  # type: ignore[operator]
        except _Reject as exc:
            reasons.append(str(exc))
    return found, reasons


def _likely_group(tiles: tuple[Tile, ...]) -> bool:
    """Two tiles of one number in different colours: the player meant a group."""
    numbered = [t for t in tiles if not t.is_joker]
    return any(
        a.number == b.number and a.colour != b.colour
        for i, a in enumerate(numbered)
        for b in numbered[i + 1 :]
    )


@cache
def _tile(token: str) -> Tile:
    """A parsed tile; the ~60 spellings in use are parsed once (errors are not cached)."""
    return tile(token)


@lru_cache(maxsize=65536)
def _check(tokens: tuple[str, ...], mirror_value: MirrorValue) -> SetCheck:
    tiles = tuple(_tile(t) for t in tokens)
    if len(tiles) < MIN_TILES:
        reason = f"a set needs at least 3 tiles, {_show(tiles) or 'this one'} has {len(tiles)}" + (
            " (a double joker is one tile)" if any(t.joker == "DJ" for t in tiles) else ""
        )
        return SetCheck(tokens, False, None, 0, False, (), reason)
    readings, reasons = _readings(tiles)
    if not readings:
        if len(reasons) == 1:
            reason = reasons[0]
        else:
            run_reason, group_reason = reasons
            reason = group_reason if _likely_group(tiles) else run_reason
        return SetCheck(tokens, False, None, 0, False, (), reason)
    best = max(readings, key=lambda r: (r.value(tiles, mirror_value), r.kind == "run"))
    return SetCheck(
        tokens,
        True,
        best.kind,
        best.value(tiles, mirror_value),
        best.awaits is not None,
        best.jokers(tiles),
        None,
        mirror=best.mirror,
        pairs=best.pairs,
        awaits=best.awaits,
        awaits_side=best.awaits_side,
    )


def check_set(
    tiles: str | tuple[str, ...] | list[str], mirror_value: MirrorValue = "number"
) -> SetCheck:
    """The verdict on one set given in table order (tokens or a string of tokens).

    Tokens are parsed (:class:`NotationError` for an unknown one); the box limit is not
    checked here, since a set alone can never hold a third copy (callers check the table).
    """
    raw = split_tokens(tiles) if isinstance(tiles, str) else tiles
    return _check(tuple(_tile(t).token for t in raw), mirror_value)


def set_value(tiles: tuple[str, ...], mirror_value: MirrorValue = "number") -> int:
    """Initial-meld value of a valid set (0 for an invalid one)."""
    return check_set(tiles, mirror_value).value
