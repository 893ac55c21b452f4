"""``tableref read --table``: reads reported in table coordinates and zone names (issue 7), and
the clear errors a demanding user gets for an unknown zone or a hand-edited calibration file
that no longer makes sense."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli_helpers import tableref
from vision import calibrate as cal
from vision import synth_cactus

Capsys = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("read") / "cactus.png"
    scene = synth_cactus.render_scene(np.random.default_rng(930_000))  # 1000 x 750
    cv2.imwrite(str(path), scene.image)
    return path


def _calibrate(tmp_path: Path) -> None:
    """A table seen square, 2000 x 1500 mm over the whole 1000 x 750 photo (2 mm a pixel), as
    calibrated on a 2000 x 1500 frame of the same camera: the left half is zone 'left'."""
    corners = [(0, 0), (2000, 0), (2000, 1500), (0, 1500)]
    c = cal.from_corners("home", corners, 2000, 1500, image_size=(2000, 1500))
    cal.save(c.with_zone(cal.Zone.rect("left", 0.0, 0.0, 0.5, 1.0)), tmp_path)


def test_read_reports_table_millimetres_and_zones(
    photo: Path, tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _calibrate(tmp_path)
    dd = ("--data-dir", str(tmp_path))
    r = tableref(capsys, monkeypatch, "read", str(photo), "--game", "cactus", "--json", *dd)
    plain = r.json()["objects"]
    assert r.code == 0 and len(plain) >= 3 and all("table" not in o for o in plain)
    args = ("read", str(photo), "--game", "cactus", "--table", "home", "--json", *dd)
    r = tableref(capsys, monkeypatch, *args)
    assert r.code == 0, r.err
    objects = r.json()["objects"]
    assert r.json()["table"] == "home" and len(objects) == len(plain)
    for o in objects:
        quad = np.asarray(o["quad"])
        # 2 mm a pixel: the frame is half the calibration frame, whose pixels are 1 mm.
        assert np.allclose(o["table"]["quad_mm"], 2 * quad, atol=0.2)
        left = o["table"]["centre_mm"][0] < 1000
        assert o["table"]["zone"] == ("left" if left else None)
    r = tableref(capsys, monkeypatch, *args, "--zone", "left")
    kept = r.json()["objects"]
    assert r.code == 0 and kept == [o for o in objects if o["table"]["zone"] == "left"]
    assert 0 < len(kept) < len(objects)


def test_unknown_zone_and_zone_without_table_are_refused(
    photo: Path, tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _calibrate(tmp_path)
    dd = ("--data-dir", str(tmp_path))
    base = ("read", str(photo), "--game", "cactus", *dd)
    r = tableref(capsys, monkeypatch, *base, "--table", "home", "--zone", "discard")
    assert r.code == 2 and "table 'home' has no zone 'discard' (its zones: left" in r.err
    r = tableref(capsys, monkeypatch, *base, "--zone", "left")
    assert r.code == 2 and "--zone needs --table" in r.err
    r = tableref(capsys, monkeypatch, *base, "--table", "nowhere")
    assert r.code == 2 and "no calibration for table 'nowhere'" in r.err


@pytest.mark.parametrize(
    ("zone", "message"),
    [
        ({"name": "pile", "polygon": [[0.2, 0.2], [1.5, 0.2], [0.2, 0.6]]}, "zone 'pile'"),
        ({"name": "pile", "polygon": [[0.2, 0.2], [0.4, 0.2]]}, "at least 3 points"),
        ({"name": "pile", "polygon": "0.2,0.2"}, "list of [x, y] pairs"),
        ({"name": "../etc", "polygon": [[0, 0], [1, 0], [0, 1]]}, "invalid zone name"),
        ({"polygon": [[0, 0], [1, 0], [0, 1]]}, "a zone needs a 'name'"),
    ],
)
def test_hand_edited_zone_file_is_refused_naming_file_and_zone(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch, zone: object, message: str
) -> None:
    _calibrate(tmp_path)
    path = cal.table_path("home", tmp_path)
    data = json.loads(path.read_text())
    data["zones"].append(zone)
    path.write_text(json.dumps(data))
    r = tableref(
        capsys, monkeypatch, "calibrate", "show", "--table", "home", "--data-dir", str(tmp_path)
    )
    assert r.code == 2 and r.err.startswith(f"error: calibration file {path}: ")
    assert message in r.err, r.err
