"""``tableref calibrate``: find the table plane, store it per table, define zones on it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import cv2
import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from host.cli.app import app
from host.cli.common import InputError, JsonOption, emit
from vision import calibrate as cal
from vision.userdata import check_name

calibrate_app = typer.Typer(
    help="Calibrate the table: its plane from corner markers (or clicked corners) and its zones.",
    no_args_is_help=True,
)
app.add_typer(calibrate_app, name="calibrate")

TableName = Annotated[str, typer.Option("--table", help="Which table (one calibration each).")]
DataDir = Annotated[
    Path | None,
    typer.Option(
        "--data-dir", help="Where calibrations live (default: $TABLEREF_DATA_DIR or user data dir)."
    ),
]


@contextmanager
def _as_input_errors() -> Iterator[None]:
    try:
        yield
    except (cal.CalibrationError, ValueError) as exc:
        raise InputError(str(exc)) from exc


def _parse_points(text: str) -> list[tuple[float, float]]:
    try:
        pts = [tuple(float(v) for v in p.split(",")) for p in text.replace(";", " ").split()]
    except ValueError as exc:
        raise InputError(f"points must be written 'x,y x,y ...', got {text!r}") from exc
    if any(len(p) != 2 for p in pts):
        raise InputError(f"points must be written 'x,y x,y ...', got {text!r}")
    return [(p[0], p[1]) for p in pts]


def _parse_corners(text: str) -> list[tuple[float, float]]:
    pts = _parse_points(text)
    if len(pts) != 4:
        raise InputError(f"need exactly 4 corners 'x,y' (TL TR BR BL), got {text!r}")
    return pts


def _summary(c: cal.TableCalibration, path: Path | None = None) -> dict[str, object]:
    out: dict[str, object] = dict(c.to_json())
    if path is not None:
        out["path"] = str(path)
    return out


def _render(c: cal.TableCalibration) -> None:
    console = Console()
    console.print(
        f"table [bold]{c.name}[/] ({c.method}): {c.width_mm:g} x {c.height_mm:g} mm, corners "
        + " ".join(f"({x:.1f},{y:.1f})" for x, y in c.image_corners)
    )
    if not c.zones:
        console.print("no zones yet: add one with `tableref calibrate zone NAME X0 Y0 X1 Y1`")
        return
    t = Table("zone", "polygon (relative table coordinates)")
    for z in c.zones:
        t.add_row(z.name, " ".join(f"({x:.2f},{y:.2f})" for x, y in z.polygon))
    console.print(t)


@calibrate_app.command("table")
def table_cmd(
    image: Annotated[Path, typer.Argument(help="A camera image of the table with its markers.")],
    width_mm: Annotated[
        float, typer.Option("--width-mm", help="Centre-to-centre distance, marker 0 to 1 (mm).")
    ],
    height_mm: Annotated[
        float, typer.Option("--height-mm", help="Centre-to-centre distance, marker 0 to 3 (mm).")
    ],
    table: TableName = "default",
    corners: Annotated[
        str | None,
        typer.Option(
            "--corners",
            help="Skip markers: the table corners in pixels, 'x,y x,y x,y x,y' (TL TR BR BL).",
        ),
    ] = None,
    seats: Annotated[
        int | None, typer.Option("--seats", help="Replace the zones with N seat hand areas.")
    ] = None,
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Find the table plane in IMAGE (markers or --corners) and store it.

    Existing zones are kept: they are relative to the table, so they survive moving the camera.
    """
    raw = cv2.imread(str(image), cv2.IMREAD_COLOR) if image.is_file() else None
    if raw is None:
        raise InputError(f"cannot read image {image}")
    frame = np.asarray(raw, np.uint8)
    with _as_input_errors():
        previous = cal.load(table, data_dir).zones if table in cal.list_tables(data_dir) else ()
        zones = cal.default_zones(seats) if seats is not None else previous
        size = (int(frame.shape[1]), int(frame.shape[0]))
        if corners is not None:
            c = cal.from_corners(
                table, _parse_corners(corners), width_mm, height_mm, image_size=size, zones=zones
            )
        else:
            c = cal.from_markers(table, frame, width_mm, height_mm, zones=zones)
        path = cal.save(c, data_dir)

    def render() -> None:
        _render(c)
        typer.echo(f"saved {path}")

    emit(_summary(c, path), as_json, render)


@calibrate_app.command("zone")
def zone_cmd(
    name: Annotated[
        str,
        typer.Argument(
            help="Zone name. The live referee uses seat1, seat2.. (or a player's name) for "
            "hands, allin_display / discard / centre for the shared area.",
        ),
    ],
    x0: Annotated[float | None, typer.Argument(help="Left edge, 0..1 across the table.")] = None,
    y0: Annotated[float | None, typer.Argument(help="Top edge, 0..1 down the table.")] = None,
    x1: Annotated[float | None, typer.Argument(help="Right edge.")] = None,
    y1: Annotated[float | None, typer.Argument(help="Bottom edge.")] = None,
    polygon: Annotated[
        str | None,
        typer.Option("--polygon", help="Instead of a rectangle: 'x,y x,y x,y ...' (0..1)."),
    ] = None,
    remove: Annotated[bool, typer.Option("--remove", help="Delete the zone.")] = False,
    table: TableName = "default",
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Add or replace a zone, or --remove it.

    A rectangle X0 Y0 X1 Y1 or a --polygon, in relative table coordinates: 0..1 across and
    down from marker 0.
    """
    with _as_input_errors():
        c = cal.load(table, data_dir)
        if remove:
            c = c.without_zone(name)
        else:
            check_name("zone", name)
            if polygon is not None:
                c = c.with_zone(cal.Zone.polygon_of(name, _parse_points(polygon)))
            elif x0 is None or y0 is None or x1 is None or y1 is None:
                raise InputError(
                    "a zone needs X0 Y0 X1 Y1 (relative, 0..1), --polygon, or --remove"
                )
            else:
                c = c.with_zone(cal.Zone.rect(name, x0, y0, x1, y1))
        cal.save(c, data_dir)
    emit(_summary(c), as_json, lambda: _render(c))


@calibrate_app.command("show")
def show_cmd(
    table: TableName = "default", data_dir: DataDir = None, as_json: JsonOption = False
) -> None:
    """Show a stored calibration and its zones."""
    with _as_input_errors():
        c = cal.load(table, data_dir)
    emit(_summary(c), as_json, lambda: _render(c))


@calibrate_app.command("locate")
def locate_cmd(
    x: Annotated[float, typer.Argument(help="Image x (px).")],
    y: Annotated[float, typer.Argument(help="Image y (px).")],
    table: TableName = "default",
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Where an image point lies on the table: millimetres and zone."""
    with _as_input_errors():
        c = cal.load(table, data_dir)
    ((mx, my),) = c.to_table([(x, y)])
    rel = c.relative((mx, my))
    on_table = 0 <= rel[0] <= 1 and 0 <= rel[1] <= 1
    result = {
        "image": [x, y],
        "table_mm": [round(float(mx), 1), round(float(my), 1)],
        "zone": c.zone_at((mx, my)) if on_table else cal.OFF_TABLE,
    }
    emit(result, as_json, lambda: typer.echo(f"{mx:.1f} mm, {my:.1f} mm: {result['zone']}"))


@calibrate_app.command("markers")
def markers_cmd(
    out: Annotated[Path, typer.Argument(help="Where to write the sheet (.png or .pdf).")],
    size_mm: Annotated[float, typer.Option("--size-mm", help="Marker side in mm.")] = 60.0,
    dpi: Annotated[int, typer.Option("--dpi")] = 300,
    as_json: JsonOption = False,
) -> None:
    """Write a printable A4 sheet with the four corner markers."""
    with _as_input_errors():
        path = cal.write_marker_sheet(out, size_mm, dpi)
    result = {"sheet": str(path), "marker_mm": size_mm, "dpi": dpi}
    emit(
        result,
        as_json,
        lambda: typer.echo(
            f"wrote {path}: print at 100%, cut out, put marker 0 at the top-left corner"
        ),
    )


@calibrate_app.command("list")
def list_cmd(data_dir: DataDir = None, as_json: JsonOption = False) -> None:
    """List the calibrated tables."""
    names = cal.list_tables(data_dir)
    emit({"tables": names}, as_json, lambda: typer.echo("\n".join(names) or "no tables yet"))


@calibrate_app.command("check")
def check_cmd(
    game: Annotated[str, typer.Argument(help="allin, rummikub, fourcolor or cactus.")],
    players: Annotated[
        str, typer.Option("--players", help="The players in seat order: 'Ann,Bob,Cleo'.")
    ],
    table: TableName = "default",
    data_dir: DataDir = None,
    as_json: JsonOption = False,
) -> None:
    """Whether the live referee can place GAME's cards by this table's zones: which zone is
    each player's hand and which the shared area, or what is missing (before game night)."""
    from host.table.adapter import ADAPTERS, adapter_for
    from host.table.zones import LayoutError

    if game not in ADAPTERS:
        raise InputError(f"unknown game {game!r}: expected one of {', '.join(ADAPTERS)}")
    names = [p.strip() for p in players.split(",") if p.strip()]
    if not names:
        raise InputError("--players needs at least one name")
    with _as_input_errors():
        c = cal.load(table, data_dir)
    try:
        adapter = adapter_for(game, names, None, c)
    except LayoutError as exc:
        raise InputError(str(exc)) from None
    result = adapter.layout.describe()

    def render() -> None:
        zones = result["zones"]
        typer.echo(f"table {c.name} can referee {game} for {', '.join(names)}:")
        for owner, zone in zones.items():
            typer.echo(f"  {owner}: zone {zone}")
        if not zones:
            typer.echo("  every object within the table's corners counts (no zones needed)")

    emit(result, as_json, render)
