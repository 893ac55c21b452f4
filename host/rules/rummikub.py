"""Rummikub with a Twist (拉密 變奏): the event-sourced game (RULINGS.md §2).

Events (flat JSON, ``type`` plus fields):
- ``setup``: ``game``, ``players`` (turn order, the first player first), ``pool`` (all 112
  tiles in shuffled order, drawn outside the engine), ``options`` (``timer_seconds`` 60,
  ``strict_penalty`` false, ``mirror_value`` "number" | "zero"). The deal takes 14 tiles per
  player from the front of the pool in turn order; draws take from the front too.
- ``play``: ``player``, ``table`` (the whole table after the turn: a list of sets, each a
  list of tiles in table order), ``tiles`` (the tiles played from the rack).
- ``draw``: ``player`` draws the next pool tile; with the pool empty it is a pass.
- ``time_up``: ``player``, optional ``table`` (the table when time ran out) and
  ``not_put_back`` (strict rule): draw 1, or the table is restored and the player draws 3.
- ``end``: ``reason`` "pool_empty": the pool is empty and the players agree nobody can play.
  A game also ends by itself when a rack empties ("Rummikub") or, with the pool empty, when
  every player in turn has passed.

**Table mode** (a real game: nobody knows the shuffled order): a ``setup`` without ``pool``.
The engine then tracks how many unseen tiles each rack and the pool hold (``UNSEEN``); a
``play`` is checked against the table and the tiles it names (the table gained exactly those,
the rack holds at least that many, the box holds every tile on the table); a draw takes an
unseen tile. When the game ends it waits for one ``racks`` event, ``racks`` ``{player:
[tiles]}`` entered by hand, each rack as many tiles as the engine counted and the box able to
hold them beside the table; that event scores the game.

The state is immutable; ``summary(state)`` gives ``{"scores", "winner", "finished"}``.
The set validator, turn referee, scoring and hints live in ``rummikub_sets``,
``rummikub_turn``, ``rummikub_score`` and ``rummikub_hint``; this module re-exports them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from host.rules.base import Event, RuleViolation
from host.rules.notation import BOX, NotationError, check_in_box, parse_cards
from host.rules.rummikub_hint import Hint, find_hint
from host.rules.rummikub_score import (
    GameScore,
    ScoreError,
    SeriesScore,
    rack_value,
    score_game,
    score_series,
)
from host.rules.rummikub_sets import JokerUse, MirrorValue, SetCheck, check_set
from host.rules.rummikub_turn import Table, TimeUp, TurnVerdict, as_table, referee_turn, time_up

GAME: Final = "rummikub"
RACK_SIZE: Final = 14
UNSEEN: Final = "?"  # a tile in a rack or the pool that nobody has seen (table mode)
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

__all__ = [
    "RULES",
    "GameScore",
    "Hint",
    "JokerUse",
    "Options",
    "RummikubRules",
    "RummikubState",
    "ScoreError",
    "SeriesScore",
    "SetCheck",
    "TimeUp",
    "TurnVerdict",
    "check_set",
    "find_hint",
    "rack_value",
    "referee_turn",
    "score_game",
    "score_series",
    "summary",
    "time_up",
]


@dataclass(frozen=True, slots=True)
class Options:
    timer_seconds: int = 60
    strict_penalty: bool = False
    mirror_value: MirrorValue = "number"

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Options:
        if data is not None and not isinstance(data, Mapping):
            raise RuleViolation(f"options must be an object, got {data!r}")
        data = dict(data or {})
        unknown = set(data) - {"timer_seconds", "strict_penalty", "mirror_value"}
        if unknown:
            raise RuleViolation(f"unknown Rummikub option(s): {', '.join(sorted(unknown))}")
        timer = data.get("timer_seconds", 60)
        if not isinstance(timer, int) or isinstance(timer, bool) or timer <= 0:
            raise RuleViolation(f"timer_seconds must be a positive whole number, got {timer!r}")
        strict = data.get("strict_penalty", False)
        if not isinstance(strict, bool):
            raise RuleViolation(f"strict_penalty must be true or false, got {strict!r}")
        mirror = data.get("mirror_value", "number")
        if mirror not in ("number", "zero"):
            raise RuleViolation(f"mirror_value must be 'number' or 'zero', got {mirror!r}")
        return cls(timer, strict, mirror)


@dataclass(frozen=True, slots=True)
class RummikubState:
    players: tuple[str, ...]
    options: Options
    pool: tuple[str, ...]
    racks: tuple[tuple[str, ...], ...]
    table: Table
    opened: tuple[bool, ...]
    turn: int = 0
    passes: int = 0  # turns in a row without a play while the pool is empty
    finished: bool = False
    result: GameScore | None = None
    table_mode: bool = False  # a real game: racks and pool are UNSEEN tiles, counted only
    awaiting_racks: bool | None = None  # table mode, game over: pool_empty, until ``racks``

    @property
    def current(self) -> str:
        return self.players[self.turn]

    def rack_of(self, player: str) -> tuple[str, ...]:
        return self.racks[self.players.index(player)]


def summary(state: RummikubState) -> dict[str, Any]:
    """The common summary (host/rules/summary.py) plus whose turn it is."""
    # nobody is to move once the game is over
    turn = None if state.finished or state.awaiting_racks is not None else state.current
    common = {"game": GAME, "players": list(state.players), "turn": turn}
    if state.awaiting_racks is not None:  # a real table's game is over: racks by hand next
        common["awaiting"] = "racks"
    if state.result is None:
        scores = dict.fromkeys(state.players, 0)
        return {**common, "scores": scores, "winner": None, "finished": False}
    return {
        **common,
        "scores": dict(state.result.scores),
        "winner": state.result.winner,
        "finished": state.finished,
    }


def _parse_table(raw: Any) -> Table:
    if not isinstance(raw, list) or not all(isinstance(s, (list, str)) for s in raw):
        raise RuleViolation("'table' must be a list of sets, each a list of tiles")
    try:
        return as_table([parse_cards(GAME, s, check_box=False) for s in raw])
    except NotationError as exc:
        raise RuleViolation(str(exc)) from None


def _parse_tiles(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, (list, str)):
        raise RuleViolation("'tiles' must be a list of tiles")
    try:
        return tuple(parse_cards(GAME, raw, check_box=False))
    except NotationError as exc:
        raise RuleViolation(str(exc)) from None


def _remove(rack: Sequence[str], tiles: Sequence[str]) -> tuple[str, ...]:
    left = list(rack)
    for t in tiles:
        left.remove(t)
    return tuple(left)


class RummikubRules:
    game = GAME

    def summary(self, state: RummikubState) -> dict[str, Any]:
        return summary(state)

    # -- setup --------------------------------------------------------------------------------
    def initial(self, setup: Event) -> RummikubState:
        players = setup.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) and p for p in players)
            or len(set(players)) != len(players)
        ):
            raise RuleViolation("'players' must be a list of distinct names")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RuleViolation(f"Rummikub is for 2 to 4 players, got {len(players)}")
        options = Options.from_json(setup.get("options"))
        raw_pool = setup.get("pool")
        if raw_pool is None:  # table mode: nobody knows the order
            unseen = (UNSEEN,) * RACK_SIZE
            return RummikubState(
                players=tuple(players),
                options=options,
                pool=(UNSEEN,) * (sum(BOX[GAME].values()) - len(players) * RACK_SIZE),
                racks=(unseen,) * len(players),
                table=(),
                opened=(False,) * len(players),
                table_mode=True,
            )
        if not isinstance(raw_pool, list):
            raise RuleViolation("'pool' must list all 112 tiles in shuffled order")
        try:
            pool = tuple(parse_cards(GAME, raw_pool))
        except NotationError as exc:
            raise RuleViolation(str(exc)) from None
        if Counter(pool) != Counter(BOX[GAME]):
            missing = Counter(BOX[GAME]) - Counter(pool)
            raise RuleViolation(
                f"the pool must hold the whole box (112 tiles); missing: "
                f"{' '.join(sorted(missing.elements())[:10]) or 'none'}"
            )
        racks = tuple(pool[i * RACK_SIZE : (i + 1) * RACK_SIZE] for i in range(len(players)))
        return RummikubState(
            players=tuple(players),
            options=options,
            pool=pool[len(players) * RACK_SIZE :],
            racks=racks,
            table=(),
            opened=(False,) * len(players),
        )

    # -- checking -----------------------------------------------------------------------------
    def check(self, state: RummikubState, event: Event) -> str | None:
        try:
            self._verify(state, event)
        except RuleViolation as exc:
            return str(exc)
        return None

    def _verify(self, state: RummikubState, event: Event) -> None:
        if event.type == "setup":
            raise RuleViolation("the game is already set up")
        if event.type not in ("play", "draw", "time_up", "end", "racks"):
            raise RuleViolation(f"unknown Rummikub event {event.type!r}")
        if state.finished:
            raise RuleViolation("the game is over")
        if event.type == "racks" or state.awaiting_racks is not None:
            self._racks(state, event)
            return
        if event.type == "end":
            if event.get("reason") != "pool_empty":
                raise RuleViolation("an 'end' event needs reason 'pool_empty'")
            if state.pool:
                raise RuleViolation(
                    f"the game cannot end by the pool-empty rule: {len(state.pool)} tiles "
                    f"are left in the pool"
                )
            return
        player = event.get("player")
        if player != state.current:
            raise RuleViolation(f"it is {state.current}'s turn, not {player}'s")
        if event.type == "play":
            verdict = self._play_verdict(state, event)
            if not verdict.legal:
                raise RuleViolation(f"illegal turn: {verdict.reason}")
        elif event.type == "time_up":
            self._time_up(state, event)

    @staticmethod
    def _referee(state: RummikubState, player: str, after: Table) -> TurnVerdict:
        index = state.players.index(player)
        return referee_turn(
            state.table,
            after,
            state.racks[index],
            opened=state.opened[index],
            mirror_value=state.options.mirror_value,
        )

    def _play_verdict(self, state: RummikubState, event: Event) -> TurnVerdict:
        tiles = _parse_tiles(event.get("tiles", []))
        after = _parse_table(event.get("table"))
        if state.table_mode:
            return self._table_verdict(state, event["player"], after, tiles)
        verdict = self._referee(state, event["player"], after)
        if verdict.legal and Counter(tiles) != Counter(verdict.played):
            raise RuleViolation(
                f"'tiles' says {' '.join(tiles) or 'nothing'} was played, but the table "
                f"gained {' '.join(verdict.played)}"
            )
        return verdict

    @staticmethod
    def _table_verdict(
        state: RummikubState, player: str, after: Table, tiles: tuple[str, ...]
    ) -> TurnVerdict:
        """Table mode: the rack is unseen, so the named tiles stand for it (and must fit)."""
        try:
            check_in_box(GAME, [t for s in after for t in s])
        except NotationError as exc:
            raise RuleViolation(f"the table cannot be: {exc}") from None
        index = state.players.index(player)
        held = len(state.racks[index])
        if len(tiles) > held:
            raise RuleViolation(f"{player} holds {held} tiles and cannot play {len(tiles)}")
        gained = Counter(t for s in after for t in s) - Counter(t for s in state.table for t in s)
        if Counter(tiles) != gained:
            raise RuleViolation(
                f"'tiles' says {' '.join(tiles) or 'nothing'} was played, but the table "
                f"gained {' '.join(sorted(gained.elements())) or 'nothing'}"
            )
        return referee_turn(
            state.table,
            after,
            tiles,
            opened=state.opened[index],
            mirror_value=state.options.mirror_value,
        )

    def _racks(self, state: RummikubState, event: Event) -> dict[str, tuple[str, ...]]:
        """Table mode's end: every rack as entered by hand, checked against the counts."""
        if event.type != "racks" and state.awaiting_racks is not None:
            raise RuleViolation("the game is over: enter every player's rack ('racks')")
        if state.awaiting_racks is None:
            raise RuleViolation(
                "'racks' is entered once a table-mode game is over"
                if state.table_mode
                else "the engine knows the racks from the pool: 'racks' is for table mode"
            )
        raw = event.get("racks")
        if not isinstance(raw, Mapping) or set(raw) != set(state.players):
            raise RuleViolation(f"'racks' must give a rack for each of {', '.join(state.players)}")
        racks = {p: _parse_tiles(raw[p]) for p in state.players}
        for player, rack in racks.items():
            held = len(state.rack_of(player))
            if len(rack) != held:
                raise RuleViolation(f"{player}'s rack holds {held} tiles, {len(rack)} were entered")
        try:
            check_in_box(
                GAME, [t for s in state.table for t in s] + [t for r in racks.values() for t in r]
            )
        except NotationError as exc:
            raise RuleViolation(f"the racks and the table together cannot be: {exc}") from None
        return racks

    def _time_up(self, state: RummikubState, event: Event) -> TimeUp:
        attempted = event.get("table")
        table = None if attempted is None else _parse_table(attempted)
        not_put_back = event.get("not_put_back")
        if not_put_back is not None and (
            not isinstance(not_put_back, int) or isinstance(not_put_back, bool) or not_put_back < 0
        ):
            raise RuleViolation("'not_put_back' must be a whole number ≥ 0")
        if table is not None and self._legal_table(state, event["player"], table):
            raise RuleViolation(
                "the table at time-up is a legal turn: record it as a 'play' instead"
            )
        return time_up(
            state.table,
            table,
            strict=state.options.strict_penalty,
            not_put_back=not_put_back,
            mirror_value=state.options.mirror_value,
        )

    def _legal_table(self, state: RummikubState, player: str, table: Table) -> bool:
        if not state.table_mode:
            return self._referee(state, player, table).legal
        gained = Counter(t for s in table for t in s) - Counter(t for s in state.table for t in s)
        try:
            return self._table_verdict(state, player, table, tuple(gained.elements())).legal
        except RuleViolation:
            return False

    # -- folding ------------------------------------------------------------------------------
    def evolve(self, state: RummikubState, event: Event) -> RummikubState:
        if event.type == "racks":
            entered = self._racks(state, event)
            racks = tuple(entered[p] for p in state.players)
            after = replace(state, racks=racks, awaiting_racks=None)
            return self._score(after, pool_empty=bool(state.awaiting_racks))
        if event.type == "end":
            return self._finish(state, pool_empty=True)
        index = state.players.index(event["player"])
        if event.type == "play":
            tiles = _parse_tiles(event.get("tiles", []))
            if state.table_mode:
                rack = state.racks[index][len(tiles) :]
            else:
                rack = _remove(state.racks[index], tiles)
            racks = (*state.racks[:index], rack, *state.racks[index + 1 :])
            opened = (*state.opened[:index], True, *state.opened[index + 1 :])
            after = replace(
                state, table=_parse_table(event["table"]), racks=racks, opened=opened, passes=0
            )
            if not rack:
                return self._finish(after, pool_empty=False)
            return self._next(after)
        count = 1 if event.type == "draw" else self._time_up(state, event).draw
        return self._draw(state, index, count)

    def _draw(self, state: RummikubState, index: int, count: int) -> RummikubState:
        drawn, pool = state.pool[:count], state.pool[count:]
        racks = (*state.racks[:index], state.racks[index] + drawn, *state.racks[index + 1 :])
        # With the pool empty a turn without a play is a pass; a full round of passes ends it.
        passes = state.passes + 1 if not state.pool else 0
        after = replace(state, pool=pool, racks=racks, passes=passes)
        if not state.pool and passes >= len(state.players):
            return self._finish(after, pool_empty=True)
        return self._next(after)

    @staticmethod
    def _next(state: RummikubState) -> RummikubState:
        return replace(state, turn=(state.turn + 1) % len(state.players))

    def _finish(self, state: RummikubState, *, pool_empty: bool) -> RummikubState:
        if state.table_mode:  # the racks are unseen: scored once they are entered
            return replace(state, awaiting_racks=pool_empty)
        return self._score(state, pool_empty=pool_empty)

    @staticmethod
    def _score(state: RummikubState, *, pool_empty: bool) -> RummikubState:
        result = score_game(
            dict(zip(state.players, state.racks, strict=True)), pool_empty=pool_empty
        )
        return replace(state, finished=True, result=result)


RULES: Final = RummikubRules()
