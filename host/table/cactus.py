"""Cactus Game at the table: the discard pile tells what was played.

The camera watches the middle of the table. What was just played is found two ways, and both
count:

- cards on the discard pile that the game does not account for yet (its discard pile plus the
  action waiting for nopes), label by label;
- cards that arrived on the pile since the last stable look: tracked ids that were not there.
  On a real pile the older cards are mostly covered, so a second copy of a kind already
  discarded shows no surplus by count; its arrival still shows. A new id where a card of the
  same label was a moment ago is that card found again (the tracker forgets what it loses sight
  of, and gives it a new id when it comes back), and a corrected read is no play. A card laid
  squarely over the one below takes over that card's id, so it shows only by count; without an
  earlier look (start-up, a restart) only the count is used.

Together they mean:

- three characters (wilds included) → a set for the player on turn;
- ``free_point`` or ``draw_three`` → that action (nothing to choose);
- another action → its target is asked for on the dashboard (the ``play`` trigger);
- a ``nope`` on a waiting action → whose it is, when only one player can hold one; otherwise
  the dashboard's ``nope`` trigger names them.

``done`` (the device's button) resolves the waiting action, or draws a card for the player on
turn when nothing waits. The engine checks every card against the hands it dealt; on a real
table (table mode, no deck known) it counts each hand's cards instead, so a nope's player is
always named on the dashboard and a gimme's resolve says which card was given, if any.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from host.rules.base import Event
from host.rules.notation import CACTUS_CHARACTERS
from host.table.adapter import Facts, NeedsInput, TableAdapter
from host.table.stable import TableView
from host.table.zones import CENTRE

SELF_CONTAINED = ("free_point", "draw_three")


class CactusAdapter(TableAdapter):
    game = "cactus"
    deck = "cactus"
    triggers = ("done", "play", "nope", "resolve", "draw")
    # Hands are held, not laid in zones: only the discard pile is watched.
    shared_zones = ("discard", "discard_pile", CENTRE)
    seat_zones = False

    def setup(self, rng: random.Random) -> Event:
        return Event.of("setup", game=self.game, players=self.players, deck=self.shuffled_box(rng))

    def facts(self, view: TableView) -> Facts:
        zones = self.layout.by_zone(view)
        pile = sorted(zones[CENTRE], key=lambda o: o.id)  # the newest card last
        return {
            "discard": [o.label for o in pile],
            "pile": [
                {
                    "id": o.id,
                    "label": o.label,
                    "at": [round(o.read.center[0]), round(o.read.center[1])],
                    "size": round(o.read.size),
                    "corrected": o.corrected,
                }
                for o in pile
            ],
        }

    def turn(self, state: Any) -> str | None:
        return None if state.finished else str(state.players[state.turn])

    @staticmethod
    def _new_cards(state: Any, facts: Facts, previous: Facts | None = None) -> list[str]:
        known = Counter(state.discard)
        if state.pending is not None:
            known.update([state.pending.card] + ["nope"] * len(state.pending.nopes))
        seen = facts.get("discard", [])
        pile = facts.get("pile") or [{"label": label} for label in seen]
        extra: Counter[str] = Counter(seen) - known
        new: set[int] = set()  # positions in the pile, which is in id order
        for i in reversed(range(len(pile))):  # the newest copies of a surplus label
            label = pile[i]["label"]
            if extra[label] > 0:
                new.add(i)
                extra[label] -= 1
        if previous is not None and previous.get("pile") is not None and facts.get("pile"):
            new.update(i for i, o in enumerate(pile) if _arrived(o, previous["pile"], pile))
        return [pile[i]["label"] for i in sorted(new)]

    def watch(self, state: Any, facts: Facts, previous: Facts | None) -> list[Event]:
        if state.finished:
            return []
        new = self._new_cards(state, facts, previous)
        if not new:
            return []
        player = state.players[state.turn]
        if len(new) == 3 and all(c in CACTUS_CHARACTERS for c in new):
            return [Event.of("play_set", player=player, cards=new)]
        if len(new) == 1 and new[0] == "nope" and state.pending is not None:
            top = state.pending.nopes[-1] if state.pending.nopes else state.pending.actor
            holders = [
                p for i, p in enumerate(state.players) if i != top and "nope" in state.hands[i]
            ]
            if len(holders) == 1:
                return [Event.of("nope", player=holders[0])]
            raise NeedsInput("a nope was played: say whose on the dashboard (trigger 'nope')")
        if len(new) == 1 and state.pending is None and new[0] in SELF_CONTAINED:
            return [Event.of("play", player=player, card=new[0])]
        if len(new) == 1 and state.pending is None:
            raise NeedsInput(f"{player} played {new[0]}: choose the target on the dashboard")
        if len(new) < 3 and all(c in CACTUS_CHARACTERS for c in new):
            return []  # a set being laid down, card by card
        raise NeedsInput(f"the discard pile gained {' '.join(new)}: enter the play by hand")

    def trigger(self, state: Any, name: str, facts: Facts, data: dict[str, Any]) -> list[Event]:
        player = state.players[state.turn]
        if name == "done":
            if state.pending is not None:
                return [Event.of("resolve", **_pick(data, "card"))]
            return [Event.of("draw", player=player, count=int(data.get("count", 1)))]
        if name == "play":
            new = self._new_cards(state, facts)
            card = data.get("card") or (new[-1] if new else None)
            if card is None:
                raise NeedsInput("play: which card? (none new on the discard pile)")
            return [
                Event.of(
                    "play", player=player, card=card, **_pick(data, "target", "targets", "name")
                )
            ]
        if name == "nope":
            return [Event.of("nope", player=data.get("player"))]
        if name == "resolve":
            return [Event.of("resolve", **_pick(data, "card"))]
        if name == "draw":
            return [Event.of("draw", player=player, count=int(data.get("count", 1)))]
        raise NeedsInput(f"Cactus: no trigger {name!r} (done, play, nope, resolve, draw)")


def _arrived(obj: dict[str, Any], before: list[dict[str, Any]], now: list[dict[str, Any]]) -> bool:
    """Whether a pile card came since the earlier look ``before``: a new id, not found again."""
    if obj.get("corrected"):
        return False  # a person's word on a read, not a play
    earlier = {o["id"]: o for o in before}
    if obj["id"] in earlier:
        return False
    present = {o["id"] for o in now}
    for gone in before:  # found again after the tracker forgot it: the same card
        if gone["id"] in present or gone["label"] != obj["label"]:
            continue
        (x, y), (gx, gy) = obj["at"], gone["at"]
        if math.hypot(x - gx, y - gy) <= max(obj["size"], gone["size"]):
            return False
    return True


def _pick(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: data[k] for k in keys if data.get(k) is not None}


ADAPTER = CactusAdapter
