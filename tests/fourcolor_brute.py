"""A slow, obviously-correct Four Color splitter: the reference the fast one is tested against.

It shares nothing with ``host.rules.fourcolor_split`` except ``classify`` (the rule book's
definition of a combination): it enumerates every partition of the hand, trying every group
of up to 4 cards that includes the first card still unplaced.
"""

from __future__ import annotations

from collections.abc import Iterator

from host.rules.fourcolor_combos import INDEX, classify, hu_value

Partition = list[tuple[str, tuple[str, ...]]]


def _groups_with_first(cards: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(group containing cards[0], the rest) for every distinct group of up to 4 cards."""
    first, rest = cards[0], cards[1:]
    seen: set[tuple[str, ...]] = set()

    def pick(start: int, chosen: list[int]) -> Iterator[list[int]]:
        yield chosen
        if len(chosen) == 3:
            return
        for k in range(start, len(rest)):
            yield from pick(k + 1, [*chosen, k])

    for chosen in pick(0, []):
        group = (first, *(rest[k] for k in chosen))
        if group in seen:
            continue
        seen.add(group)
        others = tuple(c for k, c in enumerate(rest) if k not in chosen)
        yield group, others


def partitions(cards: list[str]) -> Iterator[Partition]:
    """Every way to cut all the cards into combinations."""
    ordered = tuple(sorted(cards, key=INDEX.__getitem__))
    if not ordered:
        yield []
        return
    for group, rest in _groups_with_first(ordered):
        kind = classify(group)
        if kind is None:
            continue
        for tail in partitions(list(rest)):
            yield [(kind, group), *tail]


def win_hu(cards: list[str], win_card: str | None = None) -> int | None:
    """Highest hu of a full partition (``None``: no winning shape).

    With ``win_card`` (taken from another player, and included in ``cards``), one
    combination holding it counts at its exposed value: the best such choice.
    """
    best: int | None = None
    for partition in partitions(cards):
        base = sum(hu_value(kind, False) for kind, _ in partition)
        if win_card is None:
            value = base
        else:
            value = max(
                base - hu_value(kind, False) + hu_value(kind, True)
                for kind, group in partition
                if win_card in group
            )
        best = value if best is None else max(best, value)
    return best


def closest(cards: list[str]) -> tuple[int, int]:
    """(fewest cards left over, highest hu with that many left over) over all sub-partitions."""
    ordered = tuple(sorted(cards, key=INDEX.__getitem__))
    if not ordered:
        return (0, 0)
    left, hu = closest(list(ordered[1:]))
    best = (left + 1, hu)
    for group, rest in _groups_with_first(ordered):
        kind = classify(group)
        if kind is None:
            continue
        left, hu = closest(list(rest))
        candidate = (left, hu + hu_value(kind, False))
        if (candidate[0], -candidate[1]) < (best[0], -best[1]):
            best = candidate
    return best
