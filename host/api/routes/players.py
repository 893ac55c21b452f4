"""Players and each player's history across games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, status

from host.api.deps import Authorized, StoreDep
from host.api.models import ERRORS, PlayerIn
from host.store import NotFound

router = APIRouter(prefix="/api/players", tags=["players"], responses=ERRORS)


@router.get("")
def list_players(store: StoreDep) -> list[dict[str, Any]]:
    return [{"id": p.id, "name": p.name} for p in store.players()]


@router.post("", status_code=status.HTTP_201_CREATED, dependencies=[Authorized])
def add_player(body: PlayerIn, store: StoreDep) -> dict[str, Any]:
    player = store.add_player(body.name)
    return {"id": player.id, "name": player.name}


@router.get("/{name}/history")
def history(name: str, store: StoreDep) -> dict[str, Any]:
    """Every game the player sat at: its score there, the result, and the session."""
    if name not in {p.name for p in store.players()}:
        raise NotFound(f"no player {name!r}")
    games = []
    for session in store.sessions():
        if name not in session.players:
            continue
        for g in store.games(session.id):
            summary = g.summary or {}
            winner = summary.get("winner")
            winners = winner if isinstance(winner, list) else [winner]
            games.append(
                {
                    "session_id": session.id,
                    "session": session.name,
                    "game_id": g.id,
                    "game": g.game,
                    "status": g.status,
                    "created": g.created,
                    "score": (summary.get("scores") or {}).get(name),
                    "won": name in winners,
                }
            )
    return {"player": name, "games": games}
