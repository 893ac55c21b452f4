"""Table calibrations from the dashboard: the four table corners clicked on the camera frame
(issue 7: "or four corners clicked on the dashboard"), stored as ``tableref calibrate`` stores
them, per table, in the data directory; zones already defined for the table are kept."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request, status
from pydantic import BaseModel, Field

from host.api.deps import Authorized
from host.api.models import ERRORS
from host.store import NotFound

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=ERRORS)

TableName = Annotated[str, Path(min_length=1, max_length=64)]
Corner = Annotated[list[float], Field(min_length=2, max_length=2)]


class CornersIn(BaseModel):
    corners: Annotated[
        list[Corner],
        Field(
            min_length=4,
            max_length=4,
            description="The table corners in image pixels: top-left, top-right, bottom-right, "
            "bottom-left (as the camera sees the table).",
        ),
    ]
    width_mm: float = Field(gt=0, le=10_000, description="Top-left to top-right corner (mm).")
    height_mm: float = Field(gt=0, le=10_000, description="Top-left to bottom-left corner (mm).")
    image_size: Annotated[list[int], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="(width, height) of the frame the corners were clicked on."
    )
    seats: int | None = Field(
        default=None,
        ge=2,
        le=6,
        description="Replace the zones with a hand area per seat along the edges (seat1 at the "
        "camera's bottom edge, then clockwise) and a centre; omitted: the zones are kept.",
    )


def _root(request: Request) -> Any:
    return request.app.state.settings.data_dir


@router.get("")
def list_tables(request: Request) -> dict[str, list[str]]:
    from vision import calibrate

    return {"tables": calibrate.list_tables(_root(request))}


@router.get("/{name}")
def show(name: TableName, request: Request) -> dict[str, Any]:
    from vision import calibrate

    try:
        exists = calibrate.table_path(name, _root(request)).is_file()
        calibration = calibrate.load(name, _root(request)) if exists else None
    except ValueError as exc:  # a bad table name, an unusable calibration file
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    if calibration is None:
        raise NotFound(f"no calibration for table {name!r}: click its corners on the dashboard")
    return calibration.to_json()


@router.put("/{name}", dependencies=[Authorized])
def calibrate_from_corners(name: TableName, body: CornersIn, request: Request) -> dict[str, Any]:
    """Calibrate the table from four corners clicked on the frame; its zones are kept, or
    replaced by a hand area per seat and a centre (``seats``). Running games placing objects by
    this table adopt the new calibration (``games``: id → "ok" or why not: a game keeps its
    own calibration when the new one lacks a zone it needs)."""
    from vision import calibrate

    root = _root(request)
    size = (body.image_size[0], body.image_size[1]) if body.image_size else None
    try:
        if body.seats is not None:
            zones = calibrate.default_zones(body.seats)
        elif name in calibrate.list_tables(root):
            zones = calibrate.load(name, root).zones
        else:
            zones = ()
        c = calibrate.from_corners(
            name, body.corners, body.width_mm, body.height_mm, image_size=size, zones=zones
        )
        path = calibrate.save(c, root)
    except ValueError as exc:  # CalibrationError included: corners out of order, a bad name
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    games = request.app.state.table.recalibrated(c)
    return {**c.to_json(), "path": str(path), "games": {str(k): v for k, v in games.items()}}
