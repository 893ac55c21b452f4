"""The SQLite store: append-only journal, undo markers, export/import, settings."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from host.rules.base import Event
from host.settings import Settings
from host.store import ImportFormatError, Store, StoreError


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "t.sqlite3")


def _game(store: Store) -> tuple[int, int]:
    sid = store.create_session("friday", ["ann", "bob"])
    gid = store.create_game(sid, Event.of("setup", game="tally", players=["ann", "bob"]))
    return sid, gid


def test_wal_mode_and_schema(store: Store) -> None:
    assert store.path is not None
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_events_fold_undo_markers_and_survive_reopen(store: Store, tmp_path: Path) -> None:
    _, gid = _game(store)
    store.append(gid, Event.of("score", player="ann", points=3), source="camera")
    store.append(gid, Event.of("score", player="bob", points=1))
    store.append_undo(gid, source="dashboard")
    store.append(gid, Event.of("score", player="bob", points=2))
    store.close()
    again = Store(tmp_path / "t.sqlite3")
    events = again.events(gid)
    assert [e.get("points") for e in events] == [None, 3, 2]
    journal = again.journal(gid)
    assert [j.op for j in journal] == ["event", "event", "event", "undo", "event"]
    assert journal[1].source == "camera"
    assert [g.id for g in again.running_games()] == [gid]


def test_undo_never_removes_setup(store: Store) -> None:
    _, gid = _game(store)
    store.append_undo(gid)
    assert [e.type for e in store.events(gid)] == ["setup"]


def test_journal_is_append_only_in_the_database(store: Store) -> None:
    _, _gid = _game(store)
    assert store.path is not None
    db = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM journal")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE journal SET op = 'undo'")


def test_ended_game_refuses_events(store: Store) -> None:
    _, gid = _game(store)
    store.end_game(gid)
    with pytest.raises(StoreError, match="finished"):
        store.append(gid, Event.of("score", player="ann", points=1))
    assert store.running_games() == []


def test_errors_name_the_problem(store: Store) -> None:
    with pytest.raises(StoreError, match="no session 9"):
        store.session(9)
    with pytest.raises(StoreError, match="no game 4"):
        store.append(4, Event.of("x"))
    with pytest.raises(StoreError, match="'ann' is seated twice"):
        store.create_session("x", ["ann", "ann"])
    with pytest.raises(StoreError, match="needs a name"):
        store.add_player("   ")


def test_export_import_round_trip(store: Store, tmp_path: Path) -> None:
    sid, gid = _game(store)
    store.append(gid, Event.of("score", player="ann", points=3))
    store.append_undo(gid)
    store.add_correction(gid, 500.0, 375.0, 40.0, "k5", "k6")
    store.set_summary(gid, {"scores": {"ann": 0, "bob": 0}, "winner": None, "finished": False})
    exported = store.export_session(sid)
    assert exported["games"][0]["corrections"][0]["label"] == "k6"
    other = Store(tmp_path / "other.sqlite3")
    new_sid = other.import_session(json.dumps(exported))
    again = other.export_session(new_sid)
    for doc in (exported, again):
        doc["session"].pop("id")
        for g in doc["games"]:
            g.pop("id")
    assert again == exported
    assert other.session(new_sid).players == ("ann", "bob")


def test_csv_exports(store: Store) -> None:
    sid, gid = _game(store)
    store.append(gid, Event.of("score", player="ann", points=3))
    store.set_summary(gid, {"scores": {"ann": 3, "bob": 0}, "winner": "ann", "finished": True})
    rows = list(csv.DictReader(io.StringIO(store.export_csv(sid))))
    assert [r["type"] for r in rows] == ["setup", "score"]
    assert json.loads(rows[1]["event"]) == {"type": "score", "player": "ann", "points": 3}
    scores = list(csv.DictReader(io.StringIO(store.export_csv(sid, "scores"))))
    assert [(r["player"], r["score"], r["winner"]) for r in scores] == [
        ("ann", "3", "yes"),
        ("bob", "0", ""),
    ]


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("{not json", "not JSON"),
        ('{"format": "zip"}', "format"),
        ({"format": "tableref-session", "version": 1, "session": {}, "games": []}, "session.id"),
    ],
)
def test_malformed_imports_are_refused_and_leave_nothing(
    store: Store, doc: object, message: str
) -> None:
    before = store.sessions()
    with pytest.raises(ImportFormatError, match=message):
        store.import_session(doc)  # type: ignore[arg-type]
    assert store.sessions() == before


def test_import_with_illegal_log_leaves_nothing(store: Store) -> None:
    sid, _gid = _game(store)
    doc = store.export_session(sid)
    doc["games"][0]["events"][0]["game"] = "other"
    doc["games"][0]["journal"] = None
    with pytest.raises(ImportFormatError, match="setup event for 'tally'"):
        store.import_session(doc)

    def refuse(events: list[Event]) -> None:
        raise ValueError("event 1 is not legal: bob is not seated")

    doc = store.export_session(sid)
    with pytest.raises(ImportFormatError, match=r"games.0 \(tally\): event 1 is not legal"):
        store.import_session(doc, validate=refuse)
    assert len(store.sessions()) == 1


def test_settings_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text('port = 9001\nstable_frames = 5\ndata_dir = "/tmp/x"\n')
    monkeypatch.setenv("TABLEREF_CONFIG", str(config))
    monkeypatch.setenv("TABLEREF_STABLE_FRAMES", "7")
    s = Settings(data_dir=tmp_path)
    assert (s.port, s.stable_frames, s.data_dir) == (9001, 7, tmp_path)
    config.write_text("prot = 9001\n")
    with pytest.raises(ValueError, match="prot"):
        Settings()
