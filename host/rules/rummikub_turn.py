"""Rummikub with a Twist: is a turn legal? From the table before, the table after and the rack.

The referee sees only the two tables (each a list of sets in table order) and the rack; it
needs no record of how the tiles moved. Choices where the book is silent (README.md):
- A joker may leave its set in a rearrangement even when no tile replaces it, as long as it
  is played again in the same turn and every set is valid at the end ("no limit on
  rearranging as long as no invalid set remains").
- A joker that leaves a set may not be replaced there by a joker of another kind when either
  of the two is special: special jokers never win back a regular joker or another kind of
  special joker, and a special joker is won back only by the tile(s) it stands for.
- Which set of the table after "is" a set of the table before is the set sharing most tiles
  with it (ties: the first in table order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from host.rules.notation import RUMMIKUB_JOKER_NAMES, RUMMIKUB_JOKERS
from host.rules.rummikub_sets import MirrorValue, SetCheck, check_set

OPENING_POINTS = 30
SPECIAL_JOKERS = ("DJ", "CJ", "MJ")

Table = tuple[tuple[str, ...], ...]


def as_table(sets: Sequence[Sequence[str]]) -> Table:
    return tuple(tuple(s) for s in sets)


def table_tiles(table: Table) -> Counter[str]:
    return Counter(t for s in table for t in s)


def _show(tiles: Sequence[str]) -> str:
    return " ".join(tiles)


def _listing(counter: Counter[str]) -> str:
    return ", ".join(sorted(counter.elements()))


@dataclass(frozen=True, slots=True)
class TurnVerdict:
    """The referee's decision on one turn, with every reason it is not legal."""

    legal: bool
    reasons: tuple[str, ...]
    played: tuple[str, ...]  # tiles that went from the rack to the table
    sets: tuple[SetCheck, ...]  # the table after, set by set
    opening_value: int  # points of the new sets when this is the initial meld, else 0

    @property
    def reason(self) -> str | None:
        return "; ".join(self.reasons) if self.reasons else None


def continuation(before: tuple[str, ...], after: Table) -> int | None:
    """Index of the set after the turn that shares most tiles with ``before`` (None if none)."""
    want = Counter(before)
    best, best_overlap = None, 0
    for index, candidate in enumerate(after):
        overlap = sum((want & Counter(candidate)).values())
        if overlap > best_overlap:
            best, best_overlap = index, overlap
    return best


def _joker_exchanges(before: Table, after: Table) -> list[str]:
    """Reasons why a joker was exchanged for a joker its kind does not allow."""
    reasons = []
    unchanged = set(after)
    for old in before:
        if old in unchanged or not any(t in RUMMIKUB_JOKERS for t in old):
            continue
        index = continuation(old, after)
        if index is None:
            continue
        was, now = Counter(old), Counter(after[index])
        gone = [j for j in RUMMIKUB_JOKERS if now[j] < was[j]]
        came = [j for j in RUMMIKUB_JOKERS if now[j] > was[j]]
        for left in gone:
            for arrived in came:
                if arrived == left or (left == "J" and arrived == "J"):
                    continue
                if arrived in SPECIAL_JOKERS or left in SPECIAL_JOKERS:
                    reasons.append(
                        f"a {RUMMIKUB_JOKER_NAMES[arrived]} cannot take the place of a "
                        f"{RUMMIKUB_JOKER_NAMES[left]} (in {_show(old)} → "
                        f"{_show(after[index])}): a joker is won back only by the tile(s) "
                        f"it stands for"
                    )
    return reasons


def _mirror_growth(before: Table, after: Table, mirror_value: MirrorValue) -> list[str]:
    """A set waiting for its mirror tile must get that tile before it grows otherwise."""
    reasons = []
    unchanged = set(after)
    for old in before:
        if old in unchanged or "MJ" not in old:
            continue
        was = check_set(old, mirror_value)
        if not (was.valid and was.awaiting_mirror):
            continue
        index = continuation(old, after)
        if index is None or after[index] == old:
            continue
        now = check_set(after[index], mirror_value)
        if now.valid and now.mirror and now.awaiting_mirror and now.pairs <= was.pairs:
            reasons.append(
                f"{_show(old)} waits for {was.awaits}: the next tile added to it must complete "
                f"the mirror, but it became {_show(after[index])}"
            )
    return reasons


def referee_turn(
    before: Sequence[Sequence[str]],
    after: Sequence[Sequence[str]],
    rack: Sequence[str],
    *,
    opened: bool,
    mirror_value: MirrorValue = "number",
    opening_points: int = OPENING_POINTS,
) -> TurnVerdict:
    """Decide whether turning table ``before`` into ``after`` from ``rack`` is a legal turn.

    ``opened``: the player has made their initial meld in an earlier turn.
    """
    old, new = as_table(before), as_table(after)
    reasons: list[str] = []
    checks = tuple(check_set(s, mirror_value) for s in new)
    for number, verdict in enumerate(checks, start=1):
        if not verdict.valid:
            reasons.append(f"set {number} ({_show(verdict.tiles)}) is invalid: {verdict.reason}")

    have, now = table_tiles(old), table_tiles(new)
    lost = have - now
    added = now - have
    if lost:
        reasons.append(f"tiles that were on the table are missing: {_listing(lost)}")
    foreign = added - Counter(rack)
    if foreign:
        reasons.append(f"tiles added that are not on your rack: {_listing(foreign)}")
    played = tuple(sorted((added & Counter(rack)).elements()))
    if not added:
        reasons.append("no tile was played from the rack: draw a tile instead")

    opening_value = 0
    if not opened:
        changed = [s for s in old if Counter(new)[s] < Counter(old)[s]]
        if changed:
            reasons.append(
                f"before the initial meld the table may not be rearranged: {_show(changed[0])} "
                f"was changed"
            )
        fresh = Counter(new) - Counter(old)
        opening_value = sum(check_set(s, mirror_value).value for s in fresh.elements())
        if not changed and opening_value < opening_points:
            reasons.append(
                f"the initial meld needs at least {opening_points} points from your rack; "
                f"this one has {opening_value}"
            )
    else:
        reasons.extend(_joker_exchanges(old, new))
        reasons.extend(_mirror_growth(old, new, mirror_value))
    return TurnVerdict(not reasons, tuple(reasons), played, checks, opening_value)


@dataclass(frozen=True, slots=True)
class TimeUp:
    """What happens when the turn timer runs out."""

    restore: bool  # the table goes back to how it was and the rack gets its tiles back
    draw: int  # penalty tiles to draw (before capping at what the pool holds)
    reason: str


def time_up(
    before: Sequence[Sequence[str]],
    attempted: Sequence[Sequence[str]] | None,
    *,
    strict: bool = False,
    not_put_back: int | None = None,
    mirror_value: MirrorValue = "number",
) -> TimeUp:
    """The time-up outcome: nothing played → draw 1; an unfinished table → restore and draw.

    ``attempted`` is the table when time ran out (None: untouched). With the strict option
    the penalty is the number of tiles that could not be put back: ``not_put_back`` when the
    players say so, otherwise the tiles lying in invalid sets of the attempted table.
    """
    old = as_table(before)
    if attempted is None or Counter(as_table(attempted)) == Counter(old):
        return TimeUp(False, 1, "time is up and nothing was played: draw 1 tile")
    if not strict:
        return TimeUp(
            True, 3, "time is up with an unfinished table: it is restored and you draw 3 tiles"
        )
    if not_put_back is None:
        not_put_back = sum(
            len(s) for s in as_table(attempted) if not check_set(s, mirror_value).valid
        )
    return TimeUp(
        True,
        not_put_back,
        f"time is up with an unfinished table: it is restored and you draw {not_put_back} "
        f"tile(s), one for each tile that could not be put back (strict rule)",
    )
