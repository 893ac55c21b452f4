"""All In at the table: the display fills up, predictions, and the showdown by seat zone.

The camera watches the display (the middle of the table). A card there that the game's
display does not hold yet is the turn of the player on turn: the deck's top card is a
``pass``, the top two an ``all_in``, a card from the player's hand a ``play`` (its effects,
when it has any to choose, come from the dashboard's ``play`` trigger). When the display is
full the engine opens the prediction phase; predictions come from the dashboard or the
device (``predict`` with the target). At the showdown each player's cards lie open in their
seat zone: a card there that the game says is in another place is flagged for correction.
``deal`` starts the next round with a fresh shuffle (drawn here, recorded in the event).

On a real table (the engine's table mode, nobody knows the deck) the play is not followed:
at each round's end the ``showdown`` trigger takes the predictions (and any runes gained from
rune effects) from the dashboard and each player's five cards from their seat zone.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from host.rules.base import Event
from host.table.adapter import Facts, NeedsInput, TableAdapter
from host.table.stable import TableView
from host.table.zones import CENTRE


class AllInAdapter(TableAdapter):
    game = "allin"
    deck = "allin"
    triggers = ("predict", "play", "pass", "all_in", "deal", "showdown")
    shared_zones = ("allin_display", "display", CENTRE)

    def setup(self, rng: random.Random) -> Event:
        data: dict[str, Any] = {"players": self.players, "deck": self.shuffled_box(rng)}
        if self.options:
            data["options"] = self.options
        return Event.of("setup", game=self.game, **data)

    def facts(self, view: TableView) -> Facts:
        zones = self.layout.by_zone(view)
        display = sorted(
            zones.pop(CENTRE), key=lambda o: (round(o.read.center[1] / 60), o.read.center[0])
        )
        return {
            "display": [o.label for o in display],
            "hands": {p: [o.label for o in objs] for p, objs in zones.items()},
        }

    def turn(self, state: Any) -> str | None:
        if state.finished or state.table_mode:  # a real table's turns are not followed
            return None
        return str(state.players[state.turn])

    def impossible(self, state: Any, view: TableView) -> dict[int, str]:
        """At the showdown, a card in a seat zone must be in that player's hand."""
        if state.phase not in ("deal", "over") or not state.results:
            return {}
        shown = state.results[-1]
        flags = {}
        zones = self.layout.by_zone(view)
        for i, player in enumerate(self.players):
            hand = set(shown.hands[i]) if i < len(shown.hands) else set()
            for obj in zones.get(player, []):
                if obj.label not in hand:
                    flags[obj.id] = f"{obj.label} is not in {player}'s hand this round"
        return flags

    def watch(self, state: Any, facts: Facts, previous: Facts | None) -> list[Event]:
        if state.phase != "play":
            return []
        new: list[str] = list(
            (Counter(facts.get("display", [])) - Counter(c for c in state.display if c)).elements()
        )
        if not new:
            return []
        player = state.players[state.turn]
        if Counter(new) == Counter(state.deck[:1]):
            return [Event.of("pass", player=player)]
        if Counter(new) == Counter(state.deck[:2]):
            return [Event.of("all_in", player=player)]
        if len(new) == 1 and new[0] in state.hands[state.turn]:
            return [Event.of("play", player=player, card=new[0], effects=[], discard=[])]
        raise NeedsInput(f"the display gained {' '.join(new)}: enter {player}'s turn by hand")

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        if name == "showdown":
            return [self._showdown(facts, data)]
        player = state.players[state.turn]
        if name == "predict":
            return [
                Event.of("predict", player=data.get("player", player), target=data.get("target"))
            ]
        if name == "play":
            effects, discard = data.get("effects", []), data.get("discard", [])
            card = data.get("card")
            return [Event.of("play", player=player, card=card, effects=effects, discard=discard)]
        if name in ("pass", "all_in"):
            return [Event.of(name, player=player)]
        if name == "deal":
            rng = random.Random(data.get("seed"))
            return [Event.of("deal", deck=self.shuffled_box(rng))]
        raise NeedsInput(
            f"All In: no trigger {name!r} (predict, play, pass, all_in, deal, showdown)"
        )

    def _showdown(self, facts: Facts, data: dict[str, Any]) -> Event:
        """Table mode's round: hands from the seat zones (or entered), predictions entered."""
        read = facts.get("hands") or {}
        hands = data.get("hands") or {p: read.get(p, []) for p in self.players}
        short = [p for p in self.players if len(hands.get(p) or []) != 5]
        if short:
            raise NeedsInput(f"showdown: lay 5 cards open in the zone of {', '.join(short)}")
        predictions = data.get("predictions")
        if not isinstance(predictions, dict) or set(predictions) != set(self.players):
            raise NeedsInput(f"showdown: enter each prediction ({', '.join(self.players)})")
        event: dict[str, Any] = {"hands": hands, "predictions": predictions}
        if data.get("runes"):
            event["runes"] = data["runes"]
        return Event.of("showdown", **event)


ADAPTER = AllInAdapter
