"""The command line side of live zones: ``tableref calibrate check`` says before game night
whether a game can be placed by a table's zones, ``run``/``serve --table`` refuse a table with
no calibration, and a recorded script places objects by the table it names (or the sectors)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.store import Store
from tests.cli_helpers import tableref
from vision import calibrate as cal

Capsys = pytest.CaptureFixture[str]
CORNERS = [(100, 80), (900, 80), (900, 700), (100, 700)]


def _save(root: Path, seats: int = 3) -> cal.TableCalibration:
    c = cal.from_corners("home", CORNERS, 900, 600, image_size=(1000, 750))
    c = c.with_zone(cal.Zone.rect("discard", 0.4, 0.4, 0.6, 0.6))
    for zone in cal.default_zones(seats):
        c = c.with_zone(zone)
    cal.save(c, root)
    return c


def test_calibrate_check_names_each_zone_or_what_is_missing(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _save(tmp_path, seats=2)
    dd = ("--table", "home", "--data-dir", str(tmp_path))
    r = tableref(capsys, monkeypatch, "calibrate", "check", "cactus", "--players", "Ann,Bob", *dd)
    assert r.code == 0, r.err
    assert "centre: zone discard" in r.out  # the pile: the discard zone, not the centre
    r = tableref(
        capsys, monkeypatch, "calibrate", "check", "allin", "--players", "Ann,Bob", "--json", *dd
    )
    assert r.json()["zones"] == {"Ann": "seat1", "Bob": "seat2", "centre": "centre"}
    r = tableref(capsys, monkeypatch, "calibrate", "check", "allin", "--players", "A,B,C", *dd)
    assert r.code == 2 and "seat3 or C (C's hand)" in r.err
    r = tableref(capsys, monkeypatch, "calibrate", "check", "chess", "--players", "A,B", *dd)
    assert r.code == 2 and "unknown game 'chess'" in r.err


@pytest.mark.parametrize("command", ["serve", "run"])
def test_run_and_serve_refuse_a_table_with_no_calibration(
    command: str, tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = (command, "--table", "nowhere", "--data-dir", str(tmp_path), "--device", "none")
    r = tableref(capsys, monkeypatch, *args)
    assert r.code == 2 and "no calibration for table 'nowhere'" in r.err


def _script(path: Path, table: object | None) -> Path:
    start: dict[str, object] = {
        "session": path.stem, "players": ["Ann", "Bob"], "game": "cactus", "real_table": True
    }  # fmt: skip
    if table is not None:
        start["table"] = table
    card = {"label": "nope", "confidence": 0.99,
            "quad": [[480, 360], [520, 360], [520, 400], [480, 400]]}  # fmt: skip
    lines = [{"start": start}] + [{"frame": {"objects": [card]}}] * 3
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def test_a_script_places_objects_by_the_table_it_records(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _save(tmp_path)
    store = tmp_path / "tableref.sqlite3"
    dd = ("--data-dir", str(tmp_path), "--json")
    # The calibration itself in the script: the same placement on any machine.
    r = tableref(capsys, monkeypatch, "play", str(_script(tmp_path / "a.jsonl", c.to_json())), *dd)
    assert r.code == 0, r.err
    stored = Store(store).game_table(r.json()["game_id"])
    assert stored is not None and stored["zones"] == c.to_json()["zones"]
    # No table in the script: the image sectors, whatever the table's default setting says.
    monkeypatch.setenv("TABLEREF_TABLE", "home")
    r = tableref(capsys, monkeypatch, "play", str(_script(tmp_path / "b.jsonl", None)), *dd)
    assert r.code == 0 and Store(store).game_table(r.json()["game_id"]) is None
    r = tableref(capsys, monkeypatch, "play", str(_script(tmp_path / "c.jsonl", "home")), *dd)
    assert r.code == 0 and Store(store).game_table(r.json()["game_id"]) == c.to_json()
    r = tableref(capsys, monkeypatch, "play", str(_script(tmp_path / "d.jsonl", "gone")), *dd)
    assert r.code == 2 and "no calibration for table 'gone'" in r.err
