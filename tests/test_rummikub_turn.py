"""The turn referee: the rule book's table-manipulation and joker examples, and what it refuses.

Colours missing from the book's pictures are the ones the examples need to work.
"""

from __future__ import annotations

import pytest

from host.rules.rummikub import TurnVerdict, referee_turn, time_up


def sets(*texts: str) -> list[list[str]]:
    return [t.split() for t in texts]


def judge(
    before: list[list[str]], after: list[list[str]], rack: str, opened: bool = True
) -> TurnVerdict:
    return referee_turn(before, after, rack.split(), opened=opened)


# -- 牌塊重組: the book's table-manipulation examples --------------------------------------
def test_book_add_rack_tiles_to_a_run_and_a_group() -> None:
    verdict = judge(sets("b4 b5 b6", "k8 r8 o8"), sets("b3 b4 b5 b6", "k8 r8 o8 b8"), "b3 b8 k1")
    assert verdict.legal, verdict.reasons
    assert verdict.played == ("b3", "b8")


def test_book_break_a_group_to_make_a_run_with_rack_tiles() -> None:
    verdict = judge(sets("k4 r4 o4 b4"), sets("k4 r4 o4", "b3 b4 b5 b6"), "b3 b5 b6")
    assert verdict.legal, verdict.reasons


def test_book_split_a_run_adding_rack_tiles_to_both_parts() -> None:
    verdict = judge(sets("b8 b9 b10"), sets("b9 b10 b11", "b8 k8 o8"), "b11 k8 o8")
    assert verdict.legal, verdict.reasons


def test_book_split_a_run_in_the_middle() -> None:
    verdict = judge(sets("r4 r5 r6 r7 r8"), sets("r4 r5 r6", "r6 r7 r8"), "r6")
    assert verdict.legal, verdict.reasons


def test_book_take_from_two_sets_to_make_a_new_group() -> None:
    before = sets("o1 o2 o3 o4", "k1 r1 b1 o1")
    after = sets("o2 o3 o4", "k1 b1 o1", "o1 r1 b1")
    verdict = judge(before, after, "b1")
    assert verdict.legal, verdict.reasons


def test_book_rearrange_several_sets_into_three_groups_and_a_run() -> None:
    before = sets("r5 r6 r7", "o5 o6 o7", "k5 k6 k7 k8 k9")
    after = sets("r5 o5 k5 b5", "r6 o6 k6", "r7 o7 k7", "k8 k9 k10")
    verdict = judge(before, after, "k10 b5")
    assert verdict.legal, verdict.reasons
    assert verdict.played == ("b5", "k10")


# -- 換取一般百搭牌: the book's four ways to win back a regular joker --------------------
@pytest.mark.parametrize(
    "after",
    [
        ("r3 b3 k3", "r8 r9 J"),  # the black 3 replaces it
        ("r3 b3 o3", "r8 r9 J"),  # or the orange 3
        ("r3 b3 k3 o3", "J r8 r9"),  # or both
    ],
)
def test_book_joker_won_back_from_a_three_tile_group(after: tuple[str, ...]) -> None:
    verdict = judge(sets("r3 b3 J"), sets(*after), "k3 o3 r8 r9")
    assert verdict.legal, verdict.reasons


def test_book_joker_won_back_by_splitting_a_run() -> None:
    before = sets("b2 b3 J b5 b6")
    verdict = judge(before, sets("b1 b2 b3", "b5 b6 b7 J"), "b1 b7")
    assert verdict.legal, verdict.reasons


def test_book_joker_won_back_by_adding_the_tile_beside_it() -> None:
    verdict = judge(sets("b6 b7 J"), sets("b5 b6 b7", "r9 r10 J"), "b5 r9 r10")
    assert verdict.legal, verdict.reasons


def test_book_joker_won_back_by_moving_run_tiles_into_groups() -> None:
    before = sets("k1 k2 J", "r1 b1 o1", "r2 b2 o2")
    after = sets("k1 r1 b1 o1", "k2 r2 b2 o2", "r11 r12 J")
    verdict = judge(before, after, "r11 r12")
    assert verdict.legal, verdict.reasons


def test_a_joker_won_back_must_be_played_again_the_same_turn() -> None:
    verdict = judge(sets("r3 b3 J"), sets("r3 b3 k3"), "k3")
    assert not verdict.legal
    assert "tiles that were on the table are missing: J" in verdict.reasons


# -- special jokers -----------------------------------------------------------------------
def test_a_special_joker_cannot_win_back_a_regular_joker() -> None:
    verdict = judge(sets("r3 b3 J"), sets("r3 b3 DJ", "J r8 r9"), "DJ r8 r9")
    assert not verdict.legal
    assert verdict.reason is not None
    assert "a double joker cannot take the place of a joker" in verdict.reason


def test_a_special_joker_cannot_win_back_another_kind() -> None:
    verdict = judge(sets("r2 CJ b4"), sets("r2 J b4"), "J")
    assert not verdict.legal  # r2 J b4 is not a set either; the exchange is named too
    assert any("cannot take the place of a colour-change joker" in r for r in verdict.reasons)


def test_book_double_joker_won_back_by_both_tiles_it_stands_for() -> None:
    verdict = judge(sets("o2 DJ o5"), sets("o2 o3 o4 o5", "DJ r8 r9"), "o3 o4 r8 r9")
    assert verdict.legal, verdict.reasons


# -- mirror growth ------------------------------------------------------------------------
def test_book_awaiting_mirror_completed_by_the_matching_tile() -> None:
    verdict = judge(sets("b4 MJ b4 b3"), sets("b3 b4 MJ b4 b3"), "b3")
    assert verdict.legal, verdict.reasons


def test_awaiting_mirror_left_with_another_unmatched_tile_is_refused() -> None:
    before = sets("r7 b7 MJ b7 r7 k7", "k8 k9 k10")
    after = sets("o7 r7 b7 MJ b7 r7", "k7 k8 k9 k10")
    verdict = judge(before, after, "o7")
    assert not verdict.legal
    assert verdict.reason is not None and "waits for a 7 on the left" in verdict.reason


def test_awaiting_mirror_completed_then_grown_again_is_legal() -> None:
    before = sets("r7 b7 MJ b7 r7 k7")
    verdict = judge(before, sets("k7 r7 b7 MJ b7 r7 k7"), "k7")
    assert verdict.legal, verdict.reasons


# -- what the referee refuses ---------------------------------------------------------------
def test_every_set_must_be_valid_and_the_reason_is_given() -> None:
    verdict = judge(sets("r4 r5 r6"), sets("r4 r5 r6 r6"), "r6")
    assert not verdict.legal
    assert verdict.reasons == (
        "set 1 (r4 r5 r6 r6) is invalid: r6 appears twice in the run r4 r5 r6 r6",
    )


def test_tiles_may_only_come_from_the_rack() -> None:
    verdict = judge(sets("r4 r5 r6"), sets("r4 r5 r6 r7"), "b7")
    assert "tiles added that are not on your rack: r7" in verdict.reasons


def test_a_turn_must_play_something() -> None:
    verdict = judge(sets("r4 r5 r6"), sets("r4 r5 r6"), "b7")
    assert verdict.reasons == ("no tile was played from the rack: draw a tile instead",)


def test_initial_meld_needs_30_points_from_the_rack() -> None:
    verdict = judge([], sets("r10 r11 r12"), "r10 r11 r12", opened=False)
    assert verdict.legal and verdict.opening_value == 33
    short = judge([], sets("r7 r8 r9"), "r7 r8 r9", opened=False)
    assert short.reasons == (
        "the initial meld needs at least 30 points from your rack; this one has 24",
    )


def test_initial_meld_counts_jokers_at_what_they_stand_for() -> None:
    verdict = judge([], sets("o2 DJ o5", "r8 J r10"), "o2 DJ o5 r8 J r10", opened=False)
    assert verdict.legal and verdict.opening_value == 14 + 27


def test_initial_meld_may_not_rearrange_the_table() -> None:
    before = sets("k4 r4 o4 b4")
    after = sets("k4 r4 o4", "b4 b5 b6 b7 b8 b9")
    verdict = judge(before, after, "b5 b6 b7 b8 b9", opened=False)
    assert not verdict.legal
    assert "before the initial meld the table may not be rearranged: k4 r4 o4 b4 was changed" in (
        verdict.reasons
    )


def test_initial_meld_may_not_use_a_joker_from_the_table() -> None:
    verdict = judge(sets("r3 b3 J"), sets("r3 b3 k3", "r11 r12 J"), "k3 r11 r12", False)
    assert not verdict.legal


# -- time up ------------------------------------------------------------------------------
def test_time_up_with_nothing_played_draws_one() -> None:
    outcome = time_up(sets("r4 r5 r6"), None)
    assert (outcome.restore, outcome.draw) == (False, 1)
    assert time_up(sets("r4 r5 r6"), sets("r4 r5 r6")).draw == 1


def test_time_up_with_an_invalid_table_restores_and_draws_three() -> None:
    outcome = time_up(sets("r4 r5 r6"), sets("r4 r5", "r6 b9"))
    assert (outcome.restore, outcome.draw) == (True, 3)


def test_time_up_strict_rule_draws_one_per_tile_not_put_back() -> None:
    outcome = time_up(sets("r4 r5 r6"), sets("r4 r5", "r6 b9"), strict=True)
    assert (outcome.restore, outcome.draw) == (True, 4)
    told = time_up(sets("r4 r5 r6"), sets("r4 r5", "r6 b9"), strict=True, not_put_back=2)
    assert told.draw == 2
