"""The REST + WebSocket API over a table playing the stand-in game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tally
from fastapi.testclient import TestClient
from helpers import centre_tiles, frame, obj

from host.api.app import create_app
from host.device import FakeDevice
from host.referee import Table
from host.settings import Settings
from host.store import Store


@pytest.fixture
def app_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, Table, str]]:
    tally.install(monkeypatch)
    settings = Settings(data_dir=tmp_path)
    table = Table(Store(settings.db_path), FakeDevice())
    app = create_app(settings, table)
    with TestClient(app) as client:
        yield client, table, app.state.token


@pytest.fixture
def client(app_parts: tuple[TestClient, Table, str]) -> TestClient:
    c, _, token = app_parts
    c.headers["Authorization"] = f"Bearer {token}"
    return c


def _game(client: TestClient) -> dict[str, Any]:
    s = client.post("/api/sessions", json={"name": "night", "players": ["ann", "bob"]})
    assert s.status_code == 201, s.text
    g = client.post(
        f"/api/sessions/{s.json()['id']}/games", json={"game": "tally", "options": {"target": 50}}
    )
    assert g.status_code == 201, g.text
    return g.json()


def test_token_is_made_once_and_kept(
    tmp_path: Path, app_parts: tuple[TestClient, Table, str]
) -> None:
    _, _, token = app_parts
    path = tmp_path / "token"
    assert path.read_text().strip() == token
    assert path.stat().st_mode & 0o077 == 0
    assert create_app(Settings(data_dir=tmp_path), app_parts[1]).state.token == token


def test_every_mutating_route_needs_the_token(app_parts: tuple[TestClient, Table, str]) -> None:
    client, _, _ = app_parts
    schema = client.app.openapi()  # type: ignore[attr-defined]
    mutating = [
        (method.upper(), path)
        for path, ops in schema["paths"].items()
        for method in ops
        if method in {"post", "put", "patch", "delete"}
    ]
    assert len(mutating) >= 10
    for method, path in mutating:
        url = re.sub(r"\{[^}]+\}", "1", path)
        missing = client.request(method, url, json={})
        assert missing.status_code == 401, (method, path)
        assert "needs the table's token" in missing.json()["detail"]
        wrong = client.request(method, url, json={}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403, (method, path)
    assert client.get("/api/sessions").status_code == 200  # reading needs no token


def test_a_game_through_the_api(
    client: TestClient, app_parts: tuple[TestClient, Table, str]
) -> None:
    _, table, _ = app_parts
    game = _game(client)
    gid = game["game_id"]
    assert game["players"] == ["ann", "bob"] and game["turn"] == "ann"
    r = client.post(
        f"/api/games/{gid}/events", json={"event": {"type": "point", "player": "ann", "points": 4}}
    )
    assert r.status_code == 201 and r.json()["summary"]["scores"]["ann"] == 4
    bad = client.post(
        f"/api/games/{gid}/events", json={"event": {"type": "point", "player": "ann", "points": 4}}
    )
    assert bad.status_code == 400 and "it is bob's turn" in bad.json()["detail"]
    # the camera feeds the active game; a flagged read is corrected, then done scores it
    ref = table.referee()
    for _ in range(3):
        ref.feed(frame(*centre_tiles("k1", "k2"), obj("k3", 500, 375, conf=0.2, alts=["k8"])))
    cur = client.get("/api/games/current").json()
    flagged = [o for o in cur["table"]["objects"] if o["flag"]]
    assert len(flagged) == 1
    oid = flagged[0]["id"]
    assert client.get(f"/api/games/{gid}/objects/{oid}/suggestions").json()[:2] == ["k3", "k8"]
    refused = client.post(f"/api/games/{gid}/triggers", json={"name": "done"})
    assert refused.status_code == 400 and "flagged" in refused.json()["detail"]
    assert (
        client.post(
            f"/api/games/{gid}/corrections", json={"object_id": oid, "label": "k8"}
        ).status_code
        == 200
    )
    done = client.post(f"/api/games/{gid}/triggers", json={"name": "done"})
    assert done.json()["summary"]["scores"] == {"ann": 4, "bob": 11}
    assert client.get(f"/api/games/{gid}/scores").json()["scores"] == {"ann": 4, "bob": 11}
    undo = client.post(f"/api/games/{gid}/undo")
    assert undo.json()["undone"]["points"] == 11
    ev = client.get(f"/api/games/{gid}/events").json()
    assert len(ev["events"]) == 2 and [j["op"] for j in ev["journal"]][-1] == "undo"
    t = client.post(f"/api/games/{gid}/timer", json={"action": "start"})
    assert t.json()["running"] and t.json()["seconds"] == 60
    hist = client.get("/api/players/ann/history").json()
    assert hist["games"][0]["score"] == 4
    assert client.post(f"/api/games/{gid}/end", json={}).json()["status"] == "abandoned"
    closed = client.post(f"/api/games/{gid}/undo")
    assert closed.status_code == 400 and "is abandoned" in closed.json()["detail"]


def test_errors_name_the_problem(client: TestClient) -> None:
    assert client.get("/api/sessions/99").json()["detail"] == "no session 99"
    assert client.get("/api/games/current").json()["detail"] == "no game is running at this table"
    r = client.post("/api/sessions", json={"players": ["ann", "ann"]})
    assert r.status_code == 400 and "seated twice" in r.json()["detail"]
    r = client.post("/api/sessions", json={"players": ["ann"], "colour": "red"})
    assert r.status_code == 422 and "colour" in r.text
    s = client.post("/api/sessions", json={"players": ["ann", "bob"]}).json()
    r = client.post(f"/api/sessions/{s['id']}/games", json={"game": "chess"})
    assert r.status_code == 400 and "unknown game 'chess'" in r.json()["detail"]
    r = client.post(
        f"/api/sessions/{s['id']}/games", json={"game": "tally", "options": {"target": []}}
    )
    assert r.status_code == 400 and "cannot start tally" in r.json()["detail"]
    r = client.post("/api/sessions/import", json={"format": "zip"})
    assert r.status_code == 422 and "version" in r.text and "tableref-session" in r.text
    assert client.get("/api/frame.jpg").status_code == 404


def test_export_and_import(client: TestClient) -> None:
    game = _game(client)
    gid, sid = game["game_id"], game["session_id"]
    client.post(
        f"/api/games/{gid}/events", json={"event": {"type": "point", "player": "ann", "points": 4}}
    )
    doc = client.get(f"/api/sessions/{sid}/export").json()
    csv = client.get(f"/api/sessions/{sid}/export", params={"format": "csv", "what": "scores"})
    assert csv.headers["content-type"].startswith("text/csv")
    assert "ann,4," in csv.text
    imported = client.post("/api/sessions/import", json=doc)
    assert imported.status_code == 201, imported.text
    assert imported.json()["players"] == ["ann", "bob"]
    doc["games"][0]["events"].append({"type": "point", "player": "ann", "points": 1})
    doc["games"][0]["journal"] = None
    bad = client.post("/api/sessions/import", json=doc)
    assert bad.status_code == 400 and "it is bob's turn, not ann's" in bad.json()["detail"]


def test_websocket_pushes_changes(client: TestClient) -> None:
    game = _game(client)
    with client.websocket_connect("/api/ws") as ws:
        hello = ws.receive_json()
        assert hello["kind"] == "hello" and hello["snapshot"]["game_id"] == game["game_id"]
        client.post(
            f"/api/games/{game['game_id']}/events",
            json={"event": {"type": "point", "player": "ann", "points": 2}},
        )
        msg = ws.receive_json()
        while msg["kind"] != "event":
            msg = ws.receive_json()
        assert msg["snapshot"]["summary"]["scores"]["ann"] == 2


def test_frame_with_overlay(client: TestClient, app_parts: tuple[TestClient, Table, str]) -> None:
    import cv2
    import numpy as np

    _game(client)
    image = np.full((750, 1000, 3), 90, np.uint8)
    app_parts[1].referee().feed(frame(*centre_tiles("r1")), image)
    r = client.get("/api/frame.jpg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    decoded = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (750, 1000, 3)
    plain = cv2.imdecode(
        np.frombuffer(client.get("/api/frame.jpg?overlay=false").content, np.uint8),
        cv2.IMREAD_COLOR,
    )
    assert np.abs(decoded.astype(int) - plain.astype(int)).max() > 100  # the box is drawn
