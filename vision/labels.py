"""What a recogniser can say: its label set, factorised into parts, and its crop size.

A recogniser is generic over "a label set + a crop size". Labels are notation tokens
(``../shared/spec/NOTATION.md``) plus ``none`` (not an object: the detector over-proposes).
Each label is a combination of *factors* (colour × number for tiles, rank × suit for cards):
the network predicts each factor and scores a label as the sum of its factors' logits, so a
combination seen rarely in training still gets the evidence of both its parts. The spec is
saved beside the ONNX model as ``models/<name>.labels.json``; vision never imports the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NONE = "none"

_TILE_COLOURS = ("k", "r", "b", "o")
_TILE_JOKERS = ("J", "DJ", "CJ", "MJ")
_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_STANDARD_SUITS = ("S", "H", "D", "C")
_ALLIN_SUITS = ("c", "m", "b", "t")


@dataclass(frozen=True)
class LabelSpec:
    name: str
    crop: tuple[int, int]  # width, height of the normalised crop
    factors: tuple[tuple[str, tuple[str, ...]], ...]  # (factor name, values)
    labels: tuple[str, ...]
    parts: tuple[tuple[int, ...], ...]  # per label, the index of its value in each factor
    decks: dict[str, tuple[str, ...]]  # deck name → the labels it holds

    def index(self, label: str) -> int:
        return self.labels.index(label)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "crop": list(self.crop),
            "factors": [{"name": n, "values": list(v)} for n, v in self.factors],
            "labels": list(self.labels),
            "parts": [list(p) for p in self.parts],
            "decks": {k: list(v) for k, v in self.decks.items()},
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> LabelSpec:
        return LabelSpec(
            name=str(data["name"]),
            crop=(int(data["crop"][0]), int(data["crop"][1])),
            factors=tuple((str(f["name"]), tuple(f["values"])) for f in data["factors"]),
            labels=tuple(data["labels"]),
            parts=tuple(tuple(int(i) for i in p) for p in data["parts"]),
            decks={k: tuple(v) for k, v in data["decks"].items()},
        )

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @staticmethod
    def load(path: Path) -> LabelSpec:
        return LabelSpec.from_json(json.loads(path.read_text()))


def _build(
    name: str,
    crop: tuple[int, int],
    factors: tuple[tuple[str, tuple[str, ...]], ...],
    combos: list[tuple[str, tuple[str, ...]]],
    decks: dict[str, tuple[str, ...]],
) -> LabelSpec:
    labels = tuple(label for label, _ in combos)
    parts = tuple(
        tuple(values.index(v) for (_, values), v in zip(factors, combo, strict=True))
        for _, combo in combos
    )
    return LabelSpec(name, crop, factors, labels, parts, decks)


def tile_number(label: str) -> str | None:
    """A numbered tile's number (``"10"`` for ``r10``); ``None`` for a joker or anything else."""
    if len(label) > 1 and label[0] in _TILE_COLOURS and label[1:].isdigit():
        return label[1:]
    return None


def tiles_spec() -> LabelSpec:
    colours = (*_TILE_COLOURS, "-")
    symbols = (*(str(n) for n in range(1, 14)), *_TILE_JOKERS, "-")
    combos: list[tuple[str, tuple[str, ...]]] = [
        (f"{c}{n}", (c, str(n))) for c in _TILE_COLOURS for n in range(1, 14)
    ]
    combos += [(j, ("-", j)) for j in _TILE_JOKERS]
    deck = tuple(label for label, _ in combos)
    combos.append((NONE, ("-", "-")))
    return _build(
        "tiles", (24, 32), (("colour", colours), ("symbol", symbols)), combos, {"rummikub": deck}
    )


def cards_spec() -> LabelSpec:
    ranks = (*_RANKS, "X", "R", "-")
    suits = (*_STANDARD_SUITS, *_ALLIN_SUITS, "-")
    Combo = tuple[str, tuple[str, ...]]
    standard: list[Combo] = [(f"{r}{s}", (r, s)) for s in _STANDARD_SUITS for r in _RANKS]
    standard.append(("X", ("X", "-")))
    allin: list[Combo] = [(f"{r}{s}", (r, s)) for s in _ALLIN_SUITS for r in _RANKS]
    allin.append(("R", ("R", "-")))
    combos = [*standard, *allin, (NONE, ("-", "-"))]
    return _build(
        "cards",
        (32, 48),
        (("rank", ranks), ("suit", suits)),
        combos,
        {"cards": tuple(x for x, _ in standard), "allin": tuple(x for x, _ in allin)},
    )


_FOURCOLOR_COLOURS = ("r", "g", "y", "w")
_FOURCOLOR_PIECES = ("G", "A", "E", "R", "H", "C", "S")
_CACTUS = (
    "charlie",
    "ace",
    "walter",
    "wild",
    "free_point",
    "swap_hands",
    "peek_steal",
    "draw_three",
    "steal_point",
    "gimme",
    "steal_card",
    "nope",
)


def fourcolor_spec() -> LabelSpec:
    """One printed character of a Four Color card, upright: colour x piece. A character seen
    turned (a quarter or half turn off) is ``none``, so the reader learns which way is up."""
    colours = (*_FOURCOLOR_COLOURS, "-")
    pieces = (*_FOURCOLOR_PIECES, "-")
    combos: list[tuple[str, tuple[str, ...]]] = [
        (f"{c}{p}", (c, p)) for c in _FOURCOLOR_COLOURS for p in _FOURCOLOR_PIECES
    ]
    deck = tuple(label for label, _ in combos)
    combos.append((NONE, ("-", "-")))
    return _build(
        "fourcolor", (40, 40), (("colour", colours), ("piece", pieces)), combos, {"fourcolor": deck}
    )


def cactus_spec() -> LabelSpec:
    """The name band of a Cactus card (the card's name in Chinese, often with English under
    it), upright: one factor, the card; a band seen upside down is ``none``."""
    names = (*_CACTUS, "-")
    combos: list[tuple[str, tuple[str, ...]]] = [(n, (n,)) for n in _CACTUS]
    combos.append((NONE, ("-",)))
    return _build("cactus", (72, 24), (("card", names),), combos, {"cactus": _CACTUS})


def pips_spec() -> LabelSpec:
    """A standard card's pip, looked at beside its index (:mod:`vision.card_pips`): its suit,
    or ``none`` where the ink found there is no pip (table texture, a letter, court art)."""
    suits = (*_STANDARD_SUITS, "-")
    combos: list[tuple[str, tuple[str, ...]]] = [(s, (s,)) for s in _STANDARD_SUITS]
    combos.append((NONE, ("-",)))
    return _build("pips", (24, 24), (("suit", suits),), combos, {"cards": _STANDARD_SUITS})


def spec_for(kind: str) -> LabelSpec:
    if kind == "tiles":
        return tiles_spec()
    if kind == "cards":
        return cards_spec()
    if kind == "fourcolor":
        return fourcolor_spec()
    if kind == "cactus":
        return cactus_spec()
    if kind == "pips":
        return pips_spec()
    raise ValueError(
        f"unknown recogniser {kind!r}: expected tiles, cards, fourcolor, cactus or pips"
    )
