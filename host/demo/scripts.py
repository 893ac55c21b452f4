"""Ground-truth bot sessions → table scripts (what the camera sees, the buttons, the entries).

Each ``<game>_night(players, seed)`` returns ``(steps, expected)``: the script for
host/script.py and the ground truth's final summary the referee must reach.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.demo.layout import HEIGHT, WIDTH, Obj, groups_in_rows, row, seat_angle, seat_point
from host.referee import engine_for
from host.rules.base import Event
from host.script import Step
from host.table.adapter import NeedsInput, adapter_for
from host.table.reads import ObjectRead
from host.table.stable import TableObject, TableView

# Four Color Cards: narrow (width 0.31 of the height), 120 px tall as in vision's scenes.
CARD_W, CARD_H, GAP = 37.0, 120.0, 3.0


def frames(objects: list[Obj], n: int = 4, hand_first: bool = True) -> list[Step]:
    """A hand over the table laying these objects (ignored), then ``n`` steady frames of them.

    Four steady frames: a camera's frame gate skips the first one after the hand left (the
    scene still moved), and the referee counts a read after three agreeing frames."""
    shown: Step = {"frame": {"objects": objects, "width": WIDTH, "height": HEIGHT}}
    hand: Step = {"frame": {"hand": True, "objects": objects, "width": WIDTH, "height": HEIGHT}}
    return ([hand] if hand_first else []) + [shown] * n


# -- Four Color Cards ------------------------------------------------------------------------
def fourcolor_layout(
    seat: int, seats: int, hand: list[str], exposed: list[list[str]], win_card: str
) -> list[Obj]:
    """The winner's hand in a row at their edge of the table, exposed melds in a row nearer
    the middle (a wide gap between melds), the winning card in the middle."""
    cx, cy = seat_point(seat, seats, 0.42)
    toward = 1 if cy < HEIGHT / 2 else -1  # the melds row lies between the hand and the middle
    edge = CARD_H / 2 + 6
    hand_y = edge if toward == 1 else HEIGHT - edge
    objects = row(hand, cx, hand_y, CARD_W, CARD_H, GAP)
    between = CARD_W * 1.2
    span = sum(len(m) * (CARD_W + GAP) for m in exposed) + between * max(len(exposed) - 1, 0)
    x = cx - span / 2
    for meld in exposed:
        width = len(meld) * (CARD_W + GAP)
        objects += row(meld, x + width / 2 - GAP / 2, hand_y + toward * (CARD_H + 6), CARD_W,
                       CARD_H, GAP)  # fmt: skip
        x += width + between
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
                data = {"player": players[after.last_actor]}
                steps.append({"trigger": "drawn", "data": data, "cause": "button"})
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
                steps.append({"trigger": "hu", "data": data, "cause": "button"})
        if event.type == "deal":
            steps += frames([])  # the cards are gathered up
            steps.append({"trigger": "deal", "cause": "button"})
    return steps, summary(game.state)


# -- any engine: from a ground-truth log to what the table shows and does ---------------------
Layout = Callable[[Any], list[Obj]]
# (trigger name, its data, the script step that pulls it) for one ground-truth event
Pulls = Callable[[Event], list[tuple[str, dict[str, Any], Step]]]


def view_of(objects: list[Obj]) -> TableView:
    """The stable view the referee would have of these objects."""
    reads = [ObjectRead.model_validate(o) for o in objects]
    table_objects = tuple(TableObject(i + 1, r.label, r, False, True) for i, r in enumerate(reads))
    return TableView(table_objects, True, WIDTH, HEIGHT)


def script_from_log(
    session: str,
    events: list[Event],
    layout: Layout,
    pulls: Pulls,
    options: dict[str, Any] | None = None,
) -> list[Step]:
    """A table script whose replay through the referee reproduces ``events``.

    For every event the table is laid out as it stands after it. If the camera alone would
    turn that sight into the event, the frames are the step; else if a button or dashboard
    trigger after the frames would (and the frames alone do nothing), frames then the trigger;
    otherwise the event is entered by hand, then the table is shown. Adapters are pure, so
    each choice is checked here by folding the candidate into the engine's state.
    """
    setup = events[0]
    game, players = str(setup["game"]), list(setup["players"])
    engine = engine_for(game)
    adapter = adapter_for(game, players, options)
    steps: list[Step] = [
        {"start": {"session": session, "players": players, "game": game,
                   "options": options or {}, "setup": setup.to_json()}}
    ]  # fmt: skip
    state = engine.rules.initial(setup)
    for event in events[1:]:
        after = engine.rules.evolve(state, event)
        objects = layout(after)
        facts = adapter.facts(view_of(objects))

        def same(produced: list[Event], state: Any = state, after: Any = after) -> bool:
            folded = state
            for e in produced:
                if engine.rules.check(folded, e) is not None:
                    return False
                folded = engine.rules.evolve(folded, e)
            return bool(produced) and folded == after

        try:
            watched: list[Event] | None = adapter.watch(state, facts, None)
        except NeedsInput:
            watched = None
        if watched and same(watched):
            shown = frames(objects)
            shown[-1] = {**shown[-1], "cause": "camera"}
            steps += shown
        else:
            for name, data, step in pulls(event) if not watched else []:
                try:
                    produced = adapter.trigger(state, name, facts, data)
                except NeedsInput:
                    continue
                if same(produced):
                    steps += [*frames(objects), {**step, "cause": "button"}]
                    break
            else:
                steps += [{"event": event.to_json(), "cause": "hand"}, *frames(objects)]
        state = after
    return steps


def tally_sources(steps: list[Step]) -> dict[str, int]:
    """How many events the camera alone, a button or dashboard trigger (reading the table at
    that moment) and entries by hand account for."""
    causes = [step.get("cause") for step in steps]
    return {c: causes.count(c) for c in ("camera", "button", "hand")}


# -- Rummikub --------------------------------------------------------------------------------
TILE_W, TILE_H = 50.0, 70.0  # the smallest tiles vision's tile scenes draw


def rummikub_layout(state: Any) -> list[Obj]:
    return groups_in_rows([list(s) for s in state.table], 10, HEIGHT - 10, TILE_W, TILE_H)


def rummikub_pulls(event: Event) -> list[tuple[str, dict[str, Any], Step]]:
    if event.type in ("play", "draw"):
        return [("done", {}, {"device": "done"})]
    if event.type == "time_up":
        return [("time_up", {}, {"device": "timer_expired"})]
    if event.type == "end":
        return [("end", {}, {"trigger": "end"})]
    return []


def rummikub_night(players: list[str], seed: int) -> tuple[list[Step], dict[str, Any]]:
    import random

    from host.rules.rummikub import summary
    from host.rules.rummikub_play import new_game, play_out

    rng = random.Random(seed)
    game = new_game(rng, players)
    play_out(game, rng)
    steps = script_from_log(f"demo rummikub {seed}", list(game.events), rummikub_layout,
                            rummikub_pulls)  # fmt: skip
    return steps, summary(game.state)


# -- Cactus ----------------------------------------------------------------------------------
CACTUS_W, CACTUS_H = 122.0, 170.0  # poker-sized, as large as vision's Cactus scenes draw them


def cactus_layout(state: Any) -> list[Obj]:
    """The discard pile's newest cards in a row in the middle, the newest on the right."""
    pile = list(state.discard)
    if state.pending is not None:
        pile += [state.pending.card] + ["nope"] * len(state.pending.nopes)
    return row(pile[-3:], WIDTH / 2, HEIGHT / 2, CACTUS_W, CACTUS_H, 12)


def cactus_pulls(event: Event) -> list[tuple[str, dict[str, Any], Step]]:
    data = {k: v for k, v in event.data.items() if k != "player"}
    if event.type in ("resolve", "draw"):
        return [("done", data, {"device": "done", "data": data} if data else {"device": "done"}),
                (event.type, data, {"trigger": event.type, "data": data})]  # fmt: skip
    if event.type == "play":
        return [("play", data, {"trigger": "play", "data": data})]
    if event.type == "nope":
        return [("nope", dict(event.data), {"trigger": "nope", "data": dict(event.data)})]
    return []


def cactus_night(players: list[str], seed: int) -> tuple[list[Step], dict[str, Any]]:
    from host.rules.cactus import summary
    from host.rules.cactus_bot import play_game

    game = play_game(players, seed)
    steps = script_from_log(f"demo cactus {seed}", list(game.events), cactus_layout, cactus_pulls)
    return steps, summary(game.state)


# -- All In ----------------------------------------------------------------------------------
ALLIN_W, ALLIN_H = 121.0, 170.0  # poker-sized, as large as vision's card scenes draw them
DISPLAY_STEP = 66.0  # display columns overlap, each card's left corner index in sight
HAND_STEP = 54.0  # a hand laid open: cards overlap, each one's left corner index in sight


def allin_layout(state: Any) -> list[Obj]:
    """The display in two rows (the second row covering the first, its top corners in
    sight), and at the showdown each hand laid open at its player's edge of the table."""
    width = len(state.display) // 2
    objects: list[Obj] = []
    for i, card in enumerate(state.display):
        if card is not None:
            col, line = i % width, i // width
            x = WIDTH / 2 + (col - (width - 1) / 2) * DISPLAY_STEP
            objects += row([card], x, HEIGHT / 2 - 33 + line * 66, ALLIN_W, ALLIN_H, 0)
    if state.phase in ("deal", "over") and state.results:
        seats = len(state.players)
        for seat, hand in enumerate(state.results[-1].hands):
            cx, cy = seat_point(seat, seats, 0.5)
            angle = seat_angle(seat, seats)
            # in from the edge by half a card, along the line to the middle
            ux, uy = WIDTH / 2 - cx, HEIGHT / 2 - cy
            norm = max((ux * ux + uy * uy) ** 0.5, 1.0)
            cx, cy = cx + ux / norm * (ALLIN_H / 2 + 6), cy + uy / norm * (ALLIN_H / 2 + 6)
            objects += row(list(hand), cx, cy, ALLIN_W, ALLIN_H, HAND_STEP - ALLIN_W, angle)
    return objects


def allin_pulls(event: Event) -> list[tuple[str, dict[str, Any], Step]]:
    data = dict(event.data)
    if event.type == "predict":
        return [("predict", data, {"trigger": "predict", "data": data})]
    if event.type in ("pass", "all_in"):
        return [(event.type, {}, {"trigger": event.type})]
    if event.type == "play":
        data.pop("player", None)
        return [("play", data, {"trigger": "play", "data": data})]
    return []


def allin_night(players: list[str], seed: int) -> tuple[list[Step], dict[str, Any]]:
    from host.rules.allin import summary
    from host.rules.allin_bot import play_game

    game = play_game(players, seed)
    steps = script_from_log(f"demo allin {seed}", list(game.events), allin_layout, allin_pulls)
    return steps, summary(game.state)
