"""Ground-truth bot sessions → table scripts (what the camera sees, the buttons, the entries).

Each ``<game>_night(players, seed)`` returns ``(steps, expected)``: the script for
host/script.py and the ground truth's final summary the referee must reach.
"""

from __future__ import annotations

from typing import Any

from host.demo.layout import HEIGHT, WIDTH, Obj, row, seat_point
from host.script import Step

CARD_W, CARD_H, GAP = 24.0, 34.0, 3.0


def frames(objects: list[Obj], n: int = 3, hand_first: bool = True) -> list[Step]:
    """A hand over the table (ignored), then ``n`` steady frames of these objects."""
    shown: Step = {"frame": {"objects": objects, "width": WIDTH, "height": HEIGHT}}
    return ([{"frame": {"hand": True}}] if hand_first else []) + [shown] * n


# -- Four Color Cards ------------------------------------------------------------------------
def fourcolor_layout(
    seat: int, seats: int, hand: list[str], exposed: list[list[str]], win_card: str
) -> list[Obj]:
    """The winner's hand in a row in their zone, exposed melds nearer the middle, the winning
    card in the middle."""
    cx, cy = seat_point(seat, seats, 0.42)
    toward = 1 if cy < HEIGHT / 2 else -1  # the melds row lies between the hand and the middle
    objects = row(hand, cx, cy, CARD_W, CARD_H, GAP)
    span = sum(len(m) for m in exposed) * (CARD_W + GAP) + 30 * max(len(exposed) - 1, 0)
    x = cx - span / 2
    for meld in exposed:
        width = len(meld) * (CARD_W + GAP)
        objects += row(
            meld, x + width / 2 - (CARD_W + GAP) / 2, cy + toward * 60, CARD_W, CARD_H, GAP
        )
        x += width + 30
    objects += row([win_card], WIDTH / 2, HEIGHT / 2, CARD_W, CARD_H, GAP)
    return objects


def fourcolor_night(
    players: list[str], seed: int, hands: int = 3
) -> tuple[list[Step], dict[str, Any]]:
    """A tracked bot session, kept at the table as results only: each hu read from the cards."""
    from host.rules.fourcolor import summary
    from host.rules.fourcolor_bots import play_session

    options = {"hands": hands}
    game = play_session(players, seed, options=options)
    steps: list[Step] = [
        {"start": {"session": f"demo fourcolor {seed}", "players": players, "game": "fourcolor",
                   "options": options}}
    ]  # fmt: skip
    for i in range(1, len(game)):
        before, after, event = game.state_at(i - 1), game.state_at(i), game.events[i]
        if len(after.results) > len(before.results):
            result = after.results[-1]
            if result.outcome == "drawn":
                steps.append({"trigger": "drawn", "data": {"player": players[after.last_actor]}})
            else:
                assert result.player is not None and before.offer is not None
                seat = before.seat(result.player)
                offer = before.offer
                objects = fourcolor_layout(
                    seat,
                    len(players),
                    list(before.hands[seat]),
                    [list(m.cards) for m in before.exposed[seat]],
                    offer.card,
                )
                steps += frames(objects)
                own = offer.source == "turn" and offer.seat == seat
                data = {"player": result.player, "win_from": "self" if own else "other"}
                if result.flower:
                    data["flower"] = result.flower
                steps.append({"trigger": "hu", "data": data})
        if event.type == "deal":
            steps += frames([])  # the cards are gathered up
            steps.append({"trigger": "deal"})
    return steps, summary(game.state)
