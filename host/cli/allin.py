"""``tableref score allin``: rank shown All In hands, and share the pot among predictors."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from host.cli.app import score_app
from host.cli.common import InputError, JsonOption, emit
from host.rules.allin import showdown
from host.rules.allin_hands import LABELS
from host.rules.notation import split_tokens


def _pairs(items: list[str], what: str, example: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name or not value:
            raise InputError(f"{what} {item!r} is not of the form {example}")
        if name in pairs:
            raise InputError(f"{what}: {name} is given twice")
        pairs[name] = value
    return pairs


@score_app.command("allin")
def score_allin(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME=CARDS...",
            help='Each player\'s 5 shown cards, e.g. ann="4c 5m 6b 7t 8c" (R = rune card).',
        ),
    ],
    side: Annotated[
        str,
        typer.Option(
            "--side", help="Player aid side: A (default) or B (straight 6, full house 4)."
        ),
    ] = "A",
    suits: Annotated[
        str | None,
        typer.Option(
            "--suits", help="Suit order, strongest first, e.g. cmbt or clock,mask,beetle,tree."
        ),
    ] = None,
    pot: Annotated[
        int | None,
        typer.Option("--pot", help="Runes in the pot (default 4; 2 with 2 players)."),
    ] = None,
    predict: Annotated[
        list[str] | None,
        typer.Option("--predict", metavar="VOTER=TARGET", help="A prediction marker; repeat."),
    ] = None,
    deck: Annotated[
        str, typer.Option("--deck", help="Card tokens of the 'allin' deck or a 'standard' deck.")
    ] = "allin",
    as_json: JsonOption = False,
) -> None:
    """Rank the hands shown at an All In showdown (best first) and share the pot."""
    if side.upper() not in ("A", "B"):
        raise InputError(f"--side must be A or B, not {side!r}")
    if deck not in ("allin", "standard"):
        raise InputError(f"--deck must be allin or standard, not {deck!r}")
    shown = {
        name: split_tokens(cards) for name, cards in _pairs(hands, "hand", "NAME=CARDS").items()
    }
    predictions = _pairs(predict or [], "--predict", "VOTER=TARGET")
    result = showdown(
        shown, side.upper(), suits, predictions=predictions or None, pot=pot, deck=deck
    )
    emit(result, as_json, lambda: _render(result))


def _render(result: dict[str, Any]) -> None:
    by_name = {p["name"]: p for p in result["players"]}
    width = max(len(n) for n in by_name)
    for place, name in enumerate(result["order"], start=1):
        p = by_name[name]
        hand = LABELS[p["hand"]]
        if p["pattern"]:
            hand += f" ({' '.join(p['pattern'])})"
        runes = f"{p['value']}"
        if p["rune_cards"]:
            runes += f" + {2 * p['rune_cards']} for {p['rune_cards']} rune card(s) = {p['runes']}"
        typer.echo(f"{place}. {name:<{width}}  {' '.join(p['cards']):<18} {hand}: {runes} runes")
    typer.echo(f"best hand: {result['best']}")
    pot = result.get("pot")
    if pot is not None:
        shares = ", ".join(f"{n} +{s}" for n, s in pot["shares"].items()) or "nobody predicted it"
        typer.echo(f"pot {pot['size']}: {shares}; {pot['carry']} carried to the next round")
