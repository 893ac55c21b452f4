"""Sessions (a game night): create, list, export, import, and start games in them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Response, status

from host.api.deps import Authorized, Id, StoreDep, TableDep
from host.api.models import ERRORS, GameIn, SessionIn
from host.referee import replay_summary
from host.store import ExportFile, SessionRow

router = APIRouter(prefix="/api/sessions", tags=["sessions"], responses=ERRORS)


def _session(s: SessionRow) -> dict[str, Any]:
    return {"id": s.id, "name": s.name, "created": s.created, "players": list(s.players)}


@router.get("")
def list_sessions(store: StoreDep) -> list[dict[str, Any]]:
    return [_session(s) for s in store.sessions()]


@router.post("", status_code=status.HTTP_201_CREATED, dependencies=[Authorized])
def create_session(body: SessionIn, store: StoreDep) -> dict[str, Any]:
    return _session(store.session(store.create_session(body.name, body.players)))


@router.get("/{session_id}")
def get_session(session_id: Id, store: StoreDep) -> dict[str, Any]:
    out = _session(store.session(session_id))
    out["games"] = [
        {"id": g.id, "game": g.game, "status": g.status, "summary": g.summary}
        for g in store.games(session_id)
    ]
    return out


@router.get("/{session_id}/export", response_model=None)
def export_session(
    session_id: Id,
    store: StoreDep,
    format: Annotated[Literal["json", "csv"], Query()] = "json",
    what: Annotated[Literal["events", "scores"], Query()] = "events",
) -> dict[str, Any] | Response:
    """The whole session as JSON (re-importable), or CSV (events, or scores per player)."""
    if format == "json":
        return store.export_session(session_id)
    return Response(
        store.export_csv(session_id, what),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="session-{session_id}-{what}.csv"'},
    )


@router.post("/import", status_code=status.HTTP_201_CREATED, dependencies=[Authorized])
def import_session(document: Annotated[ExportFile, Body()], store: StoreDep) -> dict[str, Any]:
    """Import an export as a new session; every game's log is replayed and must be legal."""
    sid = store.import_session(document.model_dump(mode="json"), validate=replay_summary)
    return _session(store.session(sid))


@router.post("/{session_id}/games", status_code=status.HTTP_201_CREATED, dependencies=[Authorized])
def start_game(session_id: Id, body: GameIn, table: TableDep) -> dict[str, Any]:
    return table.start_game(
        session_id, body.game, body.options, real_table=body.real_table, table=body.table
    ).snapshot()
