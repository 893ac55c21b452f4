"""Four Color Cards at the table: the points, kept from what the camera sees at each hu.

Hands are hidden during play, so the table keeps results only (the engine's log without a
deck): when a player calls hu they lay their cards open in their seat zone, the concealed
hand in one row and each exposed meld as its own group, and the winning card lies in the
middle (the discard just claimed, or the card they turned over themselves). The row farthest
from the middle is the hand; every other group in the zone is a meld. The ``hu``
trigger (dashboard) names the winner and whether the card was their own draw; the camera
gives the cards. ``drawn`` records a drawn hand (naming who dealt last), ``deal`` the next.
"""

from __future__ import annotations

from typing import Any

from host.rules.base import Event
from host.table.adapter import Facts, NeedsInput, TableAdapter
from host.table.stable import TableObject, TableView
from host.table.zones import CENTRE, rows_of_sets


class FourColorAdapter(TableAdapter):
    game = "fourcolor"
    deck = "fourcolor"
    triggers = ("hu", "drawn", "deal")
    # Only the winning card lies in the middle: the seats reach further in, so a winner's
    # melds fit between their hand and the middle.
    centre_box = (0.35, 0.35, 0.65, 0.65)

    # On a calibrated table the winning card lies in the centre zone (or a discard zone).
    shared_zones = (CENTRE, "discard")

    def facts(self, view: TableView) -> Facts:
        zones = self.layout.by_zone(view)
        centre = sorted(zones.pop(CENTRE), key=lambda o: o.id)  # newest last
        seats: dict[str, dict[str, Any]] = {}
        for player, objs in zones.items():
            # Seen from the player's chair: a side seat's rows run along its edge of the table,
            # so rows are found with the table turned until that edge is at the bottom.
            seen = self.layout.seat_view(player, objs, view.width, view.height)
            turned = {id(o): t for o, t in zip(objs, seen, strict=True)}
            rows = rows_of_sets(seen)
            by_turned = {id(turned[id(o)]): o for o in objs}
            groups = [[by_turned[id(t)] for t in group] for group in rows]
            if not groups:
                seats[player] = {"hand": [], "exposed": []}
                continue

            def reach(group: list[TableObject], turned: dict[int, TableObject] = turned) -> float:
                return sum(turned[id(o)].read.center[1] for o in group) / len(group)

            # The concealed hand lies in one row nearest the player; melds nearer the middle.
            hand = max(groups, key=reach)
            seats[player] = {
                "hand": [o.label for o in hand],
                "exposed": [[o.label for o in g] for g in groups if g is not hand],
            }
        return {"centre": [o.label for o in centre], "seats": seats}

    def turn(self, state: Any) -> str | None:
        return None  # a results-only log follows no turns

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        if name == "hu":
            player = data.get("player")
            if player not in self.players:
                raise NeedsInput(f"hu: name the winner, one of {', '.join(self.players)}")
            win_from = data.get("win_from", "other")
            seat = facts.get("seats", {}).get(player) or {}
            hand, exposed = seat.get("hand") or [], seat.get("exposed") or []
            if not hand:
                raise NeedsInput(f"hu: no cards are read in {player}'s zone")
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
