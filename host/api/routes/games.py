"""A game: its live state, events, manual entry, undo, corrections, triggers, timer."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from host.api.deps import Authorized, Id, ObjectId, StoreDep, TableDep
from host.api.models import ERRORS, CorrectionIn, EndIn, EventIn, RacksIn, TimerIn, TriggerIn
from host.referee import RefereeError, Table
from host.rules.base import Event, LogError
from host.rules.notation import NotationError, parse_cards

router = APIRouter(prefix="/api/games", tags=["games"], responses=ERRORS)


def view(table: Table, game_id: int) -> dict[str, Any]:
    referee = table.referees.get(game_id)
    if referee is not None:
        return referee.snapshot()
    row = table.store.game(game_id)
    events = table.store.events(game_id)
    return {
        "game_id": row.id,
        "session_id": row.session_id,
        "game": row.game,
        "status": row.status,
        "players": list(events[0].get("players") or []),
        "summary": row.summary,
        "events": len(events) - 1,
    }


@router.get("")
def list_games(
    store: StoreDep,
    status: Annotated[Literal["running", "finished", "abandoned"] | None, Query()] = None,
) -> list[dict[str, Any]]:
    return [
        {"id": g.id, "session_id": g.session_id, "game": g.game, "status": g.status,
         "summary": g.summary}
        for g in store.games(status=status)
    ]  # fmt: skip


@router.get("/current")
def current(table: TableDep) -> dict[str, Any]:
    """The game the camera and the device are following now."""
    return table.referee().snapshot()


@router.get("/{game_id}")
def get_game(game_id: Id, table: TableDep) -> dict[str, Any]:
    return view(table, game_id)


@router.get("/{game_id}/scores")
def scores(game_id: Id, table: TableDep) -> dict[str, Any]:
    summary = view(table, game_id).get("summary") or {}
    return {
        "scores": summary.get("scores") or {},
        "winner": summary.get("winner"),
        "finished": bool(summary.get("finished")),
    }


@router.get("/{game_id}/events")
def events(game_id: Id, store: StoreDep) -> dict[str, Any]:
    """The standing log, and the full journal (undone events included)."""
    journal = store.journal(game_id)
    return {
        "events": [e.to_json() for e in store.events(game_id)],
        "journal": [j.to_json() for j in journal],
    }


@router.get("/{game_id}/history")
def history(game_id: Id, table: TableDep) -> list[dict[str, Any]]:
    return table.referee(game_id).history()


@router.post("/{game_id}/events", status_code=201, dependencies=[Authorized])
def add_event(game_id: Id, body: EventIn, table: TableDep) -> dict[str, Any]:
    """Enter by hand what the camera cannot see (a rack, a prediction, a draw)."""
    try:
        event = Event.from_json(body.event)
    except LogError as exc:
        raise RefereeError(str(exc)) from None
    referee = table.referee(game_id)
    referee.apply(event, source="dashboard")
    return referee.snapshot()


@router.post("/{game_id}/racks", status_code=201, dependencies=[Authorized])
def enter_racks(game_id: Id, body: RacksIn, table: TableDep) -> dict[str, Any]:
    """A real Rummikub table's racks, typed once the game is over: this scores the game.

    Each rack is parsed token by token; a token that is not a tile is refused naming the
    player and the token, and nothing is recorded."""
    referee = table.referee(game_id)
    racks: dict[str, list[str]] = {}
    for player, tiles in body.racks.items():
        try:
            racks[player] = parse_cards(referee.adapter.deck, tiles, check_box=False)
        except NotationError as exc:
            raise RefereeError(f"{player}'s rack: {exc}") from None
    referee.apply(Event.of("racks", racks=racks), source="dashboard")
    return referee.snapshot()


@router.post("/{game_id}/undo", dependencies=[Authorized])
def undo(game_id: Id, table: TableDep) -> dict[str, Any]:
    referee = table.referee(game_id)
    undone = referee.undo(source="dashboard")
    return {"undone": undone.to_json(), "game": referee.snapshot()}


@router.post("/{game_id}/corrections", dependencies=[Authorized])
def correct(game_id: Id, body: CorrectionIn, table: TableDep) -> dict[str, Any]:
    referee = table.referee(game_id)
    referee.correct(body.object_id, body.label)
    return referee.snapshot()


@router.get("/{game_id}/objects/{object_id}/suggestions")
def suggestions(game_id: Id, object_id: ObjectId, table: TableDep) -> list[str]:
    """Every legal label for a correction, the recogniser's own guesses first."""
    return table.referee(game_id).suggestions(object_id)


@router.post("/{game_id}/triggers", dependencies=[Authorized])
def trigger(game_id: Id, body: TriggerIn, table: TableDep) -> dict[str, Any]:
    """A moment the rules look at the table: ``done`` (Rummikub), ``showdown``, ``hu``..."""
    referee = table.referee(game_id)
    referee.trigger(body.name, body.data)
    return referee.snapshot()


@router.post("/{game_id}/timer", dependencies=[Authorized])
def timer(game_id: Id, body: TimerIn, table: TableDep) -> dict[str, Any]:
    return table.referee(game_id).timer_control(body.action, body.seconds)


@router.post("/{game_id}/end", dependencies=[Authorized])
def end(game_id: Id, body: EndIn, table: TableDep) -> dict[str, Any]:
    """Abandon a running game (a finished game ends by itself)."""
    referee = table.referee(game_id)
    referee.abandon()
    return view(table, game_id)
