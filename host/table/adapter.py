"""Per-game adapters: from what lies on the table to the game's facts and engine events.

The referee core is the same for every game; an adapter knows one game's table: which deck the
labels come from, how objects form the game's facts (sets in rows, hands by seat zone, the
display, the discard pile), which reads the previous state makes impossible, and which
engine events a trigger (the done button, a showdown, a hu) or a change on the table means.
Adapters are pure: they read a state and a view and return facts, flags and events.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib import import_module
from typing import Any

from host.rules.base import Event
from host.rules.notation import BOX
from host.table.stable import TableObject, TableView
from host.table.zones import CENTRE, CENTRE_BOX, CalibratedLayout, Layout, SectorLayout
from vision.calibrate import TableCalibration

Facts = dict[str, Any]


class NeedsInput(ValueError):
    """A trigger that cannot be turned into events yet: the message says what is missing."""


class TableAdapter:
    """The default: facts by zone, no events from the camera (everything entered by hand)."""

    game = "generic"
    deck = "standard"
    timer_seconds = 0  # seconds of a turn timer, 0 for none
    triggers: tuple[str, ...] = ()  # what the dashboard offers as buttons
    centre_box = CENTRE_BOX  # the shared area in the middle (fractions x0, y0, x1, y1)
    # On a calibrated table: the zone names that may hold the shared area, most specific
    # first (the first the calibration has is used), and whether each seat needs a hand zone.
    shared_zones: tuple[str, ...] = (CENTRE,)
    seat_zones = True

    def __init__(self, players: Sequence[str], options: dict[str, Any] | None = None) -> None:
        self.players = list(players)
        self.options = dict(options or {})
        self.layout: Layout = SectorLayout(self.players, self.centre_box)

    def use_table(self, calibration: TableCalibration | None) -> None:
        """Place objects by this table calibration's zones (``None``: the image sectors).
        Raises :class:`~host.table.zones.LayoutError` naming any zone the game lacks."""
        if calibration is None:
            self.layout = SectorLayout(self.players, self.centre_box)
            return
        self.layout = CalibratedLayout(
            calibration,
            self.players,
            game=self.game,
            shared=self.shared_zones,
            seats=self.seat_zones,
        )

    def setup(self, rng: random.Random) -> Event:
        """The ``setup`` event that starts this game for these players.

        Engines take their options nested under ``options``; games that deal from a shuffled
        box override this to record the order drawn from ``rng`` (the engine never shuffles).
        """
        return self.table_setup()

    def table_setup(self) -> Event:
        """The ``setup`` for a real table, where nobody knows the shuffled order: no deck.

        Every engine takes such a setup as its table mode (cards and tiles as they are seen
        or entered by hand); games that never need a deck use it for both.
        """
        data: dict[str, Any] = {"players": self.players}
        if self.options:
            data["options"] = self.options
        return Event.of("setup", game=self.game, **data)

    def shuffled_box(self, rng: random.Random) -> list[str]:
        cards = [token for token, n in BOX[self.deck].items() for _ in range(n)]
        rng.shuffle(cards)
        return cards

    def facts(self, view: TableView) -> Facts:
        zones = self.layout.by_zone(view)
        return {zone: [o.label for o in objs] for zone, objs in zones.items()}

    def impossible(self, state: Any, view: TableView) -> dict[int, str]:
        """Object id → why the previous state rules this read out."""
        return {}

    def watch(self, state: Any, facts: Facts, previous: Facts | None) -> list[Event]:
        """Events a change of the stable table means by itself (no button pressed)."""
        return []

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        """Events for a named trigger (``done``, ``time_up``, ``showdown``, ``hu``...)."""
        raise NeedsInput(f"{self.game}: '{name}' is not something the table can tell")

    def turn(self, state: Any) -> str | None:
        """Whose turn it is, for the device and the dashboard."""
        for name in ("turn", "current", "player", "to_play"):
            value = getattr(state, name, None)
            if isinstance(value, str):
                return value
            if isinstance(value, int) and 0 <= value < len(self.players):
                return self.players[value]
        return None

    def trigger_objects(self, facts: Facts, name: str) -> list[int]:
        """Object ids a trigger's events were read from (a correction of one re-runs it)."""
        return []


def objects_labels(objects: Sequence[TableObject]) -> list[str]:
    return [o.label for o in objects]


ADAPTERS = {
    "allin": "host.table.allin",
    "rummikub": "host.table.rummikub",
    "fourcolor": "host.table.fourcolor",
    "cactus": "host.table.cactus",
}


def adapter_for(
    game: str,
    players: Sequence[str],
    options: dict[str, Any] | None = None,
    table: TableCalibration | None = None,
) -> TableAdapter:
    """The game's adapter; games without one get the manual-entry default. With ``table``,
    objects are placed by that calibration's zones (see :meth:`TableAdapter.use_table`)."""
    module_name = ADAPTERS.get(game)
    if module_name is None:
        adapter = TableAdapter(players, options)
        adapter.game = game
    else:
        cls: type[TableAdapter] = import_module(module_name).ADAPTER
        adapter = cls(players, options)
    adapter.use_table(table)
    return adapter
