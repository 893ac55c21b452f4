"""Real-table sessions: nobody knows the deck, so the engines run in table mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.demo.layout import groups_in_rows
from host.demo.scripts import frames
from host.device import FakeDevice
from host.referee import Referee, RefereeError, Table
from host.rules.base import Event
from host.store import Store
from host.table.reads import FrameRead


def show(ref: Referee, sets: list[list[str]]) -> None:
    for step in frames(groups_in_rows(sets, 20, 720, 28, 40)):
        ref.feed(FrameRead.model_validate(step["frame"]))


def test_rummikub_on_a_real_table_to_the_scores(tmp_path: Path) -> None:
    device = FakeDevice()
    table = Table(Store(tmp_path / "t.sqlite3"), device)
    sid = table.store.create_session("night", ["ann", "bob"])
    ref = table.start_game(sid, "rummikub", real_table=True)
    assert "pool" not in table.store.events(ref.game_id)[0].data
    first = [["r10", "r11", "r12"], ["k1", "k2", "k3", "k4"]]
    show(ref, first)
    device.press("done")
    assert device.state is not None and device.state.message == "OK"
    device.press("done")  # bob: the table unchanged, he draws an unseen tile
    assert table.store.events(ref.game_id)[-1].type == "draw"
    show(ref, [*first, ["b5", "b6", "b7", "b8"], ["o9", "b9", "k9"]])
    device.press("done")  # ann's rack is empty: the game waits for the racks
    assert ref.summary()["turn"] is None and not ref.summary()["finished"]
    assert ref.summary()["awaiting"] == "racks"
    bob = ["r3", "J", "k13", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o10", "o11", "o12"]
    with pytest.raises(RefereeError, match="bob's rack holds 15 tiles, 14 were entered"):
        ref.apply(Event.of("racks", racks={"ann": [], "bob": bob}))
    ref.apply(Event.of("racks", racks={"ann": [], "bob": [*bob, "o13"]}))
    penalty = 3 + 30 + 13 + sum(range(1, 9)) + 10 + 11 + 12 + 13
    assert ref.summary()["scores"] == {"ann": penalty, "bob": -penalty}
    assert ref.summary()["winner"] == "ann"


def test_allin_on_a_real_table_to_the_scores(tmp_path: Path) -> None:
    from host.demo.layout import row, seat_point
    from host.rules.allin import summary
    from host.rules.allin_bot import play_game
    from tests.test_allin_tablemode import showdowns

    players = ["ann", "bob", "cy"]
    truth = play_game(players, 5)
    table = Table(Store(tmp_path / "t.sqlite3"), FakeDevice())
    sid = table.store.create_session("night", players)
    ref = table.start_game(sid, "allin", real_table=True)
    assert "deck" not in table.store.events(ref.game_id)[0].data
    for number, shown in enumerate(showdowns(truth)):
        layout = []
        for seat, player in enumerate(players):  # each hand laid open in its seat zone
            cx, cy = seat_point(seat, len(players), 0.4)
            layout += row(shown["hands"][player], cx, cy, 26, 36, 4)
        for step in frames(layout):
            ref.feed(FrameRead.model_validate(step["frame"]))
        if number == 0:
            with pytest.raises(RefereeError, match="enter each prediction"):
                ref.trigger("showdown", {})
        data = {"predictions": shown["predictions"], "runes": shown.get("runes")}
        ref.trigger("showdown", data)
        if number == 0:  # withdrawn and entered again: the same round 2 follows
            ref.undo()
            assert ref.summary()["rounds"] == [] and ref.summary()["round"] == 1
            ref.trigger("showdown", data)
    want = summary(truth.state)
    assert ref.summary()["scores"] == want["scores"]
    assert ref.summary()["winner"] == want["winner"] and ref.summary()["finished"]


def test_cactus_on_a_real_table_to_the_winner(tmp_path: Path) -> None:
    from tests.helpers import frame, obj

    device = FakeDevice()
    table = Table(Store(tmp_path / "t.sqlite3"), device)
    sid = table.store.create_session("night", ["ann", "bob"])
    ref = table.start_game(sid, "cactus", real_table=True)
    assert "deck" not in table.store.events(ref.game_id)[0].data
    pile: list[str] = []

    def discard(*cards: str) -> None:  # cards laid on the pile, seen by the camera
        pile.extend(cards)
        objects = [
            obj(c, 280 + 36 * (i % 12), 330 + 60 * (i // 12), size=30) for i, c in enumerate(pile)
        ]
        ref.feed(frame(hand=True))
        for _ in range(3):
            ref.feed(frame(*objects))

    discard("walter", "walter", "wild")  # ann's set: 3 score cards, her turn ends
    device.press("done")  # bob draws
    device.press("done")  # ann draws (2 cards left, so 1)
    device.press("done")  # bob draws
    discard("walter", "walter", "walter")  # ann: 3 more, her hand is empty
    device.press("done")  # bob draws
    discard("free_point")  # but ann holds no card: refused, said on the device
    assert "ann holds 0 card(s)" in ref.message and ref.state.pending is None
    pile.pop()
    discard()
    ref.trigger("draw", {"count": 3})  # ann began her turn empty-handed: draws 3
    device.press("done")  # bob draws
    discard("free_point")
    assert ref.state.pending is not None
    device.press("done")  # nobody nopes: it resolves, ann gains her 7th score card
    summary = ref.summary()
    assert summary["finished"] and summary["winner"] == "ann"
    assert summary["scores"] == {"ann": 7, "bob": 0}


def test_the_api_starts_a_real_table_game_in_table_mode(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from host.api.app import create_app
    from host.settings import Settings

    settings = Settings(data_dir=tmp_path)
    table = Table(Store(settings.db_path), FakeDevice())
    app = create_app(settings, table)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {app.state.token}"
        sid = client.post("/api/sessions", json={"players": ["ann", "bob"]}).json()["id"]
        body = {"game": "rummikub", "real_table": True}
        assert client.post(f"/api/sessions/{sid}/games", json=body).status_code == 201
        assert table.referee().state.table_mode
        body = {"game": "cactus"}  # without it: a shuffle is drawn and recorded
        assert client.post(f"/api/sessions/{sid}/games", json=body).status_code == 201
        assert not table.referee().state.table_mode


def test_a_script_can_start_a_real_table_game(tmp_path: Path) -> None:
    from host.script import ScriptPlayer

    table = Table(Store(tmp_path / "t.sqlite3"), FakeDevice())
    start = {"session": "n", "players": ["ann", "bob"], "game": "allin", "real_table": True}
    steps: list[dict[str, object]] = [{"start": start}]
    referee = ScriptPlayer(table, steps).play()
    assert referee.state.table_mode and referee.state.phase == "showdown"


# Every option the dashboard's start form offers, at a value other than the engine's default.
FORM_OPTIONS = {
    "rummikub": {"timer_seconds": 45, "strict_penalty": True, "mirror_value": "zero"},
    "allin": {"side": "B", "enchanted_discard": True, "heirs_of_the_prophets": True},
    "allin:closed": {"closed_minds_eye": True},  # the other discard variant (one at a time)
    "fourcolor": {"hands": 3, "threshold": 12, "self_drawn": "exposed"},
    "cactus": {},
}  # fmt: skip


@pytest.mark.parametrize("game", list(FORM_OPTIONS))
def test_the_start_form_starts_every_game_on_a_real_table(
    game: str, tmp_path: Path, repo: Path
) -> None:
    """The form's options (host/api/static/app.js) are the ones each engine takes."""
    import re

    from fastapi.testclient import TestClient

    from host.api.app import create_app
    from host.settings import Settings

    script = (repo / "host/api/static/app.js").read_text()
    options = FORM_OPTIONS[game]
    game = game.split(":")[0]
    block = re.search(rf"^  {game}: \[(.*?)\],?$", script, re.S | re.M)
    assert block is not None, f"the start form offers no options list for {game}"
    for key in options:  # a field of its own, or a choice of a select sent as its flag
        assert f'"{key}"' in block.group(1), f"the start form does not offer {key}"

    settings = Settings(data_dir=tmp_path)
    table = Table(Store(settings.db_path), FakeDevice())
    app = create_app(settings, table)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {app.state.token}"
        sid = client.post("/api/sessions", json={"players": ["ann", "bob", "cy"]}).json()["id"]
        body = {"game": game, "options": options, "real_table": True}
        started = client.post(f"/api/sessions/{sid}/games", json=body)
        assert started.status_code == 201, started.text
        setup = table.store.events(table.referee().game_id)[0]
        assert setup["players"] == ["ann", "bob", "cy"]
        assert (setup.get("options") or {}) == options
        assert not {"deck", "pool"} & set(setup.data)  # nobody knows the shuffle
