"""``tableref check|score|hint rummikub``: sets, end-of-game scores and suggested plays."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import typer

from host.cli.app import check_app, hint_app, score_app
from host.cli.common import InputError, JsonOption, emit
from host.rules.notation import check_in_box, parse_cards, split_tokens
from host.rules.rummikub import ScoreError, check_set, find_hint, score_game
from host.rules.rummikub_sets import MirrorValue, SetCheck
from host.rules.rummikub_turn import OPENING_POINTS

GAME = "rummikub"

MirrorOption = Annotated[
    str,
    typer.Option(
        "--mirror-value",
        help="Initial-meld value of a mirror joker: 'number' (the book) or 'zero'.",
    ),
]


def _mirror(value: str) -> MirrorValue:
    if value not in ("number", "zero"):
        raise InputError(f"--mirror-value must be 'number' or 'zero', got {value!r}")
    return "number" if value == "number" else "zero"


def _parse_set(text: str) -> list[str]:
    tiles = parse_cards(GAME, text)
    if not tiles:
        raise InputError('an empty set was given: quote each set\'s tiles, e.g. "r3 r4 r5"')
    return tiles


def _describe(verdict: SetCheck) -> str:
    tiles = " ".join(verdict.tiles)
    if not verdict.valid:
        return f"✗ {tiles}: {verdict.reason}"
    jokers = ", ".join(f"{j.tile} = {' '.join(j.stands_for)}" for j in verdict.jokers)
    extra = f" ({jokers})" if jokers else ""
    waiting = f"; awaiting its mirror: {verdict.awaits}" if verdict.awaiting_mirror else ""
    return f"✓ {verdict.kind} {tiles}, value {verdict.value}{extra}{waiting}"


@check_app.command("rummikub")
def check(
    sets: Annotated[
        list[str], typer.Argument(help='Each set a quoted tile list in table order: "r3 r4 J".')
    ],
    initial: Annotated[
        bool,
        typer.Option("--initial", help=f"Also require an initial meld of {OPENING_POINTS}+."),
    ] = False,
    mirror_value: MirrorOption = "number",
    as_json: JsonOption = False,
) -> None:
    """Check Rummikub with a Twist sets. Exit 0: all valid; 1: any invalid; 2: bad input."""
    mirror = _mirror(mirror_value)
    parsed = [_parse_set(s) for s in sets]
    check_in_box(GAME, [t for s in parsed for t in s])
    verdicts = [check_set(s, mirror) for s in parsed]
    value = sum(v.value for v in verdicts)
    valid = all(v.valid for v in verdicts)
    result: dict[str, Any] = {
        "valid": valid,
        "value": value,
        "sets": [v.to_json() for v in verdicts],
    }
    if initial:
        met = value >= OPENING_POINTS
        result["initial"] = {"needed": OPENING_POINTS, "met": met}
        valid = valid and met
        result["valid"] = valid

    def render() -> None:
        for verdict in verdicts:
            typer.echo(_describe(verdict))
        line = f"total value {value}"
        if initial:
            enough = "enough" if value >= OPENING_POINTS else "not enough"
            line += f": {enough} for an initial meld ({OPENING_POINTS})"
        typer.echo(line)
        typer.echo("valid" if valid else "invalid")

    emit(result, as_json, render)
    raise typer.Exit(0 if valid else 1)


def _parse_player(entry: str) -> tuple[str, list[str]]:
    name, sep, rack = entry.partition("=")
    if not sep or not name.strip():
        raise InputError(
            f'expected NAME=RACK (e.g. ann="r3 k7 J" or bob= for an empty rack), got {entry!r}'
        )
    return name.strip(), parse_cards(GAME, rack)


@score_app.command("rummikub")
def score(
    players: Annotated[
        list[str], typer.Argument(help="One NAME=RACK per player; the winner's rack is empty.")
    ],
    pool_empty: Annotated[
        bool,
        typer.Option("--pool-empty", help="The pool ran out: the lowest rack total wins."),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Score the end of a Rummikub game from the racks left (any joker: 30)."""
    racks: dict[str, list[str]] = {}
    for entry in players:
        name, rack = _parse_player(entry)
        if name in racks:
            raise InputError(f"player {name!r} is given twice")
        racks[name] = rack
    check_in_box(GAME, [t for rack in racks.values() for t in rack])
    try:
        result = score_game(racks, pool_empty=pool_empty)
    except ScoreError as exc:
        raise InputError(str(exc)) from None

    def render() -> None:
        typer.echo(f"winner: {result.winner}")
        for name, value in result.scores.items():
            typer.echo(f"  {name}: {value:+d}")

    emit(result.to_json(), as_json, render)


@hint_app.command("rummikub")
def hint(
    rack: Annotated[str, typer.Option("--rack", help="The tiles on your rack.")],
    table: Annotated[
        list[str] | None,
        typer.Option("--table", help="One set on the table, in table order (repeat it)."),
    ] = None,
    initial: Annotated[
        bool, typer.Option("--initial", help="Find an initial meld (30+ from the rack alone).")
    ] = False,
    goal: Annotated[
        str, typer.Option("--goal", help="What to maximise: 'tiles' or 'points'.")
    ] = "tiles",
    budget: Annotated[
        float, typer.Option("--budget", help="Seconds the search may take.", min=0.01)
    ] = 2.0,
    mirror_value: MirrorOption = "number",
    as_json: JsonOption = False,
) -> None:
    """Suggest the legal play that places the most tiles (or points, or a valid opening)."""
    mirror = _mirror(mirror_value)
    if goal not in ("tiles", "points"):
        raise InputError(f"--goal must be 'tiles' or 'points', got {goal!r}")
    chosen: Literal["tiles", "points"] = "tiles" if goal == "tiles" else "points"
    sets = [_parse_set(s) for s in table or []]
    hand = parse_cards(GAME, split_tokens(rack))
    check_in_box(GAME, [t for s in sets for t in s] + hand)
    for number, tiles in enumerate(sets, start=1):
        verdict = check_set(tiles, mirror)
        if not verdict.valid:
            raise InputError(f"table set {number} ({' '.join(tiles)}) is invalid: {verdict.reason}")
    found = find_hint(
        sets, hand, initial=initial, goal=chosen, mirror_value=mirror, budget_s=budget
    )

    def render() -> None:
        typer.echo(found.note)
        if found.played:
            typer.echo("table after the play:")
            for s in found.table:
                typer.echo(f"  {' '.join(s)}")

    emit(found.to_json(), as_json, render)
