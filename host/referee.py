"""The running game at the table: facts in, events out, everything committed first.

Inputs arrive from three places and take the same road: frames read by vision
(:meth:`Referee.feed`), the device's buttons and timer (:meth:`Referee.device_event`) and
the dashboard (:meth:`Referee.apply`, :meth:`undo`, :meth:`correct`, :meth:`trigger`,
:meth:`timer`). Every accepted engine event is first checked by the engine, then committed to
the store, then folded into the in-memory game, and only then shown (listeners: the
dashboard's WebSocket) and sent (the device). A crash between commit and show loses nothing:
on restart :meth:`Referee.resume` replays the committed journal.

:class:`Table` is one physical table: the store, the device, and a referee per running game;
frames and buttons go to the active (most recently started) game.
"""

from __future__ import annotations

import itertools
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from host.device import Device, DeviceEvent, DeviceState, FakeDevice
from host.rules.base import Event, Game, LogError, Rules, RuleViolation
from host.rules.notation import BOX, NotationError, parse_token
from host.rules.registry import ENGINES
from host.store import GameRow, Store, StoreError
from host.table.adapter import Facts, NeedsInput, TableAdapter, adapter_for
from host.table.flags import flag_reads, suggestions
from host.table.reads import FrameRead
from host.table.stable import Stabiliser, TableView
from host.table.zones import LayoutError
from vision.calibrate import CalibrationError, TableCalibration

# Snapshots reach a dashboard by two roads (the WebSocket and HTTP replies) that can cross;
# a number that only grows lets the page drop whichever arrives late.
_SNAPSHOT_SEQ = itertools.count(1)

Summary = dict[str, Any]
Listener = Callable[[str, dict[str, Any]], None]


class RefereeError(ValueError):
    """A request the referee refuses; the message says why (shown to people as is)."""


class NothingThere(RefereeError):
    """The request names an object or game the table does not have now."""


@dataclass(frozen=True, slots=True)
class Engine:
    """A rules engine as the referee uses it: its Rules and its summary of a state."""

    rules: Rules[Any]
    summary: Callable[[Any], Summary]


def engine_for(game: str) -> Engine:
    try:
        module = import_module(ENGINES[game])
    except KeyError:
        raise RefereeError(f"unknown game {game!r}: expected one of {', '.join(ENGINES)}") from None
    except ModuleNotFoundError as exc:
        raise RefereeError(f"the {game} engine is not installed ({exc})") from None
    return Engine(module.RULES, module.summary)


@dataclass(slots=True)
class Timer:
    """The host's mirror of the device's countdown (the device is the authority on expiry)."""

    seconds: int = 0
    deadline: float | None = None  # monotonic time while running
    remaining: float | None = None  # seconds left while paused
    expired: bool = False

    def left(self, now: float) -> float:
        if self.deadline is not None:
            return max(0.0, self.deadline - now)
        if self.remaining is not None:
            return self.remaining
        return float(self.seconds)

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "seconds": self.seconds,
            "running": self.deadline is not None,
            "remaining_ms": int(self.left(now) * 1000),
            "expired": self.expired,
        }


class Referee:
    """One game being played: the engine, its committed journal, the table, the timer."""

    def __init__(
        self,
        store: Store,
        game_id: int,
        engine: Engine,
        adapter: TableAdapter,
        device: Device | None = None,
        *,
        stable_frames: int = 3,
        min_confidence: float = 0.6,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.engine = engine
        self.adapter = adapter
        self.device = device
        self.min_confidence = min_confidence
        self.clock = clock
        self.row: GameRow = store.game(game_id)
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.stabiliser = Stabiliser(frames=stable_frames)
        self.view = TableView((), True, 1000, 750)
        self.flags: dict[int, str] = {}
        self.facts: Facts = {}
        self._accepted_facts: Facts | None = None
        self.frame: Any = None  # the latest image (numpy array) when a camera feeds us
        self.frame_id: int | None = None
        self.frame_at: float | None = None
        self.message = ""
        self._layout_error: str | None = None  # why the table's zones cannot place a frame
        self.timer = Timer(seconds=adapter.timer_seconds)
        self.muted = False
        self.context = ""  # added to every journal row's source (e.g. a replay's step)
        # Corrections made before a restart, re-applied to the same objects when seen again.
        self._corrections = store.corrections(game_id)
        try:
            self.game: Game[Any] = Game(engine.rules, store.events(game_id))
        except (LogError, RuleViolation) as exc:
            raise RefereeError(f"game {game_id} cannot be replayed: {exc}") from None

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        store: Store,
        session_id: int,
        game: str,
        options: dict[str, Any] | None = None,
        *,
        engine: Engine | None = None,
        device: Device | None = None,
        seed: int | None = None,
        setup: Event | None = None,
        real_table: bool = False,
        table: TableCalibration | None = None,
        **kwargs: Any,
    ) -> Referee:
        """Start a game; ``real_table``: real cards, nobody knows the deck (table mode);
        ``table``: place objects by this calibration's zones (stored with the game), else by
        image sectors."""
        players = list(store.session(session_id).players)
        try:
            adapter = adapter_for(game, players, options, table)
        except LayoutError as exc:  # checked before anything is stored
            raise RefereeError(str(exc)) from None
        engine = engine or engine_for(game)
        if setup is None and real_table:
            setup = adapter.table_setup()
        elif setup is None:
            # The shuffle is drawn here, outside the pure engine, and recorded in the setup.
            setup = adapter.setup(random.Random(seed if seed is not None else secrets.randbits(64)))
        elif setup.type != "setup" or setup.get("game") != game or setup.get("players") != players:
            raise RefereeError(f"a recorded setup must be a {game} setup for {', '.join(players)}")
        try:
            engine.rules.initial(setup)  # refuse a bad setup before anything is stored
        except Exception as exc:  # the engine is pure: any failure means a bad setup
            raise RefereeError(f"cannot start {game}: {exc}") from None
        stored_table = table.to_json() if table is not None else None
        game_id = store.create_game(session_id, setup, source="start", table=stored_table)
        referee = cls(store, game_id, engine, adapter, device, **kwargs)
        referee._after_change("start")
        return referee

    @classmethod
    def resume(
        cls,
        store: Store,
        game_id: int,
        *,
        engine: Engine | None = None,
        device: Device | None = None,
        **kwargs: Any,
    ) -> Referee:
        row = store.game(game_id)
        setup = store.events(game_id)[0]
        players = [str(p) for p in setup.get("players") or store.session(row.session_id).players]
        options = setup.get("options") or {}
        stored = store.game_table(game_id)
        try:
            # The calibration recorded with the game, not today's file: the same placement.
            table = TableCalibration.from_json(stored) if stored is not None else None
            adapter = adapter_for(row.game, players, options, table)
        except (CalibrationError, LayoutError) as exc:
            raise RefereeError(
                f"game {game_id}: its table calibration is unusable: {exc}"
            ) from None
        return cls(store, game_id, engine or engine_for(row.game), adapter, device, **kwargs)

    # -- listeners ------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _notify(self, kind: str) -> None:
        snapshot = self.snapshot()
        for listener in list(self._listeners):
            listener(kind, snapshot)

    # -- reading the state -------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return self.adapter.players

    @property
    def state(self) -> Any:
        return self.game.state

    def summary(self) -> Summary:
        return self.engine.summary(self.game.state)

    @property
    def running(self) -> bool:
        return self.row.status == "running"

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            now = self.clock()
            summary = self.summary()
            layout = self.adapter.layout
            objects = []
            for obj in self.view.objects:
                item = obj.to_json()
                item["flag"] = self.flags.get(obj.id)
                if self._layout_error is None:
                    item.update(layout.place(obj, self.view.width, self.view.height))
                objects.append(item)
            return {
                "seq": next(_SNAPSHOT_SEQ),
                "game_id": self.game_id,
                "session_id": self.row.session_id,
                "game": self.row.game,
                "status": self.row.status,
                "players": list(self.players),
                "turn": self.adapter.turn(self.game.state),
                "triggers": list(self.adapter.triggers),
                "summary": summary,
                "events": len(self.game) - 1,
                "last_event": self.game.events[-1].to_json() if len(self.game) > 1 else None,
                "message": self.message,
                "timer": self.timer.to_json(now),
                "muted": self.muted,
                "frame": self.frame_id,
                "table": {
                    "width": self.view.width,
                    "height": self.view.height,
                    "stable": self.view.stable,
                    "objects": objects,
                    "facts": self.facts,
                    # Which calibration places objects in zones (or the default sectors).
                    "calibration": {
                        **layout.describe(),
                        "error": self._layout_error,
                        "outlines": self._outlines(),
                    },
                },
            }

    def _outlines(self) -> dict[str, list[list[float]]]:
        """The zones drawn on the dashboard's view of the current frame size (none while the
        frames cannot be placed, e.g. before the first frame of a camera of another size)."""
        if self._layout_error:
            return {}
        try:
            return self.adapter.layout.outlines(self.view.width, self.view.height)
        except LayoutError:
            return {}

    def history(self) -> list[dict[str, Any]]:
        """Every journal row with the event's players, for the per-player history."""
        out = []
        for entry in self.store.journal(self.game_id):
            item = entry.to_json()
            event = entry.event
            names = []
            if event is not None:
                for value in event.data.values():
                    if isinstance(value, str) and value in self.players:
                        names.append(value)
            item["players"] = names
            out.append(item)
        return out

    # -- changing the game -----------------------------------------------------------------------
    def _check_running(self) -> None:
        if not self.running:
            raise RefereeError(f"game {self.game_id} is {self.row.status}: no more changes")

    def apply(self, event: Event, source: str = "dashboard") -> Any:
        """Check, commit, fold, then show and send one engine event."""
        self.apply_all([event], source)
        return self.game.state

    def apply_all(self, events: Sequence[Event], source: str) -> None:
        """Several events as one step: all are legal and committed together, or none is."""
        if not events:
            return
        with self._lock:
            self._check_running()
            applied = 0
            try:
                for event in events:
                    if event.type == "setup":
                        raise RefereeError("a game has one setup event, at its start")
                    try:
                        self.game.apply(event)  # in memory only: shown to no one yet
                    except (RuleViolation, NotationError) as exc:
                        raise RefereeError(f"{event.type}: {exc}") from None
                    except Exception as exc:  # a pure check that crashes: malformed data
                        raise RefereeError(f"{event.type}: malformed event ({exc!r})") from None
                    applied += 1
                # Committed (in one transaction) before anything is shown or sent.
                self.store.append_many(self.game_id, events, source=self._source(source))
            except BaseException:
                for _ in range(applied):
                    self.game.undo()
                raise
            self.message = ""
            self._after_change("event")

    def _source(self, source: str) -> str:
        return f"{source} {self.context}".strip()

    def undo(self, source: str = "dashboard") -> Event:
        """Withdraw the last event (an undo marker is committed; nothing is erased)."""
        with self._lock:
            self._check_running()
            if len(self.game) == 1:
                raise RefereeError("nothing to undo: only the setup is recorded")
            self.store.append_undo(self.game_id, source=self._source(source))
            event = self.game.undo()
            self._accepted_facts = None
            self.message = f"undone: {event.type}"
            self._after_change("undo")
            return event

    def _after_change(self, kind: str) -> None:
        summary = self.summary()
        self.store.set_summary(self.game_id, summary)
        if summary.get("finished"):
            self.store.end_game(self.game_id, "finished")
            self.row = self.store.game(self.game_id)
            self.timer.deadline = None
            winner = summary.get("winner")
            self.message = f"winner: {winner}" if winner else "game over"
        self._send_device()
        self._notify(kind)

    def abandon(self) -> None:
        with self._lock:
            self._check_running()
            self.store.end_game(self.game_id, "abandoned")
            self.row = self.store.game(self.game_id)
            self.message = "abandoned"
            self._send_device()
            self._notify("status")

    # -- the table -------------------------------------------------------------------------------
    def feed(self, read: FrameRead, image: Any = None) -> TableView | None:
        """One frame from vision; may produce events once the table is stable."""
        with self._lock:
            self.frame_id = read.frame
            self.frame_at = self.clock()
            if image is not None:
                self.frame = image
            view = self.stabiliser.feed(read)
            if view is None:  # a hand over the table: nothing to learn from this frame
                self._notify("frame")
                return None
            if self._corrections:
                view = self._recall_corrections(view)
            self._set_view(view)
            if (
                self.running
                and self._layout_error is None
                and view.stable
                and not self.flags
                and self.facts != self._accepted_facts
            ):
                previous, self._accepted_facts = self._accepted_facts, self.facts
                try:
                    events = self.adapter.watch(self.game.state, self.facts, previous)
                    self.apply_all(events, source="camera")
                except (RefereeError, NeedsInput, NotationError) as exc:
                    # What the table shows is not legal, or needs a person's word: say so,
                    # and keep the game as it was.
                    self.message = str(exc)
                    self._send_device()
            self._notify("frame")
            return view

    def _recall_corrections(self, view: TableView) -> TableView:
        changed = False
        for obj in view.objects:
            if obj.corrected:
                continue
            cx, cy = obj.read.center
            for c in reversed(self._corrections):  # the newest word counts
                near = abs(cx - c.x) <= c.size / 2 and abs(cy - c.y) <= c.size / 2
                if near and obj.read.label == c.read_label:
                    self.stabiliser.correct(obj.id, c.label)
                    changed = True
                    break
        return self.stabiliser.view() if changed else view

    def _set_view(self, view: TableView) -> None:
        self.view = view
        try:
            self.facts = self.adapter.facts(view)
        except LayoutError as exc:
            # Frames the calibration cannot place (another camera mode): say so, decide nothing.
            self._layout_error = self.message = str(exc)
            self.facts, self.flags = {}, {}
            return
        self._layout_error = None
        flags = flag_reads(view.objects, self.adapter.deck, self.min_confidence)
        for oid, reason in self.adapter.impossible(self.game.state, view).items():
            flags.setdefault(oid, reason)
        self.flags = flags

    def correct(self, object_id: int, label: str, source: str = "dashboard") -> None:
        """A person's word for one object's read; it holds while the object stays put."""
        with self._lock:
            obj = next((o for o in self.view.objects if o.id == object_id), None)
            if obj is None:
                raise NothingThere(f"no object {object_id} on the table now")
            try:
                token = parse_token(self.adapter.deck, label)
            except NotationError as exc:
                raise RefereeError(str(exc)) from None
            others = sum(1 for o in self.view.objects if o.id != object_id and o.label == token)
            held = BOX[self.adapter.deck][token]
            if others >= held:
                raise RefereeError(
                    f"cannot correct to {token}: the box holds {held} × {token} "
                    f"and {others} already lie on the table"
                )
            cx, cy = obj.read.center  # committed before it is shown
            self.store.add_correction(self.game_id, cx, cy, obj.read.size, obj.read.label, token)
            self.stabiliser.correct(object_id, token)
            self._set_view(self.stabiliser.view())
            self.message = f"corrected: {obj.read.label} → {token}"
            self._notify("correction")

    def use_table(self, table: TableCalibration, source: str = "dashboard") -> None:
        """Place objects by another calibration from now on (the table was recalibrated);
        stored with the game first, so a restart uses it too."""
        with self._lock:
            self._check_running()
            try:
                self.adapter.use_table(table)
            except LayoutError as exc:
                raise RefereeError(str(exc)) from None
            self.store.set_game_table(self.game_id, table.to_json())
            self._set_view(self.view)
            self.message = f"table {table.name} recalibrated ({source})"
            self._notify("table")

    def suggestions(self, object_id: int) -> list[str]:
        obj = next((o for o in self.view.objects if o.id == object_id), None)
        if obj is None:
            raise NothingThere(f"no object {object_id} on the table now")
        return suggestions(obj, self.adapter.deck)

    def trigger(
        self, name: str, data: dict[str, Any] | None = None, source: str = "dashboard"
    ) -> None:
        """A moment the game's rules look at the table: done, time up, showdown, hu..."""
        with self._lock:
            self._check_running()
            try:
                if self._layout_error:  # no facts to decide from, not even an empty table
                    raise RefereeError(self._layout_error)
                if name != "time_up":  # time running out is applied whatever the table shows
                    if self.flags:
                        ids = ", ".join(str(i) for i in sorted(self.flags))
                        raise RefereeError(f"correct the flagged reads first (objects {ids})")
                    if not self.view.stable:
                        raise RefereeError("the table is still changing: try again in a moment")
                try:
                    events = self.adapter.trigger(
                        self.game.state, name, self.facts, dict(data or {})
                    )
                except (NeedsInput, NotationError) as exc:
                    raise RefereeError(str(exc)) from None
                self.apply_all(events, source)
            except RefereeError as exc:
                # Shown where the players look (the device, the dashboard), not only returned.
                self.message = str(exc)
                self._send_device()
                self._notify("message")
                raise
            self._accepted_facts = self.facts
            self.message = "OK" if self.running else self.message
            if name in ("done", "time_up") and self.adapter.timer_seconds and self.running:
                self.timer_control("start")  # the next player's clock starts at once
            else:
                self._send_device()
                self._notify("message")

    def device_event(self, event: DeviceEvent) -> None:
        try:
            if event.kind == "done":
                self.trigger("done", event.data, source="device")
            elif event.kind == "timer_expired":
                with self._lock:
                    self.timer.expired = True
                    self.timer.deadline = None
                    self.timer.remaining = 0.0
                self.trigger("time_up", event.data, source="device")
            elif event.kind == "pause":
                self.timer_control("pause")
            elif event.kind == "resume":
                self.timer_control("resume")
            elif event.kind == "mute":
                self.muted = not self.muted
                self._send_device()
                self._notify("timer")
            elif event.kind == "predict":
                self.trigger("predict", event.data, source="device")
        except RefereeError as exc:
            # A button cannot answer with an error page: show why on the device and dashboard.
            self.message = str(exc)
            self._send_device()
            self._notify("message")

    # -- the timer ---------------------------------------------------------------------------
    def timer_control(self, action: str, seconds: int | None = None) -> dict[str, Any]:
        with self._lock:
            now = self.clock()
            t = self.timer
            if seconds is not None:
                if not 1 <= seconds <= 3600:
                    raise RefereeError(f"timer seconds must be 1..3600, not {seconds}")
                t.seconds = seconds
            if action == "start":
                if t.seconds <= 0:
                    raise RefereeError("this game has no turn timer; give seconds to set one")
                t.deadline, t.remaining, t.expired = now + t.seconds, None, False
            elif action == "pause":
                if t.deadline is None:
                    raise RefereeError("the timer is not running")
                t.remaining, t.deadline = t.left(now), None
            elif action == "resume":
                if t.deadline is not None or t.remaining is None:
                    raise RefereeError("the timer is not paused")
                t.deadline, t.remaining = now + t.remaining, None
            elif action == "reset":
                t.deadline, t.remaining, t.expired = None, None, False
            elif action != "set":
                raise RefereeError(f"unknown timer action {action!r}")
            self._send_device()
            self._notify("timer")
            return t.to_json(now)

    def _send_device(self) -> None:
        if self.device is None:
            return
        summary = self.summary()
        scores = {p: int(v) for p, v in (summary.get("scores") or {}).items()}
        t = self.timer
        remaining = None
        if t.deadline is not None or t.remaining is not None:
            remaining = int(t.left(self.clock()) * 1000)
        self.device.set_state(
            DeviceState(
                game=self.row.game,
                turn=self.adapter.turn(self.game.state),
                scores=scores,
                players=tuple(self.players),
                message=self.message[:64],
                timer_seconds=t.seconds,
                timer_running=t.deadline is not None,
                timer_remaining_ms=remaining,
                muted=self.muted,
            )
        )


class Table:
    """One physical table: the store, the device, and the referees of its running games."""

    def __init__(
        self,
        store: Store,
        device: Device | None = None,
        *,
        engines: Callable[[str], Engine] = engine_for,
        stable_frames: int = 3,
        min_confidence: float = 0.6,
        clock: Callable[[], float] = time.monotonic,
        tables_dir: Path | None = None,
        table: str | None = None,
    ) -> None:
        self.store = store
        self.device: Device = device or FakeDevice()
        self.engines = engines
        # Where `tableref calibrate` keeps calibrations, and the one games use by default.
        self.tables_dir = tables_dir
        self.default_table = table or None
        self.options: dict[str, Any] = {
            "stable_frames": stable_frames,
            "min_confidence": min_confidence,
            "clock": clock,
        }
        self.referees: dict[int, Referee] = {}
        self.active: int | None = None
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()
        self.device.on_event(self._device_event)

    def resume(self) -> list[int]:
        """Rebuild every game the store says is running (after a restart or a crash)."""
        resumed = []
        for row in self.store.running_games():
            if row.id in self.referees:
                continue
            referee = Referee.resume(
                self.store,
                row.id,
                engine=self.engines(row.game),
                device=self.device,
                **self.options,
            )
            self._adopt(referee)
            resumed.append(row.id)
        return resumed

    def start_game(
        self,
        session_id: int,
        game: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        setup: Event | None = None,
        real_table: bool = False,
        table: str | TableCalibration | None = None,
    ) -> Referee:
        """Start a game; ``table`` names the calibration that places objects in zones (None:
        the table's default, "": none, image sectors), or is that calibration."""
        try:
            engine = self.engines(game)
        except LogError as exc:
            raise RefereeError(str(exc)) from None
        calibration = (
            table
            if isinstance(table, TableCalibration)
            else self.calibration(self.default_table if table is None else table)
        )
        try:
            referee = Referee.start(
                self.store,
                session_id,
                game,
                options,
                engine=engine,
                device=self.device,
                seed=seed,
                setup=setup,
                real_table=real_table,
                table=calibration,
                **self.options,
            )
        except StoreError as exc:
            raise RefereeError(str(exc)) from None
        self._adopt(referee)
        referee._notify("start")
        return referee

    def calibration(self, name: str | None) -> TableCalibration | None:
        """The stored calibration of table ``name`` (None or "": none)."""
        if not name:
            return None
        from vision import calibrate

        try:
            return calibrate.load(name, self.tables_dir)
        except ValueError as exc:  # CalibrationError, or a name that is no file name
            raise RefereeError(str(exc)) from None

    def recalibrated(self, table: TableCalibration) -> dict[int, str]:
        """A table's calibration changed (corners clicked again): every running game placing
        objects by that table adopts it. Game id → "ok" or why it could not."""
        results = {}
        for gid, referee in list(self.referees.items()):
            if not referee.running or referee.adapter.layout.table != table.name:
                continue
            try:
                referee.use_table(table)
                results[gid] = "ok"
            except RefereeError as exc:
                results[gid] = str(exc)
        return results

    def _adopt(self, referee: Referee) -> None:
        with self._lock:
            self.referees[referee.game_id] = referee
            self.active = referee.game_id
            referee.subscribe(self._forward)

    def _forward(self, kind: str, snapshot: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(kind, snapshot)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def referee(self, game_id: int | None = None) -> Referee:
        gid = self.active if game_id is None else game_id
        if gid is None:
            raise NothingThere("no game is running at this table")
        referee = self.referees.get(gid)
        if referee is None:
            row = self.store.game(gid)  # raises "no game N"
            raise NothingThere(f"game {gid} is {row.status}: it is not being refereed")
        return referee

    def feed(self, read: FrameRead, image: Any = None) -> None:
        if self.active is not None:
            self.referees[self.active].feed(read, image)

    def _device_event(self, event: DeviceEvent) -> None:
        if self.active is not None:
            self.referees[self.active].device_event(event)


def replay_summary(events: list[Event]) -> Summary:
    """Replay a stored log with its engine (raising LogError if illegal); its summary."""
    game = events[0].get("game") if events else None
    if not isinstance(game, str):
        raise LogError("the setup event has no 'game' name")
    engine = engine_for(game)
    return engine.summary(Game(engine.rules, events).state)
