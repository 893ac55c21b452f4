"""Where things lie: seat zones around the table and rows of tiles in the middle.

Two layouts place objects into zones (a seated player's hand area, or the shared ``centre``):

- :class:`SectorLayout`, the default when no table calibration is chosen: image coordinates,
  a centre box in image fractions (0..1) so one layout fits any camera resolution, and one
  seat sector per player around it, seat 0 nearest the camera's bottom edge, the others
  clockwise as seen from above.
- :class:`CalibratedLayout`, for a table calibrated with ``tableref calibrate``: each object's
  centre is taken to table millimetres by the stored homography and placed in the calibrated
  zones there (``seat1``.. or a zone named after the player for each seated player's hand, the
  game's shared zone for the centre). An object in none of them lies nowhere that counts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from host.table.stable import TableObject, TableView
from vision.calibrate import OFF_TABLE, CalibrationError, TableCalibration, Zone

CENTRE = "centre"
CENTRE_BOX = (0.25, 0.25, 0.75, 0.75)  # x0, y0, x1, y1 as fractions of the image


Box = tuple[float, float, float, float]


def zone_of(
    obj: TableObject, players: Sequence[str], width: int, height: int, centre: Box = CENTRE_BOX
) -> str:
    """The zone an object lies in: ``"centre"`` (inside the ``centre`` box) or the name of
    the seated player."""
    cx, cy = obj.read.center
    fx, fy = cx / width, cy / height
    x0, y0, x1, y1 = centre
    if not players or (x0 <= fx <= x1 and y0 <= fy <= y1):
        return CENTRE
    # Angle from the table centre, 0 at the bottom edge (seat 0), growing clockwise on screen
    # (image y points down, so "clockwise" here is clockwise as seen from above).
    angle = math.degrees(math.atan2(-(fx - 0.5), fy - 0.5)) % 360
    sector = 360 / len(players)
    return players[int(((angle + sector / 2) % 360) // sector)]


def by_zone(
    objects: Sequence[TableObject],
    players: Sequence[str],
    width: int,
    height: int,
    centre: Box = CENTRE_BOX,
) -> dict[str, list[TableObject]]:
    """Objects grouped by zone, each group left to right."""
    zones: dict[str, list[TableObject]] = {CENTRE: [], **{p: [] for p in players}}
    for obj in objects:
        zones[zone_of(obj, players, width, height, centre)].append(obj)
    for group in zones.values():
        group.sort(key=lambda o: o.read.center[0])
    return zones


def rows_of_sets(objects: Sequence[TableObject]) -> list[list[TableObject]]:
    """Group tiles into sets: rows by height, then runs of touching tiles within a row.

    Used when vision gives no ``sets``: tiles of one set lie side by side, sets on a row are
    separated by a gap wider than half a tile.
    """
    if not objects:
        return []
    ordered = sorted(objects, key=lambda o: o.read.center[1])
    rows: list[list[TableObject]] = [[ordered[0]]]
    for obj in ordered[1:]:
        last = rows[-1]
        row_y = sum(o.read.center[1] for o in last) / len(last)
        if abs(obj.read.center[1] - row_y) <= 0.5 * obj.read.height:
            last.append(obj)
        else:
            rows.append([obj])
    sets: list[list[TableObject]] = []
    for row in rows:
        row.sort(key=lambda o: o.read.center[0])
        current = [row[0]]
        for prev, obj in itertools.pairwise(row):
            gap = (obj.read.center[0] - obj.read.width / 2) - (
                prev.read.center[0] + prev.read.width / 2
            )
            if gap > 0.5 * obj.read.width:
                sets.append(current)
                current = []
            current.append(obj)
        sets.append(current)
    return sets


class LayoutError(ValueError):
    """A table calibration that cannot place this game's objects; the message says what is
    missing and how to add it."""


class SectorLayout:
    """The default: image-fraction seat sectors around a centre box (no calibration)."""

    table: str | None = None

    def __init__(self, players: Sequence[str], centre: Box = CENTRE_BOX) -> None:
        self.players = list(players)
        self.centre = centre

    def zone_of(self, obj: TableObject, width: int, height: int) -> str | None:
        return zone_of(obj, self.players, width, height, self.centre)

    def by_zone(self, view: TableView) -> dict[str, list[TableObject]]:
        return by_zone(view.objects, self.players, view.width, view.height, self.centre)

    def seat_view(
        self, player: str, objects: Sequence[TableObject], width: int, height: int
    ) -> list[TableObject]:
        """The objects as seen from the player's chair: the table turned until their edge is
        at the bottom (image coordinates)."""
        degrees = self.players.index(player) * 360 / len(self.players)
        return [turned(o, degrees, width / 2, height / 2) for o in objects]

    def on_table(
        self, objects: Sequence[TableObject], width: int, height: int
    ) -> list[TableObject]:
        """The objects that lie on the table, in the coordinates rows are found in."""
        return list(objects)

    def place(self, obj: TableObject, width: int, height: int) -> dict[str, Any]:
        return {"zone": self.zone_of(obj, width, height)}

    def describe(self) -> dict[str, Any]:
        return {"table": None, "layout": "sectors", "centre_box": list(self.centre)}

    def outlines(self, width: int, height: int) -> dict[str, list[list[float]]]:
        """Zone outlines in image pixels for the dashboard: the centre box (seat sectors are
        wedges reaching the image's edges, drawn by nothing)."""
        x0, y0, x1, y1 = self.centre
        box = [[x0 * width, y0 * height], [x1 * width, y0 * height], [x1 * width, y1 * height],
               [x0 * width, y1 * height]]  # fmt: skip
        return {CENTRE: box}


class CalibratedLayout:
    """Zones of a calibrated table, in table millimetres (see the module docstring)."""

    def __init__(
        self,
        calibration: TableCalibration,
        players: Sequence[str],
        *,
        game: str,
        shared: Sequence[str] = (CENTRE,),
        seats: bool = True,
    ) -> None:
        self.calibration = calibration
        self.table: str | None = calibration.name
        self.players = list(players)
        zones = {z.name: z for z in calibration.zones}
        missing: list[str] = []
        self.seat_zones: dict[str, Zone] = {}
        if seats:
            for i, player in enumerate(self.players):
                zone = zones.get(player) or zones.get(f"seat{i + 1}")
                if zone is None:
                    missing.append(f"seat{i + 1} or {player} ({player}'s hand)")
                else:
                    self.seat_zones[player] = zone
        self.shared: Zone | None = next((zones[n] for n in shared if n in zones), None)
        if shared and self.shared is None:
            missing.append(f"the shared area ({' or '.join(shared)})")
        if missing:
            have = ", ".join(zones) or "none"
            raise LayoutError(
                f"table {calibration.name!r} lacks zones this {game} game needs: "
                f"{'; '.join(missing)} (its zones: {have}). Add each with `tableref calibrate "
                f"zone NAME X0 Y0 X1 Y1 --table {calibration.name}`, or lay out fresh seat "
                f"areas and a centre with `tableref calibrate table IMAGE --seats "
                f"{min(max(len(self.players), 2), 6)} --table {calibration.name} ...`"
            )
        # The smallest zone wins where zones overlap (a discard pile inside the centre).
        owners = [(z, p) for p, z in self.seat_zones.items()]
        if self.shared is not None:
            owners.append((self.shared, CENTRE))
        self._owners = sorted(owners, key=lambda zp: zp[0].area)
        self._frames: dict[tuple[int, int], TableCalibration] = {}

    def frame(self, width: int, height: int) -> TableCalibration:
        """The calibration for frames of this size (raises :class:`LayoutError` when the
        camera's frames have another aspect ratio than the calibration's)."""
        key = (width, height)
        if key not in self._frames:
            try:
                self._frames[key] = self.calibration.for_frame(width, height)
            except CalibrationError as exc:
                raise LayoutError(str(exc)) from exc
        return self._frames[key]

    def _relative(self, obj: TableObject, width: int, height: int) -> tuple[float, float]:
        """The object's centre in relative table coordinates."""
        return self.calibration.relative(self.frame(width, height).centre_mm(obj.read.quad))

    def zone_of(self, obj: TableObject, width: int, height: int) -> str | None:
        rel = self._relative(obj, width, height)
        return next((owner for zone, owner in self._owners if zone.contains(rel)), None)

    def by_zone(self, view: TableView) -> dict[str, list[TableObject]]:
        zones: dict[str, list[TableObject]] = {CENTRE: [], **{p: [] for p in self.seat_zones}}
        for obj in view.objects:
            zone = self.zone_of(obj, view.width, view.height)
            if zone is not None:
                zones[zone].append(obj)
        for group in zones.values():
            group.sort(key=lambda o: o.read.center[0])
        return zones

    def rectified(self, obj: TableObject, width: int, height: int) -> TableObject:
        """The object with its quad in table millimetres (the table seen square from above)."""
        quad_mm = self.frame(width, height).to_table(obj.read.quad)
        quad = tuple((float(x), float(y)) for x, y in quad_mm)
        return replace(obj, read=obj.read.model_copy(update={"quad": quad}))

    def seat_view(
        self, player: str, objects: Sequence[TableObject], width: int, height: int
    ) -> list[TableObject]:
        """The objects in table millimetres, turned about the table's middle until the
        player's hand area lies at the bottom edge."""
        c = self.calibration
        cx, cy = c.width_mm / 2, c.height_mm / 2
        poly = self.seat_zones[player].polygon
        zx = sum(p[0] for p in poly) / len(poly) * c.width_mm - cx
        zy = sum(p[1] for p in poly) / len(poly) * c.height_mm - cy
        degrees = math.degrees(math.atan2(-zx, zy)) % 360
        return [turned(self.rectified(o, width, height), degrees, cx, cy) for o in objects]

    def on_table(
        self, objects: Sequence[TableObject], width: int, height: int
    ) -> list[TableObject]:
        """The objects whose centre lies within the table's four corners, in millimetres."""
        out = []
        for obj in objects:
            x, y = self._relative(obj, width, height)
            if 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0:
                out.append(self.rectified(obj, width, height))
        return out

    def place(self, obj: TableObject, width: int, height: int) -> dict[str, Any]:
        located = self.frame(width, height).locate([list(p) for p in obj.read.quad])
        zone = located["zone"] if located["zone"] == OFF_TABLE else self.zone_of(obj, width, height)
        return {"zone": zone, "table_zone": located["zone"], "centre_mm": located["centre_mm"]}

    def outlines(self, width: int, height: int) -> dict[str, list[list[float]]]:
        """Each used zone's outline in image pixels (owner → polygon), for the dashboard."""
        c = self.frame(width, height)
        used = [(p, z) for p, z in self.seat_zones.items()]
        if self.shared is not None:
            used.append((CENTRE, self.shared))
        out = {}
        for owner, zone in used:
            mm = [(x * c.width_mm, y * c.height_mm) for x, y in zone.polygon]
            out[owner] = [[round(float(x), 1), round(float(y), 1)] for x, y in c.to_image(mm)]
        return out

    def describe(self) -> dict[str, Any]:
        c = self.calibration
        return {
            "table": c.name,
            "layout": "calibrated",
            "method": c.method,
            "width_mm": c.width_mm,
            "height_mm": c.height_mm,
            "zones": {
                **{p: z.name for p, z in self.seat_zones.items()},
                **({CENTRE: self.shared.name} if self.shared is not None else {}),
            },
        }


Layout = SectorLayout | CalibratedLayout


def turned(obj: TableObject, degrees: float, cx: float, cy: float) -> TableObject:
    """The object as seen with the table turned by ``-degrees`` about (cx, cy) (a seat at
    ``degrees`` clockwise from the bottom edge then sits at the bottom)."""
    a = math.radians(-degrees)
    cos, sin = math.cos(a), math.sin(a)
    quad = tuple(
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
        for x, y in obj.read.quad
    )
    return replace(obj, read=obj.read.model_copy(update={"quad": quad}))
