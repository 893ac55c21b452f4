"""Table calibration: markers found on generated tables give millimetres to within a millimetre,
zones name where things lie, calibrations are stored per table, and bad input is refused."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from host.cli import app
from vision import calibrate as cal
from vision.synth_table import render_calibration_scene


def _grid_error_mm(scene_seed: int) -> tuple[float, float]:
    scene = render_calibration_scene(np.random.default_rng(scene_seed))
    c = cal.from_markers("t", scene.image, scene.width_mm, scene.height_mm)
    gx, gy = np.meshgrid(np.linspace(0, scene.width_mm, 9), np.linspace(0, scene.height_mm, 7))
    truth = np.stack([gx.ravel(), gy.ravel()], axis=1)
    back = c.to_table(scene.true_to_image(truth))
    err = np.linalg.norm(back - truth, axis=1)
    return float(err.mean()), float(err.max())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_markers_give_the_table_plane_to_within_a_millimetre(seed: int) -> None:
    mean, worst = _grid_error_mm(seed)
    assert mean < 0.5
    assert worst < 1.0


def test_missing_marker_is_named() -> None:
    scene = render_calibration_scene(np.random.default_rng(3))
    img = scene.image.copy()
    tr = scene.true_to_image(np.array([[scene.width_mm, 0.0]]))[0]
    cv2.circle(img, (int(tr[0]), int(tr[1])), 70, (0, 0, 0), -1)  # cover marker 1
    with pytest.raises(cal.CalibrationError, match=r"1 \(top-right\)"):
        cal.from_markers("t", img, scene.width_mm, scene.height_mm)


def test_manual_corners_match_the_true_homography() -> None:
    scene = render_calibration_scene(np.random.default_rng(4))
    w, h = scene.width_mm, scene.height_mm
    corners = scene.true_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=float))
    c = cal.from_corners("clicked", corners.tolist(), w, h)
    centre_px = scene.true_to_image(np.array([[w / 2, h / 2]]))
    assert np.allclose(c.to_table(centre_px)[0], [w / 2, h / 2], atol=1e-3)
    assert np.allclose(c.to_image([[w / 2, h / 2]]), centre_px, atol=1e-3)


def test_corners_in_the_wrong_order_are_refused() -> None:
    with pytest.raises(cal.CalibrationError, match="convex"):
        cal.from_corners("t", [(0, 0), (100, 100), (100, 0), (0, 100)], 800, 600)
    with pytest.raises(cal.CalibrationError, match="4 corners"):
        cal.from_corners("t", [(0, 0), (1, 0), (1, 1)], 800, 600)
    with pytest.raises(cal.CalibrationError, match="positive"):
        cal.from_corners("t", [(0, 0), (1, 0), (1, 1), (0, 1)], 0, 600)


@pytest.mark.parametrize("bad", [float("inf"), float("nan"), 1e300, -2e5])
def test_corners_off_any_camera_frame_are_refused_by_name(bad: float) -> None:
    # 1e300 squared overflows: the convexity check alone would see NaN and let it through.
    with pytest.raises(cal.CalibrationError, match=r"the bottom-right corner .* not a point"):
        cal.from_corners("t", [(0, 0), (100, 0), (bad, 100), (0, 100)], 800, 600)


def test_zones_name_where_objects_lie() -> None:
    c = cal.from_corners(
        "t",
        [(100, 100), (900, 100), (900, 700), (100, 700)],
        800,
        600,
        zones=cal.default_zones(4),
    )
    c = c.with_zone(cal.Zone.rect("discard", 0.45, 0.45, 0.55, 0.55))

    def quad_at(x: float, y: float) -> list[list[float]]:
        return [[x - 10, y - 15], [x + 10, y - 15], [x + 10, y + 15], [x - 10, y + 15]]

    assert c.locate(quad_at(500, 680))["zone"] == "seat1"  # near the bottom edge
    assert c.locate(quad_at(120, 400))["zone"] == "seat2"  # left
    assert c.locate(quad_at(500, 120))["zone"] == "seat3"  # top
    assert c.locate(quad_at(880, 400))["zone"] == "seat4"  # right
    # The discard pile lies inside the centre zone: the smaller, more specific zone wins.
    assert c.locate(quad_at(500, 400))["zone"] == "discard"
    assert c.locate(quad_at(400, 300))["zone"] == "centre"
    assert c.locate(quad_at(50, 50))["zone"] == "off_table"
    located = c.locate(quad_at(500, 400))
    assert located["centre_mm"] == [400.0, 300.0]
    objs = cal.locate_objects(c, [{"label": "rG", "quad": quad_at(500, 680)}])
    assert objs[0]["label"] == "rG" and objs[0]["table"]["zone"] == "seat1"


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_default_zones_give_every_seat_its_own_area(seats: int) -> None:
    zones = cal.default_zones(seats)
    names = [z.name for z in zones]
    assert names == [f"seat{i}" for i in range(1, seats + 1)] + ["centre"]
    # No two hand areas overlap by more than a border.
    for i, a in enumerate(zones[:-1]):
        for b in zones[i + 1 : -1]:
            pa = np.asarray(a.polygon, np.float32)
            pb = np.asarray(b.polygon, np.float32)
            inter, _ = cv2.intersectConvexConvex(pa, pb)
            assert inter < 1e-6, (a.name, b.name)


def test_bad_zones_are_refused() -> None:
    with pytest.raises(cal.CalibrationError, match="relative"):
        cal.Zone.rect("x", 0.5, 0.2, 0.4, 0.3)
    with pytest.raises(cal.CalibrationError, match="2 to 6"):
        cal.default_zones(7)


def test_calibration_round_trips_through_the_data_dir(tmp_path: Path) -> None:
    c = cal.from_corners(
        "kitchen",
        [(10, 20), (610, 25), (600, 420), (15, 410)],
        900,
        600,
        zones=cal.default_zones(3),
    )
    path = cal.save(c, tmp_path)
    assert path == tmp_path / "tables" / "kitchen.json"
    back = cal.load("kitchen", tmp_path)
    assert back == c
    assert np.allclose(back.homography, c.homography)
    assert cal.list_tables(tmp_path) == ["kitchen"]
    with pytest.raises(cal.CalibrationError, match="no calibration for table 'garden'"):
        cal.load("garden", tmp_path)
    path.write_text("{not json")
    with pytest.raises(cal.CalibrationError, match="not valid JSON"):
        cal.load("kitchen", tmp_path)
    with pytest.raises(ValueError, match="invalid table name"):
        cal.table_path("../evil", tmp_path)


def test_marker_sheet_is_printable_and_detectable(tmp_path: Path) -> None:
    page = cal.marker_sheet(60.0, dpi=150)
    assert page.shape == (round(297 * 150 / 25.4), round(210 * 150 / 25.4))
    assert sorted(cal.detect_markers(page)) == [0, 1, 2, 3]
    side_px = [np.linalg.norm(q[1] - q[0]) for q in cal.detect_markers(page).values()]
    assert np.allclose(side_px, 60.0 * 150 / 25.4, rtol=0.02)  # prints at true scale
    pdf = cal.write_marker_sheet(tmp_path / "markers.pdf", 50.0, dpi=100)
    assert pdf.read_bytes().startswith(b"%PDF")
    with pytest.raises(cal.CalibrationError, match=r"\.png or \.pdf"):
        cal.write_marker_sheet(tmp_path / "markers.gif")


def _table_argv(image: Path, table: str) -> list[str]:
    return [
        "calibrate",
        "table",
        str(image),
        "--width-mm",
        "900",
        "--height-mm",
        "600",
        "--table",
        table,
    ]


def test_cli_calibrates_adds_zones_and_locates(tmp_path: Path) -> None:
    scene = render_calibration_scene(np.random.default_rng(5))
    img_path = tmp_path / "table.png"
    cv2.imwrite(str(img_path), scene.image)
    runner = CliRunner()
    dd = ["--data-dir", str(tmp_path / "data")]
    r = runner.invoke(
        app,
        [*_table_argv(img_path, "home"), "--seats", "4", "--json", *dd],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["method"] == "aruco" and [z["name"] for z in out["zones"]][-1] == "centre"
    r = runner.invoke(
        app, ["calibrate", "zone", "discard", "0.4", "0.4", "0.6", "0.6", "--table", "home", *dd]
    )
    assert r.exit_code == 0, r.output
    x, y = scene.true_to_image(np.array([[450.0, 300.0]]))[0]
    r = runner.invoke(
        app, ["calibrate", "locate", f"{x}", f"{y}", "--table", "home", "--json", *dd]
    )
    assert r.exit_code == 0, r.output
    loc = json.loads(r.output)
    assert loc["zone"] == "discard"
    assert abs(loc["table_mm"][0] - 450) < 1.5 and abs(loc["table_mm"][1] - 300) < 1.5
    # Re-calibrating with the camera moved keeps the zones.
    r = runner.invoke(
        app,
        [*_table_argv(img_path, "home"), "--corners", "10,10 600,12 610,400 5,390", "--json", *dd],
    )
    assert r.exit_code == 0, r.output
    assert "discard" in [z["name"] for z in json.loads(r.output)["zones"]]
    r = runner.invoke(app, ["calibrate", "list", "--json", *dd])
    assert json.loads(r.output) == {"tables": ["home"]}
    r = runner.invoke(app, ["calibrate", "markers", str(tmp_path / "m.png"), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["sheet"] == str(tmp_path / "m.png")
    assert sorted(cal.detect_markers(cv2.imread(str(tmp_path / "m.png")))) == [0, 1, 2, 3]


def test_cli_errors_are_clear(tmp_path: Path) -> None:
    runner = CliRunner()
    dd = ["--data-dir", str(tmp_path)]
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 200, np.uint8))
    blank_table = [*_table_argv(blank, "default"), *dd]
    cases = [
        ([*_table_argv(tmp_path / "nope.png", "default"), *dd], "cannot read image"),
        (blank_table, "table markers not found: 0 (top-left)"),
        ([*blank_table, "--corners", "1,2 3,4"], "exactly 4 corners"),
        ([*blank_table, "--corners", "1,2 3"], "points must be written"),
        (["calibrate", "show", "--table", "nowhere", *dd], "no calibration for table"),
    ]
    for argv, message in cases:
        r = runner.invoke(app, argv)
        assert r.exit_code != 0
        assert message in str(r.exception) or message in r.output, (argv, r.output)


def test_polygon_zones_and_other_resolutions() -> None:
    c = cal.from_corners(
        "t", [(100, 100), (900, 100), (900, 700), (100, 700)], 800, 600, image_size=(1000, 800)
    )
    tri = cal.Zone.polygon_of("corner", [(0, 0), (0.3, 0), (0, 0.3)])
    c = c.with_zone(tri)
    assert c.zone_at((50, 50)) == "corner" and c.zone_at((200, 200)) is None
    with pytest.raises(cal.CalibrationError, match="at least 3 points"):
        cal.Zone.polygon_of("x", [(0, 0), (1, 1)])
    with pytest.raises(cal.CalibrationError, match=r"0\.\.1"):
        cal.Zone.polygon_of("x", [(0, 0), (2, 0), (0, 1)])
    # The same camera at half the resolution: the same table point, in mm.
    half = c.for_frame(500, 400)
    assert np.allclose(half.to_table([(250, 200)]), c.to_table([(500, 400)]))
    with pytest.raises(cal.CalibrationError, match="another aspect ratio"):
        c.for_frame(640, 360)


def test_cli_polygon_zone_and_bad_points(tmp_path: Path) -> None:
    c = cal.from_corners("home", [(0, 0), (800, 0), (800, 600), (0, 600)], 800, 600)
    cal.save(c, tmp_path)
    runner = CliRunner()
    dd = ["--data-dir", str(tmp_path)]
    r = runner.invoke(
        app,
        [
            "calibrate",
            "zone",
            "pile",
            "--polygon",
            "0.4,0.4 0.6,0.4 0.5,0.6",
            "--table",
            "home",
            "--json",
            *dd,
        ],
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["zones"][0]["polygon"] == [[0.4, 0.4], [0.6, 0.4], [0.5, 0.6]]
    r = runner.invoke(
        app, ["calibrate", "zone", "pile", "--polygon", "0.4;oops", "--table", "home", *dd]
    )
    assert r.exit_code != 0 and "points must be written" in str(r.exception)
    r = runner.invoke(app, ["calibrate", "zone", "pile", "--remove", "--table", "home", *dd])
    assert r.exit_code == 0 and cal.load("home", tmp_path).zones == ()
    r = runner.invoke(app, ["calibrate", "zone", "pile", "--remove", "--table", "home", *dd])
    assert "has no zone 'pile'" in str(r.exception)


def test_cli_bad_input_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from host.cli import main

    argv = ["tableref", "calibrate", "show", "--table", "nowhere", "--data-dir", str(tmp_path)]
    monkeypatch.setattr("sys.argv", argv)
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("error: no calibration for table 'nowhere'")
