"""The web app: REST + WebSocket + the dashboard, around one :class:`host.referee.Table`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from host.api.hub import Hub
from host.api.routes import games, live, notation, players, sessions, tables
from host.api.token import load_or_create_token
from host.device import Device, open_device
from host.referee import NothingThere, RefereeError, Table
from host.rules.base import LogError
from host.rules.notation import NotationError
from host.settings import Settings
from host.store import NotFound, Store, StoreError

STATIC = Path(__file__).parent / "static"


def build_table(settings: Settings, device: Device | None = None) -> Table:
    """The table on these settings: its store, its device, every running game resumed."""
    store = Store(settings.db_path)
    table = Table(
        store,
        device or open_device(settings.device),
        stable_frames=settings.stable_frames,
        min_confidence=settings.min_confidence,
        tables_dir=settings.data_dir,
        table=settings.table,
    )
    table.resume()
    return table


def create_app(settings: Settings | None = None, table: Table | None = None) -> FastAPI:
    settings = settings or Settings()
    table = table or build_table(settings)
    hub = Hub()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.bind(asyncio.get_running_loop())
        unsubscribe = table.subscribe(hub.publish)
        try:
            yield
        finally:
            unsubscribe()

    app = FastAPI(
        title="tableref",
        summary="The table referee: game sessions, scores, corrections, the live table.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.table = table
    app.state.hub = hub
    app.state.settings = settings
    app.state.token = load_or_create_token(settings.token_path)

    def refuse(code: int):  # type: ignore[no-untyped-def]
        async def handler(request: Request, exc: Exception) -> JSONResponse:
            return JSONResponse({"detail": str(exc)}, status_code=code)

        return handler

    # Most specific first: "not found" beats the generic refusal it subclasses.
    app.add_exception_handler(NotFound, refuse(404))
    app.add_exception_handler(NothingThere, refuse(404))
    app.add_exception_handler(StoreError, refuse(400))
    app.add_exception_handler(RefereeError, refuse(400))
    app.add_exception_handler(NotationError, refuse(400))
    app.add_exception_handler(LogError, refuse(400))

    for module in (players, sessions, games, live, notation, tables):
        app.include_router(module.router)

    @app.get("/api/health", tags=["live"])
    def health() -> dict[str, object]:
        return {"ok": True, "running": sorted(table.referees), "active": table.active}

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def dashboard() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app
