"""Live views: the WebSocket push and the current camera frame with the recognised overlay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response, WebSocket

from host.api.deps import TableDep
from host.api.models import ERRORS
from host.referee import NothingThere, RefereeError

router = APIRouter(tags=["live"], responses=ERRORS)


@router.websocket("/api/ws")
async def push(ws: WebSocket) -> None:
    """Sends ``{"kind", "sent", "snapshot"}`` on every change of the active game."""
    await ws.accept()
    table = ws.app.state.table
    try:
        first = table.referee().snapshot()
    except RefereeError:
        first = None
    await ws.app.state.hub.serve(ws, first)


@router.get(
    "/api/frame.jpg",
    response_class=Response,
    responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "no frame yet"}},
)
def frame(
    table: TableDep, overlay: Annotated[bool, Query()] = True, game_id: int | None = None
) -> Response:
    """The latest camera frame of the game, with every object's quad and label drawn."""
    referee = table.referee(game_id)
    if referee.frame is None:
        raise NothingThere("no camera frame yet: this table is fed by hand or has no camera")
    image: Any = referee.frame
    if overlay:
        image = draw_overlay(image, referee.snapshot()["table"]["objects"])
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise RefereeError("could not encode the frame")
    return Response(data.tobytes(), media_type="image/jpeg")


def draw_overlay(image: Any, objects: list[dict[str, Any]]) -> Any:
    import cv2
    import numpy as np

    out = image.copy()
    for obj in objects:
        quad = np.array(obj["quad"], dtype=np.int32).reshape(-1, 1, 2)
        # Flagged reads in red, corrected ones in blue, the rest green (labels say it too).
        colour = (
            (0, 0, 255) if obj.get("flag") else (255, 128, 0) if obj["corrected"] else (0, 200, 0)
        )
        cv2.polylines(out, [quad], True, colour, 2)
        x, y = int(quad[:, 0, 0].min()), int(quad[:, 0, 1].min()) - 4
        text = obj["label"] + ("?" if obj.get("flag") else "")
        cv2.putText(out, text, (x, max(y, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)
    return out
