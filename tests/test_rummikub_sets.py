"""Rummikub with a Twist set validator: the rule book's examples and its rejections in words.

The book (../shared/seeds/rummikub-twist-rules-zh.txt) shows many examples as pictures; the
text keeps their numbers but not always their colours, so the colours here are the ones the
pictures need (e.g. "blue 3, 4, 5, 6" is a run, so its tiles are all blue).
"""

from __future__ import annotations

import pytest

from host.rules.notation import NotationError
from host.rules.rummikub import check_set


def stands(tiles: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(j.tile, j.stands_for) for j in check_set(tiles).jokers]


# -- the book's own examples -----------------------------------------------------------------
def test_book_group_black_red_blue_orange_sevens() -> None:
    verdict = check_set("k7 r7 b7 o7")
    assert (verdict.valid, verdict.kind, verdict.value) == (True, "group", 28)


def test_book_run_blue_3_to_6() -> None:
    verdict = check_set("b3 b4 b5 b6")
    assert (verdict.valid, verdict.kind, verdict.value) == (True, "run", 18)


def test_book_1_is_lowest_and_13_is_never_followed_by_1() -> None:
    verdict = check_set("r12 r13 r1")
    assert not verdict.valid
    assert verdict.reason == "13 is never followed by 1: r13 then r1 in r12 r13 r1"
    assert not check_set("r13 r1 r2").valid
    assert check_set("r1 r2 r3").valid


def test_book_double_joker_in_a_run_orange_2_dj_5() -> None:
    verdict = check_set("o2 DJ o5")
    assert verdict.valid and verdict.kind == "run"
    assert stands("o2 DJ o5") == [("DJ", ("o3", "o4"))]
    # initial-meld value: 2 + (3 + 4) + 5; the book: the double joker counts 3 + 4 = 7
    assert verdict.value == 14


def test_book_double_joker_in_a_group_blue3_red3_dj() -> None:
    verdict = check_set("b3 r3 DJ")
    assert verdict.valid and verdict.kind == "group"
    assert stands("b3 r3 DJ") == [("DJ", ("k3", "o3"))]  # the two missing colours
    assert verdict.value == 12


def test_book_double_joker_is_one_physical_tile() -> None:
    verdict = check_set("r3 DJ")
    assert not verdict.valid
    assert verdict.reason is not None and "at least 3 tiles" in verdict.reason
    assert "a double joker is one tile" in verdict.reason


def test_book_double_joker_anywhere_in_a_run() -> None:
    assert stands("DJ r5 r6") == [("DJ", ("r3", "r4"))]
    assert stands("r5 DJ r8") == [("DJ", ("r6", "r7"))]
    assert stands("r5 r6 DJ") == [("DJ", ("r7", "r8"))]


def test_book_double_joker_never_directly_before_a_2_or_after_a_12() -> None:
    assert check_set("DJ b2 b3").reason == "a double joker cannot stand directly before a 2"
    assert check_set("b11 b12 DJ").reason == "a double joker cannot stand directly after a 12"
    # only a 1 may stand before a 2 and only a 13 after a 12
    assert check_set("b1 b2 b3").valid and check_set("b11 b12 b13").valid


def test_book_colour_change_joker_two_colours_in_one_run() -> None:
    verdict = check_set("r3 r4 CJ b6 b7")
    assert verdict.valid and verdict.kind == "run"
    assert stands("r3 r4 CJ b6 b7") == [("CJ", ("b5",))]


def test_book_colour_change_joker_runs_only() -> None:
    verdict = check_set("r5 b5 CJ k5")
    assert not verdict.valid


def test_book_colour_change_joker_at_either_end_differs_from_its_neighbour() -> None:
    (_, (right,)) = stands("r3 r4 r5 CJ")[0]
    (_, (left,)) = stands("CJ r3 r4 r5")[0]
    assert right[1:] == "6" and right[0] != "r"
    assert left[1:] == "2" and left[0] != "r"


def test_colour_change_joker_needs_a_change() -> None:
    verdict = check_set("r3 r4 CJ r6")
    assert verdict.reason == (
        "a colour-change joker needs a different colour on each side: r3 r4 CJ r6 is red on "
        "both sides"
    )


def test_book_mirror_run_peak_3_4_mj_4_3() -> None:
    verdict = check_set("b3 b4 MJ b4 b3")
    assert verdict.valid and verdict.kind == "run" and not verdict.awaiting_mirror
    assert stands("b3 b4 MJ b4 b3") == [("MJ", ("b5",))]  # the book: the mirror joker is 5
    assert verdict.value == 3 + 4 + 5 + 4 + 3


def test_book_mirror_group_red7_blue7_mj_blue7_red7() -> None:
    verdict = check_set("r7 b7 MJ b7 r7")
    assert verdict.valid and verdict.kind == "group" and not verdict.awaiting_mirror
    assert verdict.value == 35


def test_book_mirror_one_sided_growth_is_awaiting_its_mirror() -> None:
    assert check_set("b4 MJ b4").valid
    verdict = check_set("b4 MJ b4 b3")  # the book: legal, but b3 must come on the left next
    assert verdict.valid and verdict.awaiting_mirror
    assert verdict.awaits == "b3 on the left"
    assert check_set("b3 b4 MJ b4 b3").valid


def test_book_mirror_every_tile_on_one_side_appears_on_the_other() -> None:
    verdict = check_set("b4 MJ b4 b3 b2")
    assert not verdict.valid
    assert verdict.reason is not None and "must be mirrored" in verdict.reason


def test_book_mirror_joker_may_be_mirrored_by_a_joker() -> None:
    # "if one side is a numbered tile and the other a joker standing for it, it is symmetric"
    verdict = check_set("b3 J MJ b4 b3")
    assert verdict.valid
    assert stands("b3 J MJ b4 b3") == [("J", ("b4",)), ("MJ", ("b5",))]


def test_mirror_joker_never_beside_a_13() -> None:
    assert check_set("b13 MJ b13").kind == "group"  # as a group it is fine
    verdict = check_set("b12 b13 MJ b13 b12")
    assert not verdict.valid
    assert verdict.reason is not None and "never stand beside a 13" in verdict.reason


def test_mirror_joker_initial_value_option() -> None:
    assert check_set("b3 b4 MJ b4 b3", "number").value == 19
    assert check_set("b3 b4 MJ b4 b3", "zero").value == 14


def test_book_regular_joker_in_a_three_tile_group_stands_for_a_missing_colour() -> None:
    ((_, (token,)),) = stands("r3 b3 J")
    assert token in ("k3", "o3")


def test_book_several_jokers_of_any_kinds_in_one_set() -> None:
    verdict = check_set("r2 J DJ r6 CJ b8")
    assert verdict.valid
    assert [j for j, _ in stands("r2 J DJ r6 CJ b8")] == ["J", "DJ", "CJ"]
    assert verdict.value == sum(range(2, 9))


# -- rejections name the problem -----------------------------------------------------------
@pytest.mark.parametrize(
    ("tiles", "reason"),
    [
        ("r4 r5 r5", "r5 appears twice in the run r4 r5 r5"),
        ("r5 b5 r5", "r5 appears twice in the group r5 b5 r5"),
        ("r3 r4 r6", "r6 cannot follow r4 in the run r3 r4 r6: 5 is missing"),
        ("r5 r4 r3", "a run goes up from left to right: r4 cannot follow r5"),
        (
            "r4 b5 r6",
            "a run is one colour: r4 and b5 differ (a colour-change joker could join them)",
        ),
        ("r1 r2", "a set needs at least 3 tiles, r1 r2 has 2"),
        (
            "k7 r7 b7 o7 J",
            "a group has at most 4 tiles, one of each colour: k7 r7 b7 o7 J stands for 5",
        ),
        (
            "J r1 r2",
            "the joker would stand for a number below 1 in J r1 r2: 1 is the lowest number",
        ),
        ("MJ MJ r4", "a set can hold only one mirror joker: it has a single centre"),
        ("r5 b5 k6", "a group's tiles share one number: r5 and k6 differ"),
    ],
)
def test_rejection_reasons(tiles: str, reason: str) -> None:
    verdict = check_set(tiles)
    assert not verdict.valid and verdict.kind is None and verdict.value == 0
    assert verdict.reason == reason


def test_jokers_only_is_read_as_the_highest_set() -> None:
    verdict = check_set("J J J")
    assert verdict.valid and verdict.value == 39


def test_run_or_group_ambiguity_takes_the_higher_value() -> None:
    verdict = check_set("r5 J J")
    assert verdict.kind == "run" and verdict.value == 18


def test_unknown_token_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="'x5'"):
        check_set("r4 x5 r6")


def test_json_shape() -> None:
    assert check_set("b3 r3 DJ").to_json() == {
        "tiles": ["b3", "r3", "DJ"],
        "valid": True,
        "kind": "group",
        "value": 12,
        "awaiting_mirror": False,
        "jokers": [{"tile": "DJ", "stands_for": ["k3", "o3"]}],
        "reason": None,
    }


def test_mirror_symmetry_is_by_number_only() -> None:
    verdict = check_set("r7 MJ b7")
    assert verdict.valid and verdict.kind == "group"
    assert not check_set("r7 b7 MJ r7 r7").valid  # still no colour twice on one side


def test_unmatched_mirror_slot_may_be_half_a_double_joker() -> None:
    verdict = check_set("b4 MJ DJ")
    assert verdict.valid and verdict.awaiting_mirror
    assert stands("b4 MJ DJ") == [("MJ", ("b5",)), ("DJ", ("b4", "b3"))]


def test_several_colour_changes_in_one_run() -> None:
    verdict = check_set("r3 CJ b5 CJ o7")
    assert verdict.valid and verdict.value == 3 + 4 + 5 + 6 + 7
    assert not check_set("r3 CJ r5 CJ o7").valid
