from __future__ import annotations

import re

import pytest

from host.rules.notation import (
    BOX,
    NotationError,
    check_in_box,
    chess_card,
    parse_cards,
    parse_token,
    playing_card,
    standard_to_allin,
    tile,
    tokens,
)


@pytest.mark.parametrize(
    ("game", "raw", "canonical"),
    [
        ("allin", "10m", "10m"),
        ("allin", "ab", "Ab"),
        ("allin", "r", "R"),
        ("allin", "A時鐘", "Ac"),
        ("standard", "as", "AS"),
        ("standard", "10h", "10H"),
        ("standard", "x", "X"),
        ("rummikub", "R7", "r7"),
        ("rummikub", "dj", "DJ"),
        ("rummikub", "紅7", "r7"),
        ("fourcolor", "RG", "rG"),
        ("fourcolor", "紅帥", "rG"),
        ("fourcolor", "綠俥", "gR"),
        ("cactus", "Charlie", "charlie"),
        ("cactus", "阻慢", "nope"),
        ("cactus", "抽3啦", "draw_three"),
    ],
)
def test_tokens_parse_to_canonical(game: str, raw: str, canonical: str) -> None:
    assert parse_token(game, raw) == canonical


@pytest.mark.parametrize(
    ("game", "raw"),
    [
        ("allin", "1x"),
        ("allin", "11c"),
        ("standard", "Ab"),  # an All In suit in a standard deck
        ("rummikub", "r14"),
        ("rummikub", "r0"),
        ("rummikub", "r07"),
        ("rummikub", "x5"),
        ("fourcolor", "rX"),
        ("cactus", "banana"),
    ],
)
def test_unknown_token_names_token_and_game(game: str, raw: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_token(game, raw)
    assert repr(raw) in str(err.value)
    assert err.value.token == raw and err.value.game == game


@pytest.mark.parametrize("value", [5, None, ["r3"]])
def test_a_token_that_is_not_a_string_is_a_notation_error(value: object) -> None:
    # Stored logs are JSON: a number where a tile belongs must not crash the replay.
    with pytest.raises(NotationError, match=re.escape(f"must be a token string, got {value!r}")):
        parse_token("rummikub", value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "cards", "bad"),
    [
        ("rummikub", "r7 r7 r7", "r7"),
        ("allin", "Ac Ac", "Ac"),
        ("fourcolor", "gS gS gS gS gS", "gS"),
        ("allin", "R R R", "R"),
        ("cactus", "free_point " * 4, "free_point"),
    ],
)
def test_more_copies_than_the_box_holds_is_an_error(game: str, cards: str, bad: str) -> None:
    with pytest.raises(NotationError, match=f"'{bad}' cannot exist"):
        parse_cards(game, cards)


def test_box_sizes_match_the_rule_books() -> None:
    assert sum(BOX["allin"].values()) == 54
    assert sum(BOX["standard"].values()) == 54
    assert sum(BOX["rummikub"].values()) == 112
    assert sum(BOX["fourcolor"].values()) == 112
    assert sum(BOX["cactus"].values()) == 90
    assert len(tokens("rummikub")) == 56


def test_every_token_round_trips() -> None:
    for game in BOX:
        for token in tokens(game):
            assert parse_token(game, token) == token
            assert parse_token(game, token.swapcase()) == token or game == "cactus"
        check_in_box(game, [t for t, n in BOX[game].items() for _ in range(n)])


def test_structured_views() -> None:
    assert playing_card("Qd", "standard").suit == "b"
    assert playing_card("10c").rank == 10
    assert playing_card("R").is_rune
    assert standard_to_allin("AS") == "Ac"
    assert standard_to_allin("X") == "R"
    assert tile("o13").number == 13 and tile("o13").colour == "o"
    assert tile("MJ").is_joker
    assert chess_card("wH").piece == "H"
