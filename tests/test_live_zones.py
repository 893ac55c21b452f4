"""The live referee places objects by a chosen table calibration (issue 7, zones): each seat's
hand zone is that player's, the game's shared zone is the centre, all in table millimetres on
a generated table seen through a tilted camera; the calibration is recorded with the game (a
restart places objects the same way), a zone the game needs and the calibration lacks is
named, and without a table the image sectors stay the default."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from host.api.app import build_table, create_app
from host.device import FakeDevice
from host.referee import Referee, RefereeError, Table
from host.settings import Settings
from host.store import ImportFormatError, Store
from host.table.reads import FrameRead
from vision import calibrate as cal
from vision.synth_table import CalibrationScene, render_calibration_scene

W, H = 900.0, 600.0  # the generated table, mm
IMAGE = (1280, 960)


@pytest.fixture(scope="module")
def scene() -> CalibrationScene:
    # Seed 5 tilts the view: the table is no rectangle in the image.
    return render_calibration_scene(np.random.default_rng(5), width_mm=W, height_mm=H, tilt=0.2)


def _calibration(scene: CalibrationScene, *zones: cal.Zone, seats: int = 3) -> cal.TableCalibration:
    found = cal.from_markers("home", scene.image, W, H, zones=cal.default_zones(seats))
    for zone in zones:
        found = found.with_zone(zone)
    return found


def card(scene: CalibrationScene, label: str, x_mm: float, y_mm: float) -> dict[str, Any]:
    """A 56 x 87 mm card lying square at (x, y) on the table, as the camera sees it."""
    w, h = 28.0, 43.5
    corners = np.array([[x_mm - w, y_mm - h], [x_mm + w, y_mm - h], [x_mm + w, y_mm + h],
                        [x_mm - w, y_mm + h]])  # fmt: skip
    quad = scene.true_to_image(corners)
    return {"label": label, "confidence": 0.99, "quad": quad.tolist()}


def frame(*objects: dict[str, Any], size: tuple[int, int] = IMAGE) -> FrameRead:
    return FrameRead.model_validate({"objects": list(objects), "width": size[0], "height": size[1]})


def settle(ref: Referee, *objects: dict[str, Any], size: tuple[int, int] = IMAGE) -> None:
    for _ in range(3):
        ref.feed(frame(*objects, size=size))


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(Store(tmp_path / "t.sqlite3"), FakeDevice(), tables_dir=tmp_path)


PLAYERS = ["ann", "bob", "cleo"]
# default_zones(3): seat1 along the bottom edge, seat2 the left edge, seat3 the top edge.
HANDS = {
    "ann": [("2c", 150, 540), ("3c", 450, 545), ("4c", 750, 540)],
    "bob": [("5c", 60, 200), ("6c", 70, 420)],
    # Top-left of the table: seat 3's zone, though its angle from the middle of the image
    # falls in the image sector of seat 2.
    "cleo": [("7c", 110, 60), ("8c", 260, 55)],
}
DISPLAY = [("9c", 560, 260), ("Tc", 640, 330)]  # inside the allin_display zone
STRAY = ("Jc", 300, 300)  # the centre of the table, but not the display


def _allin_cards(scene: CalibrationScene) -> list[dict[str, Any]]:
    laid = [c for cards in HANDS.values() for c in cards] + [*DISPLAY, STRAY]
    return [card(scene, label, x, y) for label, x, y in laid]


def _start(at: Table, game: str = "allin", table: str | None = None) -> Referee:
    sid = at.store.create_session("night", PLAYERS)
    return at.start_game(sid, game, real_table=True, table=table)


def test_cards_are_placed_by_the_calibrated_zones(scene: CalibrationScene, table: Table) -> None:
    display = cal.Zone.rect("allin_display", 0.55, 0.35, 0.78, 0.65)
    cal.save(_calibration(scene, display), table.tables_dir)
    ref = _start(table, table="home")
    settle(ref, *_allin_cards(scene))
    hands = {p: sorted(labels) for p, labels in ref.facts["hands"].items()}
    assert hands == {p: sorted(c[0] for c in cards) for p, cards in HANDS.items()}
    # The display zone is the All In display; a card elsewhere in the centre is neither.
    assert sorted(ref.facts["display"]) == ["9c", "Tc"]
    snap = ref.snapshot()["table"]
    assert snap["calibration"]["table"] == "home"
    assert snap["calibration"]["zones"] == {
        "ann": "seat1", "bob": "seat2", "cleo": "seat3", "centre": "allin_display"
    }  # fmt: skip
    where = {o["label"]: o for o in snap["objects"]}
    assert where["7c"]["zone"] == "cleo" and where["9c"]["zone"] == "centre"
    assert where["Jc"]["zone"] is None and where["Jc"]["table_zone"] == "centre"
    assert np.allclose(where["8c"]["centre_mm"], [260, 55], atol=1.5)


def test_without_a_table_the_image_sectors_stay_the_default(
    scene: CalibrationScene, table: Table
) -> None:
    cal.save(_calibration(scene), table.tables_dir)
    ref = _start(table)  # no table named, none by default
    settle(ref, *_allin_cards(scene))
    assert ref.snapshot()["table"]["calibration"]["layout"] == "sectors"
    # The sectors put the top-left card in seat 2's hands: what the calibration corrects.
    assert "7c" in ref.facts["hands"]["bob"]
    assert ref.facts["display"]  # the middle box of the image


def test_a_player_named_zone_takes_the_place_of_the_seat_number(
    scene: CalibrationScene, table: Table
) -> None:
    corner = cal.Zone.rect("cleo", 0.0, 0.0, 0.4, 0.22)  # only the top-left corner is hers
    cal.save(_calibration(scene, corner), table.tables_dir)
    ref = _start(table, table="home")
    settle(ref, *_allin_cards(scene))
    assert sorted(ref.facts["hands"]["cleo"]) == ["7c", "8c"]
    assert ref.snapshot()["table"]["calibration"]["zones"]["cleo"] == "cleo"


def test_a_zone_the_game_needs_and_the_table_lacks_is_named(
    scene: CalibrationScene, table: Table
) -> None:
    cal.save(_calibration(scene, seats=2), table.tables_dir)  # seat1, seat2, centre
    with pytest.raises(RefereeError) as err:
        _start(table, table="home")
    message = str(err.value)
    assert "table 'home' lacks zones this allin game needs: seat3 or cleo (cleo's hand)" in message
    assert "tableref calibrate zone NAME X0 Y0 X1 Y1 --table home" in message
    assert table.store.games() == []  # refused before anything was stored
    no_pile = _calibration(scene).without_zone("centre")
    cal.save(no_pile, table.tables_dir)
    shared = r"the shared area \(discard or discard_pile or centre\)"
    with pytest.raises(RefereeError, match=shared):
        _start(table, game="cactus", table="home")
    with pytest.raises(RefereeError, match="no calibration for table 'nowhere'"):
        _start(table, table="nowhere")
    # Rummikub's sets lie anywhere on the table: it needs no zone at all.
    bare = cal.from_markers("bare", scene.image, W, H)
    cal.save(bare, table.tables_dir)
    assert _start(table, game="rummikub", table="bare").adapter.layout.table == "bare"


def test_a_restart_places_objects_by_the_calibration_recorded_with_the_game(
    scene: CalibrationScene, table: Table, tmp_path: Path
) -> None:
    display = cal.Zone.rect("allin_display", 0.55, 0.35, 0.78, 0.65)
    cal.save(_calibration(scene, display), table.tables_dir)
    ref = _start(table, table="home")
    settle(ref, *_allin_cards(scene))
    before = ref.facts
    # The file changes after the game started (zones swapped): the game keeps its own.
    swapped = _calibration(scene, cal.Zone.rect("allin_display", 0.3, 0.3, 0.4, 0.4))
    cal.save(swapped.without_zone("seat3"), table.tables_dir)
    table.store.close()
    again = Table(Store(tmp_path / "t.sqlite3"), FakeDevice(), tables_dir=tmp_path)
    assert again.resume() == [ref.game_id]
    resumed = again.referee(ref.game_id)
    settle(resumed, *_allin_cards(scene))
    assert resumed.facts == before
    assert resumed.snapshot()["table"]["calibration"]["table"] == "home"
    # The export carries it too, and an import keeps it with the game.
    exported = again.store.export_session(resumed.row.session_id)
    assert exported["games"][0]["table"]["zones"][-1]["name"] == "allin_display"
    sid = again.store.import_session(exported)
    (imported,) = again.store.games(sid)
    assert again.store.game_table(imported.id) == exported["games"][0]["table"]
    nameless = {**exported["games"][0]["table"], "name": None}
    broken = {**exported, "games": [{**exported["games"][0], "table": nameless}]}
    with pytest.raises(ImportFormatError, match=r"games.0 \(allin\): its table calibration"):
        again.store.import_session(broken)
    assert len(again.store.sessions()) == 2  # nothing of the refused import was kept


def test_frames_of_another_aspect_ratio_are_refused_by_name(
    scene: CalibrationScene, table: Table
) -> None:
    cal.save(_calibration(scene, cal.Zone.rect("discard", 0.4, 0.4, 0.6, 0.6)), table.tables_dir)
    ref = _start(table, game="cactus", table="home")
    settle(ref, card(scene, "nope", 450, 300), size=(1280, 720))
    assert "another aspect ratio" in ref.message and ref.facts == {}
    assert "another aspect ratio" in ref.snapshot()["table"]["calibration"]["error"]
    assert len(ref.game) == 1  # nothing decided from frames it cannot place
    with pytest.raises(RefereeError, match="another aspect ratio"):
        ref.trigger("draw")  # nor from a button: the table is unknown, not empty
    assert len(ref.game) == 1
    # The same camera at half resolution scales: the card is on the pile.
    half = card(scene, "nope", 450, 300)
    half["quad"] = [[x / 2, y / 2] for x, y in half["quad"]]
    settle(ref, half, size=(640, 480))
    assert ref.facts["discard"] == ["nope"]
    assert ref.snapshot()["table"]["calibration"]["error"] is None


def test_four_color_rows_are_found_from_a_side_seat_in_table_millimetres(
    scene: CalibrationScene, table: Table
) -> None:
    cal.save(_calibration(scene), table.tables_dir)
    ref = _start(table, game="fourcolor", table="home")
    # bob sits at the left edge: his hand runs down that edge, a meld beside it further in.
    hand = [card(scene, t, 50, 150 + 60 * k) for k, t in enumerate(["r1", "r2", "r3", "g4"])]
    meld = [card(scene, t, 160, 220 + 60 * k) for k, t in enumerate(["w5", "w5", "w5"])]
    win = card(scene, "y7", 450, 300)
    settle(ref, *hand, *meld, win)
    seat = ref.facts["seats"]["bob"]
    assert sorted(seat["hand"]) == ["g4", "r1", "r2", "r3"]
    assert seat["exposed"] == [["w5", "w5", "w5"]]
    assert ref.facts["centre"] == ["y7"]


def test_rummikub_counts_tiles_on_the_table_only(scene: CalibrationScene, table: Table) -> None:
    cal.save(cal.from_markers("bare", scene.image, W, H), table.tables_dir)
    ref = _start(table, game="rummikub", table="bare")
    row = [card(scene, t, 300 + 58 * k, 300) for k, t in enumerate(["r5", "r6", "r7"])]
    off = card(scene, "k9", -70, 300)  # beside the table's left edge: a rack, not a set
    settle(ref, *row, off)
    assert ref.facts["sets"] == [["r5", "r6", "r7"]]


@pytest.fixture
def api(tmp_path: Path, scene: CalibrationScene) -> Iterator[tuple[TestClient, dict[str, str]]]:
    cal.save(_calibration(scene, cal.Zone.rect("discard", 0.4, 0.4, 0.6, 0.6)), tmp_path)
    settings = Settings(data_dir=tmp_path, table="home", device="none")
    app = create_app(settings, build_table(settings, FakeDevice()))
    with TestClient(app) as client:
        yield client, {"Authorization": f"Bearer {app.state.token}"}


def test_api_games_use_the_default_table_or_the_one_named(
    api: tuple[TestClient, dict[str, str]],
) -> None:
    client, auth = api
    sid = client.post("/api/sessions", json={"players": PLAYERS}, headers=auth).json()["id"]
    url = f"/api/sessions/{sid}/games"
    game = {"game": "cactus", "real_table": True}
    r = client.post(url, json=game, headers=auth)
    assert r.status_code == 201 and r.json()["table"]["calibration"]["table"] == "home"
    r = client.post(url, json={**game, "table": ""}, headers=auth)
    assert r.status_code == 201 and r.json()["table"]["calibration"]["layout"] == "sectors"
    r = client.post(url, json={**game, "table": "nowhere"}, headers=auth)
    assert r.status_code == 400 and "no calibration for table 'nowhere'" in r.json()["detail"]


def test_clicking_the_corners_again_updates_the_running_game(
    api: tuple[TestClient, dict[str, str]], scene: CalibrationScene, tmp_path: Path
) -> None:
    client, auth = api
    sid = client.post("/api/sessions", json={"players": PLAYERS}, headers=auth).json()["id"]
    gid = client.post(
        f"/api/sessions/{sid}/games", json={"game": "cactus", "real_table": True}, headers=auth
    ).json()["game_id"]
    corners = [[100.0, 80.0], [1100.0, 90.0], [1120.0, 860.0], [80.0, 850.0]]
    body = {"corners": corners, "width_mm": 1000, "height_mm": 800, "image_size": list(IMAGE)}
    r = client.put("/api/tables/home", json=body, headers=auth)
    assert r.status_code == 200 and r.json()["games"] == {str(gid): "ok"}
    store = Store(tmp_path / "tableref.sqlite3")
    stored = store.game_table(gid)
    assert stored is not None and stored["image_corners"] == corners
    assert [z["name"] for z in stored["zones"]][-1] == "discard"  # zones kept


def test_corners_clicked_with_seats_lay_out_the_zones_a_game_needs(
    api: tuple[TestClient, dict[str, str]], tmp_path: Path
) -> None:
    client, auth = api
    corners = [[100.0, 80.0], [1100.0, 90.0], [1120.0, 860.0], [80.0, 850.0]]
    body = {"corners": corners, "width_mm": 1000, "height_mm": 800, "image_size": list(IMAGE)}
    r = client.put("/api/tables/fresh", json={**body, "seats": 3}, headers=auth)
    assert r.status_code == 200, r.text
    assert [z["name"] for z in r.json()["zones"]] == ["seat1", "seat2", "seat3", "centre"]
    sid = client.post("/api/sessions", json={"players": PLAYERS}, headers=auth).json()["id"]
    game = {"game": "allin", "real_table": True, "table": "fresh"}
    r = client.post(f"/api/sessions/{sid}/games", json=game, headers=auth)
    assert r.status_code == 201 and r.json()["table"]["calibration"]["zones"]["cleo"] == "seat3"
    # Two seats now: the running game keeps its own calibration, and the reply says why.
    r = client.put("/api/tables/fresh", json={**body, "seats": 2}, headers=auth)
    gid = str(client.get("/api/games/current").json()["game_id"])
    assert r.status_code == 200 and "seat3 or cleo" in r.json()["games"][gid]
    r = client.put("/api/tables/fresh", json={**body, "seats": 7}, headers=auth)
    assert r.status_code == 422
