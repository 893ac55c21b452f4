"""``tableref score fourcolor``: the hu of a Four Color Cards hand, and what it collects."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from host.cli.app import score_app
from host.cli.common import InputError, JsonOption, emit
from host.rules.fourcolor import Combination, MeldError, meld, score_hand
from host.rules.fourcolor_combos import KIND_ZH
from host.rules.notation import parse_cards, parse_token


class WinFrom(StrEnum):
    self = "self"
    other = "other"


class SelfDrawnAt(StrEnum):
    hand = "hand"
    exposed = "exposed"


@score_app.command("fourcolor")
def score_fourcolor(
    hand: Annotated[str, typer.Option("--hand", help='The cards held, e.g. "rG rA rE gR gH gC".')],
    exposed: Annotated[
        list[str] | None,
        typer.Option("--exposed", help='One meld laid face up, e.g. "yS wS gS" (repeatable).'),
    ] = None,
    win_card: Annotated[
        str | None, typer.Option("--win-card", help="The card that completes the hand.")
    ] = None,
    win_from: Annotated[
        WinFrom | None,
        typer.Option(
            "--win-from",
            help="Where the win card came from: 'other' (taken from another player: its "
            "combination counts at the exposed value; the default) or 'self' (own draw).",
        ),
    ] = None,
    flower: Annotated[
        str | None,
        typer.Option("--flower", help="The card revealed after the hu (flower hu)."),
    ] = None,
    threshold: Annotated[
        int, typer.Option("--threshold", min=0, help="Hu needed to win (a call below: false hu).")
    ] = 10,
    self_drawn: Annotated[
        SelfDrawnAt,
        typer.Option(
            "--self-drawn",
            help="Value of the combination completed by the winner's own draw.",
        ),
    ] = SelfDrawnAt.hand,
    as_json: JsonOption = False,
) -> None:
    """Split a hand into its best combinations and count its hu (Taiwanese 10-hu rules)."""
    if win_from is not None and win_card is None:
        raise InputError("--win-from needs --win-card (the card that completes the hand)")
    held = parse_cards("fourcolor", hand, check_box=False)
    melds: list[Combination] = []
    for text in exposed or []:
        cards = parse_cards("fourcolor", text, check_box=False)
        try:
            melds.append(meld(cards, exposed=True))
        except MeldError as exc:
            raise InputError(f"--exposed {text!r} is not a combination: {exc}") from None
    win = parse_token("fourcolor", win_card) if win_card is not None else None
    flower_card = parse_token("fourcolor", flower) if flower is not None else None
    score = score_hand(
        held,
        melds,
        win_card=win,
        win_from=(win_from or WinFrom.other).value,
        flower=flower_card,
        threshold=threshold,
        self_drawn_at_hand=self_drawn is SelfDrawnAt.hand,
    )

    def render() -> None:
        shape = "a winning shape" if score.winning_shape else "not a winning shape"
        flower_part = f" (flower {score.flower_hu})" if flower_card else ""
        typer.echo(f"{shape}: {score.hu} hu{flower_part}, threshold {score.threshold}")
        for combo in score.combinations:
            where = "exposed" if combo.exposed else "in hand"
            typer.echo(
                f"  {' '.join(combo.cards):<12} {combo.kind:<25} {KIND_ZH[combo.kind]:\u3000<4} "
                f"{where:<8} {combo.hu:>2} hu"
            )
        if score.leftover:
            typer.echo(f"  left over: {' '.join(score.leftover)}")
        if score.meets_threshold:
            typer.echo(f"hu: collects {score.stake} from every other player")
        else:
            typer.echo(
                f"a hu called now is false (相公): pays {-score.stake} to every other player"
            )

    emit(score.to_json(), as_json, render)
