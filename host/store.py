"""SQLite store: players, sessions, games, and each game's append-only journal.

The journal of a game is never rewritten. Each row is either an engine event (``op='event'``)
or an undo marker (``op='undo'``) that withdraws the latest event still standing; the game's
log is the fold of its journal. So an undo (or a corrected read, which is an undo plus the
corrected event) loses nothing: the export shows what was withdrawn and when.

Durability: WAL mode with ``synchronous=FULL``; every append is its own committed
transaction, and callers commit *before* they show or send anything (see host/referee.py).
After a crash, :meth:`Store.running_games` plus :meth:`Store.events` rebuild every game that
was running, exactly as far as it was committed.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from host.rules.base import Event, LogError

EXPORT_FORMAT = "tableref-session"
EXPORT_VERSION = 1

GameStatus = Literal["running", "finished", "abandoned"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (session_id, seat),
    UNIQUE (session_id, player_id)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    game TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    created TEXT NOT NULL,
    ended TEXT,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS journal (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('event', 'undo')),
    event TEXT,
    source TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- A person's word on one read (where the object lay, what the camera said, what it is):
-- kept so a restart re-applies it to the same object still lying there.
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    x REAL NOT NULL,
    y REAL NOT NULL,
    size REAL NOT NULL,
    read_label TEXT NOT NULL,
    label TEXT NOT NULL,
    at TEXT NOT NULL
);
-- The table calibration a game places objects by (tableref calibrate), as it stood when the
-- game started or the table was last recalibrated: a restart places them the same way.
CREATE TABLE IF NOT EXISTS game_tables (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    name TEXT NOT NULL,
    calibration TEXT NOT NULL,
    at TEXT NOT NULL
);
-- The journal is append-only: the database itself refuses edits and deletions.
CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class StoreError(ValueError):
    """A request the store cannot satisfy (unknown id, duplicate seat...); the message says why."""


class NotFound(StoreError):
    """An id that names nothing stored."""


class ImportFormatError(StoreError):
    """An import file that is not a tableref session export; the message names the problem."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    name: str
    created: str
    players: tuple[str, ...]  # in seat order


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    session_id: int
    game: str
    status: GameStatus
    created: str
    ended: str | None
    summary: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class JournalEntry:
    seq: int
    op: Literal["event", "undo"]
    event: Event | None
    source: str
    at: str

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "op": self.op, "source": self.source}
        out["at"] = self.at
        if self.event is not None:
            out["event"] = self.event.to_json()
        return out


@dataclass(frozen=True, slots=True)
class Correction:
    x: float
    y: float
    size: float
    read_label: str
    label: str


def fold_journal(entries: list[JournalEntry]) -> list[Event]:
    """The game's log: events still standing after every undo marker."""
    log: list[Event] = []
    for entry in entries:
        if entry.op == "event" and entry.event is not None:
            log.append(entry.event)
        elif entry.op == "undo" and len(log) > 1:
            log.pop()
    return log


# -- the export format, validated on import -----------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExportJournalEntry(_Strict):
    seq: int = Field(ge=0)
    op: Literal["event", "undo"]
    event: dict[str, Any] | None = None
    source: str = ""
    at: str


class ExportCorrection(_Strict):
    x: float
    y: float
    size: float
    read_label: str
    label: str


class ExportGame(_Strict):
    id: int
    game: str
    status: GameStatus
    created: str
    ended: str | None = None
    summary: dict[str, Any] | None = None
    events: list[dict[str, Any]]
    journal: list[ExportJournalEntry] | None = None
    corrections: list[ExportCorrection] = Field(default_factory=list)
    table: dict[str, Any] | None = None  # the table calibration the game placed objects by


class ExportSession(_Strict):
    id: int
    name: str
    created: str
    players: list[str]


class ExportFile(_Strict):
    format: Literal["tableref-session"]
    version: Literal[1]
    session: ExportSession
    games: list[ExportGame]


def _describe(exc: ValidationError) -> str:
    problems = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        problems.append(f"{where}: {err['msg']}")
    more = "" if exc.error_count() <= 5 else f" (and {exc.error_count() - 5} more)"
    return "; ".join(problems) + more


class Store:
    """One SQLite database; safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(
            str(path), isolation_level=None, check_same_thread=False, timeout=10
        )
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk when execute returns, so "committed before shown" holds
        # through a power cut too, not only a process crash. Events are rare; the cost is small.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _one(self, sql: str, *args: Any) -> sqlite3.Row | None:
        if any(isinstance(a, int) and not -(2**63) <= a < 2**63 for a in args):
            return None  # beyond SQLite's integers: no row can match
        with self._lock:
            row: sqlite3.Row | None = self._db.execute(sql, args).fetchone()
            return row

    def _all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        with self._lock:
            return list(self._db.execute(sql, args).fetchall())

    # -- players -----------------------------------------------------------------------------
    @staticmethod
    def _clean_name(name: str) -> str:
        clean = " ".join(str(name).split())
        if not clean:
            raise StoreError("a player needs a name")
        if len(clean) > 40:
            raise StoreError(f"player name {clean[:40]!r}... is longer than 40 characters")
        return clean

    def _player_id(self, db: sqlite3.Connection, name: str) -> int:
        row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row is not None:
            return int(row["id"])
        cur = db.execute("INSERT INTO players (name, created) VALUES (?, ?)", (name, _now()))
        return int(cur.lastrowid or 0)

    def add_player(self, name: str) -> PlayerRow:
        """The player of that name, created if new (names are unique at a table)."""
        clean = self._clean_name(name)
        with self._tx() as db:
            return PlayerRow(self._player_id(db, clean), clean)

    def players(self) -> list[PlayerRow]:
        return [
            PlayerRow(r["id"], r["name"]) for r in self._all("SELECT * FROM players ORDER BY id")
        ]

    # -- sessions ----------------------------------------------------------------------------
    def create_session(self, name: str, players: list[str], created: str | None = None) -> int:
        clean = [self._clean_name(p) for p in players]
        if len(clean) < 1:
            raise StoreError("a session needs at least one player")
        if len(set(clean)) != len(clean):
            dup = next(p for p in clean if clean.count(p) > 1)
            raise StoreError(f"player {dup!r} is seated twice")
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO sessions (name, created) VALUES (?, ?)",
                (name.strip() or "game night", created or _now()),
            )
            sid = int(cur.lastrowid or 0)
            for seat, player in enumerate(clean):
                db.execute(
                    "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                    (sid, seat, self._player_id(db, player)),
                )
        return sid

    def session(self, session_id: int) -> SessionRow:
        row = self._one("SELECT * FROM sessions WHERE id = ?", session_id)
        if row is None:
            raise NotFound(f"no session {session_id}")
        seated = self._all(
            "SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id "
            "WHERE s.session_id = ? ORDER BY s.seat",
            session_id,
        )
        return SessionRow(row["id"], row["name"], row["created"], tuple(r["name"] for r in seated))

    def sessions(self) -> list[SessionRow]:
        return [self.session(r["id"]) for r in self._all("SELECT id FROM sessions ORDER BY id")]

    # -- games -------------------------------------------------------------------------------
    def create_game(
        self, session_id: int, setup: Event, source: str = "", table: dict[str, Any] | None = None
    ) -> int:
        """A new running game whose journal starts with its ``setup`` event; ``table``: the
        table calibration (its JSON) the game places objects by, stored with it."""
        if setup.type != "setup" or not isinstance(setup.get("game"), str):
            raise StoreError("a game starts with a 'setup' event naming the game")
        self.session(session_id)
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO games (session_id, game, created) VALUES (?, ?, ?)",
                (session_id, setup["game"], _now()),
            )
            gid = int(cur.lastrowid or 0)
            self._insert(db, gid, 0, "event", setup, source)
            if table is not None:
                self._put_table(db, gid, table)
        return gid

    @staticmethod
    def _put_table(db: sqlite3.Connection, game_id: int, table: dict[str, Any]) -> None:
        name = table.get("name")
        if not isinstance(name, str) or not name:
            raise StoreError("a table calibration needs its 'name'")
        db.execute(
            "INSERT OR REPLACE INTO game_tables (game_id, name, calibration, at) "
            "VALUES (?, ?, ?, ?)",
            (game_id, name, json.dumps(table, ensure_ascii=False), _now()),
        )

    def set_game_table(self, game_id: int, table: dict[str, Any]) -> None:
        """Replace the table calibration a game places objects by (the table recalibrated)."""
        self.game(game_id)
        with self._tx() as db:
            self._put_table(db, game_id, table)

    def game_table(self, game_id: int) -> dict[str, Any] | None:
        """The table calibration stored with a game (its JSON), or None: image sectors."""
        row = self._one("SELECT calibration FROM game_tables WHERE game_id = ?", game_id)
        return None if row is None else dict(json.loads(row["calibration"]))

    @staticmethod
    def _insert(
        db: sqlite3.Connection, gid: int, seq: int, op: str, event: Event | None, source: str
    ) -> None:
        payload = None if event is None else json.dumps(event.to_json(), ensure_ascii=False)
        db.execute(
            "INSERT INTO journal (game_id, seq, op, event, source, at) VALUES (?, ?, ?, ?, ?, ?)",
            (gid, seq, op, payload, source, _now()),
        )

    def _next_seq(self, db: sqlite3.Connection, game_id: int) -> int:
        row = db.execute(
            "SELECT g.status, MAX(j.seq) AS last FROM games g LEFT JOIN journal j "
            "ON j.game_id = g.id WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is None or row["status"] is None:
            raise NotFound(f"no game {game_id}")
        if row["status"] != "running":
            raise StoreError(f"game {game_id} is {row['status']}: its log is closed")
        return int(row["last"]) + 1

    def append(self, game_id: int, event: Event, source: str = "") -> int:
        """Commit one event to the game's journal; returns its sequence number."""
        with self._tx() as db:
            seq = self._next_seq(db, game_id)
            self._insert(db, game_id, seq, "event", event, source)
        return seq

    def append_many(self, game_id: int, events: Sequence[Event], source: str = "") -> int:
        """Commit several events in one transaction (all or none); the last seq."""
        with self._tx() as db:
            seq = self._next_seq(db, game_id)
            for offset, event in enumerate(events):
                self._insert(db, game_id, seq + offset, "event", event, source)
        return seq + len(events) - 1

    def append_undo(self, game_id: int, source: str = "") -> int:
        """Commit an undo marker (withdraws the latest standing event)."""
        with self._tx() as db:
            seq = self._next_seq(db, game_id)
            self._insert(db, game_id, seq, "undo", None, source)
        return seq

    def journal(self, game_id: int) -> list[JournalEntry]:
        self.game(game_id)
        rows = self._all("SELECT * FROM journal WHERE game_id = ? ORDER BY seq", game_id)
        return [
            JournalEntry(
                r["seq"],
                r["op"],
                None if r["event"] is None else Event.from_json(json.loads(r["event"])),
                r["source"],
                r["at"],
            )
            for r in rows
        ]

    def events(self, game_id: int) -> list[Event]:
        """The game's log as it stands (undos applied)."""
        return fold_journal(self.journal(game_id))

    @staticmethod
    def _game_row(r: sqlite3.Row) -> GameRow:
        summary = None if r["summary"] is None else json.loads(r["summary"])
        return GameRow(
            r["id"], r["session_id"], r["game"], r["status"], r["created"], r["ended"], summary
        )

    def game(self, game_id: int) -> GameRow:
        row = self._one("SELECT * FROM games WHERE id = ?", game_id)
        if row is None:
            raise NotFound(f"no game {game_id}")
        return self._game_row(row)

    def games(self, session_id: int | None = None, status: str | None = None) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE 1=1"
        args: list[Any] = []
        if session_id is not None:
            sql += " AND session_id = ?"
            args.append(session_id)
        if status is not None:
            sql += " AND status = ?"
            args.append(status)
        return [self._game_row(r) for r in self._all(sql + " ORDER BY id", *args)]

    def running_games(self) -> list[GameRow]:
        return self.games(status="running")

    def set_summary(self, game_id: int, summary: dict[str, Any]) -> None:
        """Cache the engine's summary (scores, winner) for listings and exports."""
        with self._tx() as db:
            db.execute(
                "UPDATE games SET summary = ? WHERE id = ?",
                (json.dumps(summary, ensure_ascii=False), game_id),
            )

    def end_game(self, game_id: int, status: GameStatus = "finished") -> None:
        if status == "running":
            raise StoreError("a game is ended as 'finished' or 'abandoned'")
        self.game(game_id)
        with self._tx() as db:
            db.execute(
                "UPDATE games SET status = ?, ended = ? WHERE id = ?", (status, _now(), game_id)
            )

    # -- corrections -------------------------------------------------------------------------
    def add_correction(
        self, game_id: int, x: float, y: float, size: float, read_label: str, label: str
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO corrections (game_id, x, y, size, read_label, label, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, x, y, size, read_label, label, _now()),
            )

    def corrections(self, game_id: int) -> list[Correction]:
        rows = self._all("SELECT * FROM corrections WHERE game_id = ? ORDER BY id", game_id)
        return [Correction(r["x"], r["y"], r["size"], r["read_label"], r["label"]) for r in rows]

    # -- export / import ---------------------------------------------------------------------
    def export_session(self, session_id: int) -> dict[str, Any]:
        s = self.session(session_id)
        games = []
        for g in self.games(session_id):
            journal = self.journal(g.id)
            games.append(
                {
                    "id": g.id,
                    "game": g.game,
                    "status": g.status,
                    "created": g.created,
                    "ended": g.ended,
                    "summary": g.summary,
                    "events": [e.to_json() for e in fold_journal(journal)],
                    "journal": [j.to_json() for j in journal],
                    "table": self.game_table(g.id),
                    "corrections": [
                        {
                            "x": c.x,
                            "y": c.y,
                            "size": c.size,
                            "read_label": c.read_label,
                            "label": c.label,
                        }
                        for c in self.corrections(g.id)
                    ],
                }
            )
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "session": {
                "id": s.id,
                "name": s.name,
                "created": s.created,
                "players": list(s.players),
            },
            "games": games,
        }

    def export_csv(self, session_id: int, what: Literal["events", "scores"] = "events") -> str:
        """CSV for spreadsheets: every journal row, or one row per game and player."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        s = self.session(session_id)
        if what == "scores":
            writer.writerow(["session", "game_id", "game", "status", "player", "score", "winner"])
            for g in self.games(session_id):
                summary = g.summary or {}
                scores = summary.get("scores") or {}
                winner = summary.get("winner")
                for player in s.players:
                    winners = winner if isinstance(winner, list) else [winner]
                    writer.writerow(
                        [
                            s.id,
                            g.id,
                            g.game,
                            g.status,
                            player,
                            scores.get(player, ""),
                            "yes" if player in winners else "",
                        ]
                    )
            return out.getvalue()
        writer.writerow(
            ["session", "game_id", "game", "seq", "at", "op", "source", "type", "event"]
        )
        for g in self.games(session_id):
            for j in self.journal(g.id):
                event = j.event.to_json() if j.event else None
                writer.writerow(
                    [
                        s.id,
                        g.id,
                        g.game,
                        j.seq,
                        j.at,
                        j.op,
                        j.source,
                        event["type"] if event else "",
                        json.dumps(event, ensure_ascii=False) if event else "",
                    ]
                )
        return out.getvalue()

    def import_session(
        self,
        data: str | bytes | dict[str, Any],
        validate: Callable[[list[Event]], dict[str, Any] | None] | None = None,
    ) -> int:
        """Import an export as a new session (new ids); all or nothing.

        ``validate`` replays each game's log (raising on an illegal one) and may return the
        game's summary. Nothing is written unless every game passes.
        """
        if isinstance(data, str | bytes):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise ImportFormatError(
                    f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                ) from None
        try:
            parsed = ExportFile.model_validate(data)
        except ValidationError as exc:
            raise ImportFormatError(f"not a tableref session export: {_describe(exc)}") from None
        prepared: list[tuple[ExportGame, list[JournalEntry], dict[str, Any] | None]] = []
        for index, g in enumerate(parsed.games):
            where = f"games.{index} ({g.game})"
            try:
                if g.journal is not None:
                    entries = [
                        JournalEntry(
                            j.seq,
                            j.op,
                            None if j.event is None else Event.from_json(j.event),
                            j.source,
                            j.at,
                        )
                        for j in g.journal
                    ]
                    seqs = [e.seq for e in entries]
                    if seqs != list(range(len(seqs))):
                        raise ImportFormatError(f"{where}: journal seq must run 0, 1, 2, ...")
                    if any((e.op == "event") != (e.event is not None) for e in entries):
                        raise ImportFormatError(
                            f"{where}: every 'event' row needs an event, an 'undo' row none"
                        )
                    events = fold_journal(entries)
                    if [e.to_json() for e in events] != [
                        Event.from_json(e).to_json() for e in g.events
                    ]:
                        raise ImportFormatError(f"{where}: 'events' disagrees with 'journal'")
                else:
                    events = [Event.from_json(e) for e in g.events]
                    entries = [
                        JournalEntry(i, "event", e, "import", _now()) for i, e in enumerate(events)
                    ]
                if not events or events[0].type != "setup" or events[0].get("game") != g.game:
                    raise ImportFormatError(
                        f"{where}: the log must start with a setup event for {g.game!r}"
                    )
                if g.table is not None and not isinstance(g.table.get("name"), str):
                    raise ImportFormatError(f"{where}: its table calibration has no 'name'")
                summary = validate(events) if validate is not None else g.summary
            except (LogError, ValueError) as exc:
                if isinstance(exc, ImportFormatError):
                    raise
                raise ImportFormatError(f"{where}: {exc}") from None
            prepared.append((g, entries, summary if summary is not None else g.summary))
        s = parsed.session
        sid = self.create_session(s.name, s.players, created=s.created)
        try:
            with self._tx() as db:
                for g, entries, summary in prepared:
                    cur = db.execute(
                        "INSERT INTO games (session_id, game, status, created, ended, summary) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            sid,
                            g.game,
                            g.status,
                            g.created,
                            g.ended,
                            None if summary is None else json.dumps(summary, ensure_ascii=False),
                        ),
                    )
                    gid = int(cur.lastrowid or 0)
                    if g.table is not None:
                        self._put_table(db, gid, g.table)
                    for c in g.corrections:
                        db.execute(
                            "INSERT INTO corrections (game_id, x, y, size, read_label, label, at)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (gid, c.x, c.y, c.size, c.read_label, c.label, _now()),
                        )
                    for e in entries:
                        payload = (
                            None
                            if e.event is None
                            else json.dumps(e.event.to_json(), ensure_ascii=False)
                        )
                        db.execute(
                            "INSERT INTO journal (game_id, seq, op, event, source, at) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            (gid, e.seq, e.op, payload, e.source, e.at),
                        )
        except BaseException:
            # The session row was committed first; remove it so a failed import leaves nothing.
            with self._tx() as db:
                db.execute(
                    "DELETE FROM corrections WHERE game_id IN "
                    "(SELECT id FROM games WHERE session_id = ?)",
                    (sid,),
                )
                db.execute("DELETE FROM seats WHERE session_id = ?", (sid,))
                db.execute("DELETE FROM sessions WHERE id = ?", (sid,))
            raise
        return sid
