"""Rummikub with a Twist at the table: the sets on the table, the done button, the timer.

The camera sees the table's sets (vision groups tiles into sets in left-to-right order; without
that, tiles are grouped into rows and gaps here). Racks are not seen: tiles stand with their
backs to the camera, and the engine knows each rack from the recorded pool order.

- ``done`` (the device's button or the dashboard): the table as it stands is the player's
  turn. Unchanged table → the player draws; otherwise a ``play`` of the whole table, the tiles
  played being what the table gained. The engine validates every set and the turn against the
  previous table; a refusal names the wrong set and is shown on the device and the dashboard.
- ``time_up`` (the device's countdown ran out): unchanged table → draw 1; a legal table →
  it counts as the play; otherwise the table is restored and the penalty drawn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from host.rules.base import Event
from host.table.adapter import Facts, NeedsInput, TableAdapter
from host.table.stable import TableObject, TableView
from host.table.zones import rows_of_sets


class RummikubAdapter(TableAdapter):
    game = "rummikub"
    deck = "rummikub"
    triggers = ("done", "draw", "end")

    def __init__(self, players: Sequence[str], options: dict[str, Any] | None = None) -> None:
        super().__init__(players, options)
        seconds = self.options.get("timer_seconds", 60)
        self.timer_seconds = seconds if isinstance(seconds, int) else 60

    def setup(self, rng: random.Random) -> Event:
        data: dict[str, Any] = {"players": self.players, "pool": self.shuffled_box(rng)}
        if self.options:
            data["options"] = self.options
        return Event.of("setup", game=self.game, **data)

    # Sets lie anywhere on the table: a calibrated table needs no zones, but only tiles within
    # its four corners count (not a rack or the box beside it), and rows are found in
    # millimetres, the table seen square whatever the camera's tilt.
    shared_zones = ()
    seat_zones = False

    def facts(self, view: TableView) -> Facts:
        on_table = self.layout.on_table(view.objects, view.width, view.height)
        by_id = {o.id: o for o in on_table}
        groups: list[list[TableObject]]
        if view.sets is not None:
            groups = [[by_id[i] for i in s if i in by_id] for s in view.sets]
            seen = {o.id for g in groups for o in g}
            groups += rows_of_sets([o for o in on_table if o.id not in seen])
        else:
            groups = rows_of_sets(on_table)
        return {"sets": [[o.label for o in g] for g in groups if g]}

    def turn(self, state: Any) -> str | None:
        # nobody is on turn once the game is over, nor while a real table's racks are awaited
        return None if state.finished or state.awaiting_racks is not None else str(state.current)

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        player = state.current
        after = [list(s) for s in facts.get("sets", [])]
        before = [list(s) for s in state.table]
        unchanged = _same_table(before, after)
        if name == "done":
            if unchanged:
                return [Event.of("draw", player=player)]
            return [Event.of("play", player=player, table=after, tiles=_gained(before, after))]
        if name == "time_up":
            if unchanged:
                return [Event.of("time_up", player=player)]
            from host.rules.rummikub import RULES

            play = Event.of("play", player=player, table=after, tiles=_gained(before, after))
            if RULES.check(state, play) is None:
                return [play]  # finished in time after all: the table is a legal turn
            return [Event.of("time_up", player=player, table=after)]
        if name == "draw":
            return [Event.of("draw", player=player)]
        if name == "end":
            return [Event.of("end", reason="pool_empty")]
        raise NeedsInput(f"Rummikub: no trigger {name!r} (done, time_up, draw, end)")


def _same_table(before: list[list[str]], after: list[list[str]]) -> bool:
    return Counter(tuple(s) for s in before) == Counter(tuple(s) for s in after)


def _gained(before: list[list[str]], after: list[list[str]]) -> list[str]:
    gained = Counter(t for s in after for t in s) - Counter(t for s in before for t in s)
    return sorted(gained.elements())


ADAPTER = RummikubAdapter
