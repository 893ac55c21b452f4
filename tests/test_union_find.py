"""Grouping by links (vision.union_find), shared by rows of tiles, melds, glyphs and words."""

from __future__ import annotations

from vision.union_find import linked_groups


def test_groups_follow_links_through_others_in_index_order() -> None:
    # 0-3 and 3-5 join 0, 3, 5 through 3; 4-1 joins 1 and 4; 2 stands alone.
    assert linked_groups(6, [(0, 3), (4, 1), (3, 5)]) == [[0, 3, 5], [1, 4], [2]]


def test_no_links_and_nothing() -> None:
    assert linked_groups(3, []) == [[0], [1], [2]]
    assert linked_groups(0, []) == []
