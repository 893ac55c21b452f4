"""Four Color Cards at the table: the points, kept from what the camera sees at each hu.

Hands are hidden during play, so the table keeps results only (the engine's log without a
deck): when a player calls hu they lay their cards open in their seat zone, the concealed
hand in one row and each exposed meld as its own group, and the winning card lies in the
middle (the discard just claimed, or the card they turned over themselves). The ``hu``
trigger (dashboard) names the winner and whether the card was their own draw; the camera
gives the cards. ``drawn`` records a drawn hand (naming who dealt last), ``deal`` the next.
"""

from __future__ import annotations

from typing import Any

from host.rules.base import Event
from host.table.adapter import Facts, NeedsInput, TableAdapter
from host.table.stable import TableView
from host.table.zones import CENTRE, by_zone, rows_of_sets


class FourColorAdapter(TableAdapter):
    game = "fourcolor"
    deck = "fourcolor"
    triggers = ("hu", "drawn", "deal")

    def facts(self, view: TableView) -> Facts:
        zones = by_zone(view.objects, self.players, view.width, view.height)
        centre = sorted(zones.pop(CENTRE), key=lambda o: o.id)  # newest last
        seats = {p: [[o.label for o in g] for g in rows_of_sets(objs)] for p, objs in zones.items()}
        return {"centre": [o.label for o in centre], "seats": seats}

    def turn(self, state: Any) -> str | None:
        return None  # a results-only log follows no turns

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        if name == "hu":
            player = data.get("player")
            if player not in self.players:
                raise NeedsInput(f"hu: name the winner, one of {', '.join(self.players)}")
            win_from = data.get("win_from", "other")
            groups = sorted(facts.get("seats", {}).get(player, []), key=len, reverse=True)
            if not groups:
                raise NeedsInput(f"hu: no cards are read in {player}'s zone")
            hand, exposed = groups[0], groups[1:]
            win_card = data.get("win_card") or (facts.get("centre") or [None])[-1]
            if win_card is None:
                raise NeedsInput("hu: put the winning card in the middle (or name it)")
            event: dict[str, Any] = {
                "player": player, "hand": hand, "exposed": exposed,
                "win_card": win_card, "win_from": win_from,
            }  # fmt: skip
            if data.get("flower"):
                event["flower"] = data["flower"]
            return [Event.of("hu", **event)]
        if name == "drawn":
            return [Event.of("drawn", player=data.get("player"))]
        if name == "deal":
            return [Event.of("deal")]
        raise NeedsInput(f"Four Color Cards: no trigger {name!r} (hu, drawn, deal)")


ADAPTER = FourColorAdapter
