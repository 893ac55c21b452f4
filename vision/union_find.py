"""Objects grouped by the links between them (tiles into rows, cards into melds, glyphs into
numbers, joker reads into one word)."""

from __future__ import annotations

from collections.abc import Iterable


def linked_groups(n: int, links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The indices 0..n-1 grouped by the links between them, directly or through others
    (union-find), each group in index order, the groups in order of their first index."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in links:
        parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())
