"""``tableref enroll``: teach the reader one physical deck, without retraining.

The player lays the deck out in the notation's order, row by row in a grid (over one or
several captures) or one card per capture; each capture is checked (every position named that
is empty, doubled, stray or unreadable), and the deck profile (the recogniser's embedding of
every card) is stored in the user's data directory. ``tableref read --deck NAME`` and the
referee (setting ``deck``) then read with it.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit

if TYPE_CHECKING:
    from vision.enrol_session import Enrolment

# vision reads a game under its own name; the notation names the standard deck "standard".
NOTATION_GAME = {"cards": "standard"}
CAMERA_WARMUP = 5  # frames dropped before a capture: exposure settles


def deck_order(game: str) -> list[str]:
    """Every card of ``game``'s deck once, in the notation's order."""
    from host.rules.notation import tokens

    return tokens(NOTATION_GAME.get(game, game))


def default_grid(cards: int) -> tuple[int, int]:
    """A grid a little wider than tall that holds the whole deck in one capture."""
    cols = math.ceil(math.sqrt(cards * 1.4))
    return cols, math.ceil(cards / cols)


def parse_grid(text: str) -> tuple[int, int]:
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise InputError(f"--grid must be COLSxROWS, e.g. 9x6; got {text!r}")
    cols, rows = int(parts[0]), int(parts[1])
    if not (1 <= cols <= 30 and 1 <= rows <= 30):
        raise InputError(f"--grid {text}: columns and rows must be 1 to 30")
    return cols, rows


def _games() -> tuple[str, ...]:
    from vision.reader import GAMES

    return tuple(GAMES)


def _check_game(game: str | None) -> str:
    if game is None:
        raise InputError(f"--game is needed: one of {', '.join(_games())}")
    if game not in _games():
        raise InputError(f"unknown game {game!r}: expected one of {', '.join(_games())}")
    return game


def _say(text: str, as_json: bool) -> None:
    """Guidance for the player: on stderr when stdout carries JSON."""
    typer.echo(text, err=as_json)


def _plan_text(enrolment: Enrolment, view: int) -> str:
    rows = enrolment.plan()[view - 1]
    head = f"capture {view} of {len(enrolment.views)}"
    if enrolment.cols == 1 and enrolment.rows == 1:
        return f"{head}: lay {rows[0][0]} face up alone on the table"
    lines = [f"{head}: lay out, upright and apart, left to right:"]
    lines += [f"  row {r + 1}: {' '.join(row)}" for r, row in enumerate(rows)]
    return "\n".join(lines)


def _captures(sources: list[str], interactive: bool) -> Iterator[tuple[str, Any]]:
    """(name, image) per capture: each image of the files and folders in order; from a
    camera, one frame each time the player presses Enter."""
    from vision.camera import Frame, SourceError, frames

    for source in sources:
        try:
            stream = frames(source)
            if not (source.isdigit() or source == "picamera2"):
                for frame in stream:
                    yield frame.source, frame.image
                continue
            while True:
                if interactive:
                    answer = input("press Enter to capture (q to stop): ").strip().lower()
                    if answer == "q":
                        return
                shot: Frame | None = None
                for _ in range(CAMERA_WARMUP):
                    shot = next(stream, None)
                if shot is None:
                    raise InputError(f"camera {source} gave no frame")
                yield shot.source, shot.image
        except SourceError as exc:
            raise InputError(str(exc)) from exc


@app.command("enroll")
def enroll(
    game: Annotated[
        str | None, typer.Option("--game", help="Which deck: rummikub, cards, allin, ...")
    ] = None,
    deck: Annotated[str, typer.Option("--deck", help="Name to store the profile under.")] = (
        "default"
    ),
    source: Annotated[
        list[str] | None,
        typer.Option(
            "--source",
            help="Camera index, 'picamera2', or image files/folders (one image per capture, "
            "in order). Repeat for several.",
        ),
    ] = None,
    grid: Annotated[
        str | None,
        typer.Option("--grid", help="Layout per capture, COLSxROWS (default: the whole deck)."),
    ] = None,
    one_by_one: Annotated[
        bool, typer.Option("--one-by-one", help="One card per capture instead of a grid.")
    ] = False,
    partial: Annotated[
        bool, typer.Option("--partial", help="Store the profile even if cards are missing.")
    ] = False,
    add: Annotated[
        bool, typer.Option("--add", help="Add this pass to the stored profile of the deck.")
    ] = False,
    plan: Annotated[bool, typer.Option("--plan", help="Only show what to lay out where.")] = False,
    list_: Annotated[bool, typer.Option("--list", help="List the enrolled decks.")] = False,
    remove: Annotated[
        str | None, typer.Option("--remove", help="Delete the enrolled deck NAME.")
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            help="Where profiles live (default: $TABLEREF_DATA_DIR or the user data dir).",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Enrol a physical deck: lay it out, capture it, store its profile for reads."""
    from vision import enroll as profiles
    from vision.userdata import check_name

    if list_:
        games = [_check_game(game)] if game is not None else list(_games())
        found = {g: profiles.list_decks(g, data_dir) for g in games}

        def show() -> None:
            lines = [f"{g}: {', '.join(d)}" for g, d in found.items() if d]
            typer.echo("\n".join(lines) or "no enrolled decks")

        emit({"decks": found}, as_json, show)
        return
    game = _check_game(game)
    if remove is not None:
        try:
            path = profiles.remove_deck(game, check_name("deck", remove), data_dir)
        except ValueError as exc:
            raise InputError(str(exc)) from exc
        emit(
            {"removed": remove, "game": game, "path": str(path)},
            as_json,
            lambda: typer.echo(f"removed deck {remove} ({game})"),
        )
        return
    try:
        check_name("deck", deck)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    if one_by_one and grid is not None:
        raise InputError("--grid and --one-by-one exclude each other")
    order = deck_order(game)
    cols, rows = (1, 1) if one_by_one else (parse_grid(grid) if grid else default_grid(len(order)))
    enrolment = _start(game, deck, order, cols, rows)
    if plan:
        views = enrolment.plan()
        emit(
            {"game": game, "deck": deck, "grid": [cols, rows], "captures": views},
            as_json,
            lambda: typer.echo("\n".join(_plan_text(enrolment, v + 1) for v in range(len(views)))),
        )
        return
    if not source:
        raise InputError("--source is needed: a camera index, or image files/folders")
    result = _run(enrolment, source, as_json, partial)
    profile = enrolment.profile(partial=partial)
    if add:
        try:
            profile = profiles.DeckProfile.load(game, deck, data_dir).extended(profile)
        except profiles.EnrolError as exc:
            raise InputError(str(exc)) from exc
    path = profile.save(data_dir)
    result.update(
        path=str(path), passes=profile.passes, embeddings=len(profile.labels),
        cards=len([c for c in profile.cards if c != "none"]), doubtful=enrolment.doubtful,
    )  # fmt: skip
    if game == "rummikub":
        # Where the deck prints its bar under the numbers (vision.turn_marks), in number heights.
        result["mark"] = None if profile.mark is None else [round(v, 3) for v in profile.mark]

    def render() -> None:
        typer.echo(
            f"enrolled {result['cards']} of the {len(order)} cards of the {game} deck as {deck!r} "
            f"in {result['seconds']:.1f} s (pass {profile.passes}); saved {path}"
        )
        if result["missing"]:
            typer.echo(f"missing (read by the model alone): {' '.join(result['missing'])}")
        if game == "rummikub":
            typer.echo(
                "the deck's bar under its numbers: found; a 6 and a 9 are told apart by it"
                if profile.mark is not None
                else "the deck's bar under its numbers: not found on most tiles; a 6 and a 9 "
                "are told apart by their reads alone"
            )
        if result["doubtful"]:
            typer.echo(
                f"warning: {' '.join(result['doubtful'])}: this deck's profile takes most of its "
                "own crops of these for clutter, so reads of the table may miss them "
                "(enter them on the dashboard when they are played)"
            )

    emit(result, as_json, render)


def _start(game: str, deck: str, order: list[str], cols: int, rows: int) -> Enrolment:
    from vision.enrol_session import Enrolment
    from vision.enroll import EnrolError
    from vision.reader import TableReader
    from vision.recognise import ModelError

    try:
        return Enrolment(TableReader(game), deck, order, cols, rows)  # type: ignore[arg-type]
    except (ModelError, EnrolError) as exc:
        raise InputError(str(exc)) from exc


def _run(enrolment: Enrolment, sources: list[str], as_json: bool, partial: bool) -> dict[str, Any]:
    """Capture every view (a camera capture can be retaken until it is right)."""
    started = time.perf_counter()
    interactive = sys.stdin.isatty() and not as_json
    camera = any(s.isdigit() or s == "picamera2" for s in sources)
    captures = _captures(sources, interactive)
    views = len(enrolment.views)
    view = 1
    _say(_plan_text(enrolment, view), as_json)
    for name, image in captures:
        result = enrolment.capture(view, image)
        for warning in result.warnings:
            _say(f"  warning: {warning}", as_json)
        if result.complete:
            _say(f"  {name}: all {len(result.expected)} found", as_json)
        else:
            for problem in result.problems:
                _say(f"  {name}: {problem}", as_json)
            if camera and interactive:
                _say("  fix the layout and capture again", as_json)
                continue
        view += 1
        if view > views:
            break
        _say(_plan_text(enrolment, view), as_json)
    else:
        if view <= views:
            msg = f"captures {view} to {views} were not taken" if view < views else (
                f"capture {view} was not taken"
            )  # fmt: skip
            if not partial:
                raise InputError(f"{msg}; nothing stored (lay out the rest and capture again)")
    problems = [p for r in enrolment.results.values() for p in r.problems]
    if problems and not partial:
        shown = "; ".join(problems[:8]) + (
            f"; and {len(problems) - 8} more" if len(problems) > 8 else ""
        )
        raise InputError(f"the layout is incomplete, nothing stored: {shown}")
    return {
        "game": enrolment.reader.game,
        "deck": enrolment.deck,
        "grid": [enrolment.cols, enrolment.rows],
        "captures": [r.to_json() for _, r in sorted(enrolment.results.items())],
        "complete": not enrolment.missing,
        "missing": enrolment.missing,
        "seconds": round(time.perf_counter() - started, 2),
    }
