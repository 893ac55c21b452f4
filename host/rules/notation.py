"""Card and tile tokens for every game: parsed and printed here and nowhere else.

A token is the short ASCII name of one physical card or tile (``../shared/spec/NOTATION.md``).
Within the project a card *is* its canonical token string; the helpers below split tokens
into their parts for the engines. Input also accepts the Chinese names the notation gives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

GameName = Literal["allin", "standard", "rummikub", "fourcolor", "cactus"]
GAMES: Final[tuple[GameName, ...]] = ("allin", "standard", "rummikub", "fourcolor", "cactus")

GAME_TITLES: Final[Mapping[str, str]] = {
    "allin": "All In",
    "standard": "the standard 52-card deck",
    "rummikub": "Rummikub with a Twist",
    "fourcolor": "Four Color Cards",
    "cactus": "Cactus Game",
}


class NotationError(ValueError):
    """A token that names no card of the game, or cards that cannot all be in its box."""

    def __init__(self, message: str, token: str | None = None, game: str | None = None) -> None:
        super().__init__(message)
        self.token = token
        self.game = game


# -- ranks shared by All In and the standard deck ------------------------------------------
RANKS: Final[tuple[str, ...]] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_VALUE: Final[Mapping[str, int]] = {r: i + 2 for i, r in enumerate(RANKS)}
_RANK_ALIASES: Final[Mapping[str, str]] = {"T": "10", "1": "A"}

# -- All In -------------------------------------------------------------------------------
ALLIN_SUITS: Final[tuple[str, ...]] = ("c", "m", "b", "t")  # clock, mask, beetle, tree
ALLIN_SUIT_NAMES: Final[Mapping[str, str]] = {
    "c": "clock",
    "m": "mask",
    "b": "beetle",
    "t": "tree",
}
_ALLIN_SUIT_ZH: Final[Mapping[str, str]] = {"時鐘": "c", "面具": "m", "甲蟲": "b", "樹木": "t"}
RUNE: Final = "R"

# -- standard deck ------------------------------------------------------------------------
STANDARD_SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
STANDARD_JOKER: Final = "X"
# Bridge order onto the All In deck's default suit order (NOTATION.md).
STANDARD_TO_ALLIN_SUIT: Final[Mapping[str, str]] = {"S": "c", "H": "m", "D": "b", "C": "t"}

# -- Rummikub -----------------------------------------------------------------------------
RUMMIKUB_COLOURS: Final[tuple[str, ...]] = ("k", "r", "b", "o")
RUMMIKUB_COLOUR_NAMES: Final[Mapping[str, str]] = {
    "k": "black",
    "r": "red",
    "b": "blue",
    "o": "orange",
}
_RUMMIKUB_COLOUR_ZH: Final[Mapping[str, str]] = {
    "黑": "k",
    "紅": "r",
    "藍": "b",
    "橙": "o",
    "黃": "o",
}
RUMMIKUB_JOKERS: Final[tuple[str, ...]] = ("J", "DJ", "CJ", "MJ")
RUMMIKUB_JOKER_NAMES: Final[Mapping[str, str]] = {
    "J": "joker",
    "DJ": "double joker",
    "CJ": "colour-change joker",
    "MJ": "mirror joker",
}

# -- Four Color Cards ---------------------------------------------------------------------
FOURCOLOR_COLOURS: Final[tuple[str, ...]] = ("r", "g", "y", "w")
FOURCOLOR_PIECES: Final[tuple[str, ...]] = ("G", "A", "E", "R", "H", "C", "S")
FOURCOLOR_PIECE_NAMES: Final[Mapping[str, str]] = {
    "G": "general",
    "A": "advisor",
    "E": "elephant",
    "R": "chariot",
    "H": "horse",
    "C": "cannon",
    "S": "soldier",
}
_FOURCOLOR_COLOUR_ZH: Final[Mapping[str, str]] = {"紅": "r", "綠": "g", "黃": "y", "白": "w"}
_FOURCOLOR_PIECE_ZH: Final[Mapping[str, str]] = {
    "將": "G",
    "帥": "G",
    "士": "A",
    "仕": "A",
    "象": "E",
    "相": "E",
    "車": "R",
    "俥": "R",
    "馬": "H",
    "傌": "H",
    "包": "C",
    "炮": "C",
    "卒": "S",
    "兵": "S",
}

# -- Cactus Game --------------------------------------------------------------------------
CACTUS_CHARACTERS: Final[tuple[str, ...]] = ("charlie", "ace", "walter", "wild")
CACTUS_ACTIONS: Final[tuple[str, ...]] = (
    "free_point",
    "swap_hands",
    "peek_steal",
    "draw_three",
    "steal_point",
    "gimme",
    "steal_card",
    "nope",
)
_CACTUS_ZH: Final[Mapping[str, str]] = {
    "查理": "charlie",
    "愛刺": "ace",
    "沃特": "walter",
    "萬用": "wild",
    "免費分數": "free_point",
    "交換手牌": "swap_hands",
    "看了再偷": "peek_steal",
    "抽3啦": "draw_three",
    "抽三啦": "draw_three",
    "偷分啦": "steal_point",
    "拿來啦": "gimme",
    "偷牌啦": "steal_card",
    "阻慢": "nope",
}


def _box() -> dict[str, dict[str, int]]:
    allin = {f"{r}{s}": 1 for s in ALLIN_SUITS for r in RANKS}
    allin[RUNE] = 2
    standard = {f"{r}{s}": 1 for s in STANDARD_SUITS for r in RANKS}
    standard[STANDARD_JOKER] = 2
    rummikub = {f"{c}{n}": 2 for c in RUMMIKUB_COLOURS for n in range(1, 14)}
    rummikub.update({j: 2 for j in RUMMIKUB_JOKERS})
    fourcolor = {f"{c}{p}": 4 for c in FOURCOLOR_COLOURS for p in FOURCOLOR_PIECES}
    cactus = {
        "charlie": 16,
        "ace": 12,
        "walter": 5,
        "wild": 3,
        "free_point": 3,
        "swap_hands": 3,
        "peek_steal": 6,
        "draw_three": 6,
        "steal_point": 6,
        "gimme": 10,
        "steal_card": 10,
        "nope": 10,
    }
    return {
        "allin": allin,
        "standard": standard,
        "rummikub": rummikub,
        "fourcolor": fourcolor,
        "cactus": cactus,
    }


BOX: Final[Mapping[str, Mapping[str, int]]] = _box()
"""How many copies of each card the game's box holds, by canonical token, in notation order."""


def tokens(game: str) -> list[str]:
    """Every distinct token of a game, in the notation's order."""
    return list(_box_of(game))


def _box_of(game: str) -> Mapping[str, int]:
    try:
        return BOX[game]
    except KeyError:
        raise NotationError(
            f"unknown game {game!r}: expected one of {', '.join(GAMES)}", game=game
        ) from None


def _unknown(token: str, game: str) -> NotationError:
    return NotationError(
        f"unknown card {token!r} for {GAME_TITLES.get(game, game)}", token=token, game=game
    )


def _parse_rank_suit(token: str, game: str, suits: Iterable[str]) -> str:
    body = token.strip()
    for zh, suit in _ALLIN_SUIT_ZH.items():
        if game == "allin" and zh in body:
            body = body.replace(zh, "") + suit
    if len(body) < 2:
        raise _unknown(token, game)
    rank, suit = body[:-1].upper(), body[-1]
    rank = _RANK_ALIASES.get(rank, rank)
    matches = [s for s in suits if s.lower() == suit.lower()]
    if rank not in RANK_VALUE or not matches:
        raise _unknown(token, game)
    return f"{rank}{matches[0]}"


def parse_token(game: str, token: str) -> str:
    """The canonical token for ``token`` in ``game``; :class:`NotationError` if none."""
    box = _box_of(game)
    if not isinstance(token, str):  # a stored log can hold any JSON where a token belongs
        raise NotationError(
            f"a {GAME_TITLES[game]} card must be a token string, got {token!r}", game=game
        )
    raw = token.strip()
    if not raw:
        raise NotationError(f"empty card token for {GAME_TITLES[game]}", token=token, game=game)
    if game == "allin":
        if raw.upper() == RUNE or raw in ("符文", "符文卡"):
            return RUNE
        return _parse_rank_suit(raw, game, ALLIN_SUITS)
    if game == "standard":
        if raw.upper() in (STANDARD_JOKER, "JOKER"):
            return STANDARD_JOKER
        return _parse_rank_suit(raw, game, STANDARD_SUITS)
    if game == "rummikub":
        upper = raw.upper()
        if upper in RUMMIKUB_JOKERS:
            return upper
        colour, number = raw[0].lower(), raw[1:]
        colour = _RUMMIKUB_COLOUR_ZH.get(raw[0], colour)
        canonical = f"{colour}{number}"
        if canonical in box and number.isdigit() and not number.startswith("0"):
            return canonical
        raise _unknown(token, game)
    if game == "fourcolor":
        if len(raw) == 2 and raw[0] in _FOURCOLOR_COLOUR_ZH and raw[1] in _FOURCOLOR_PIECE_ZH:
            return _FOURCOLOR_COLOUR_ZH[raw[0]] + _FOURCOLOR_PIECE_ZH[raw[1]]
        if len(raw) == 2:
            canonical = raw[0].lower() + raw[1].upper()
            if canonical in box:
                return canonical
        raise _unknown(token, game)
    # cactus
    name = _CACTUS_ZH.get(raw, raw.lower().replace("-", "_"))
    if name in box:
        return name
    raise _unknown(token, game)


def split_tokens(text: str) -> list[str]:
    """Split a card list as typed: whitespace or commas between tokens."""
    return [t for t in text.replace(",", " ").split() if t]


def parse_cards(game: str, cards: str | Iterable[str], *, check_box: bool = True) -> list[str]:
    """Parse a list of cards (a string or tokens); with ``check_box`` they must fit the box."""
    raw = split_tokens(cards) if isinstance(cards, str) else list(cards)
    parsed = [parse_token(game, t) for t in raw]
    if check_box:
        check_in_box(game, parsed)
    return parsed


def check_in_box(game: str, cards: Iterable[str]) -> None:
    """Raise :class:`NotationError` if the cards hold more copies of one than the box has."""
    box = _box_of(game)
    for token, count in Counter(cards).items():
        have = box.get(token)
        if have is None:
            raise _unknown(token, game)
        if count > have:
            copies = "copy" if have == 1 else "copies"
            raise NotationError(
                f"{count}× {token!r} cannot exist: {GAME_TITLES[game]} has {have} {copies}",
                token=token,
                game=game,
            )


def format_cards(cards: Iterable[str]) -> str:
    return " ".join(cards)


# -- structured views of tokens ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayingCard:
    """A card of All In or of the standard deck mapped onto All In (``rank`` 2..14)."""

    rank: int
    suit: str  # All In suit letter
    token: str

    @property
    def is_rune(self) -> bool:
        return self.rank == 0


def playing_card(token: str, deck: Literal["allin", "standard"] = "allin") -> PlayingCard:
    """Split an All In or standard-deck token; standard jokers and runes get rank 0, suit ''."""
    canonical = parse_token(deck, token)
    if canonical in (RUNE, STANDARD_JOKER):
        return PlayingCard(0, "", canonical)
    rank, suit = canonical[:-1], canonical[-1]
    if deck == "standard":
        suit = STANDARD_TO_ALLIN_SUIT[suit]
    return PlayingCard(RANK_VALUE[rank], suit, canonical)


def standard_to_allin(token: str) -> str:
    """The All In card a standard-deck card stands for (jokers are rune cards)."""
    card = playing_card(token, "standard")
    if card.is_rune:
        return RUNE
    return f"{RANKS[card.rank - 2]}{card.suit}"


@dataclass(frozen=True, slots=True)
class Tile:
    """A Rummikub tile: ``joker`` is '' for numbered tiles, else J/DJ/CJ/MJ."""

    colour: str
    number: int
    joker: str
    token: str

    @property
    def is_joker(self) -> bool:
        return bool(self.joker)


def tile(token: str) -> Tile:
    canonical = parse_token("rummikub", token)
    if canonical in RUMMIKUB_JOKERS:
        return Tile("", 0, canonical, canonical)
    return Tile(canonical[0], int(canonical[1:]), "", canonical)


def tile_value(token: str) -> int:
    """Face value of a numbered tile; a joker left on a rack counts 30."""
    t = tile(token)
    return 30 if t.is_joker else t.number


@dataclass(frozen=True, slots=True)
class ChessCard:
    """A Four Color card: colour r/g/y/w and piece G/A/E/R/H/C/S."""

    colour: str
    piece: str
    token: str


def chess_card(token: str) -> ChessCard:
    canonical = parse_token("fourcolor", token)
    return ChessCard(canonical[0], canonical[1], canonical)
