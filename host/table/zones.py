"""Where things lie: seat zones around the table and rows of tiles in the middle.

Coordinates are image pixels; zones are defined in table fractions (0..1) so one layout fits
any camera resolution. The default layout puts the shared area (the All In display, the Cactus
discard pile, the Rummikub table) in the centre and one seat sector per player around it,
seat 0 nearest the camera's bottom edge, the others clockwise as seen from above.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from host.table.stable import TableObject

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
