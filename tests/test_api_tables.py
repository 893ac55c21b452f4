"""Calibrating the table from four corners clicked on the dashboard: ``PUT /api/tables/NAME``
stores the calibration where ``tableref calibrate`` keeps it (zones kept), and bad corners or
names are refused with the reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from host.api.app import create_app
from host.device import FakeDevice
from host.referee import Table
from host.settings import Settings
from host.store import Store
from vision import calibrate as cal

CORNERS = [[100.0, 80.0], [900.0, 90.0], [920.0, 700.0], [80.0, 690.0]]


@pytest.fixture
def parts(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    settings = Settings(data_dir=tmp_path)
    app = create_app(settings, Table(Store(settings.db_path), FakeDevice()))
    with TestClient(app) as client:
        yield client, app.state.token


def test_clicked_corners_calibrate_the_table_and_keep_its_zones(
    parts: tuple[TestClient, str], tmp_path: Path
) -> None:
    client, token = parts
    auth = {"Authorization": f"Bearer {token}"}
    zoned = cal.from_corners("kitchen", [(0, 0), (10, 0), (10, 10), (0, 10)], 5, 5)
    cal.save(zoned.with_zone(cal.Zone.rect("discard", 0.4, 0.4, 0.6, 0.6)), tmp_path)
    body = {"corners": CORNERS, "width_mm": 900, "height_mm": 600, "image_size": [1000, 750]}
    assert client.put("/api/tables/kitchen", json=body).status_code == 401
    r = client.put("/api/tables/kitchen", json=body, headers=auth)
    assert r.status_code == 200, r.text
    stored = cal.load("kitchen", tmp_path)
    assert stored.method == "manual" and stored.image_size == (1000, 750)
    assert [z.name for z in stored.zones] == ["discard"]
    # The clicked corners are the table's corners in millimetres.
    corners_mm = stored.to_table(CORNERS)
    assert np.allclose(corners_mm, [[0, 0], [900, 0], [900, 600], [0, 600]], atol=1e-6)
    assert client.get("/api/tables").json() == {"tables": ["kitchen"]}
    shown = client.get("/api/tables/kitchen").json()
    assert shown["width_mm"] == 900 and shown["zones"][0]["name"] == "discard"


@pytest.mark.parametrize(
    ("name", "change", "status", "message"),
    [
        ("kitchen", {"corners": [CORNERS[1], CORNERS[0], *CORNERS[2:]]}, 400, "convex"),
        ("kitchen", {"corners": CORNERS[:3]}, 422, "corners"),
        ("kitchen", {"width_mm": 0}, 422, "width_mm"),
        ("bad name!", {}, 400, "invalid table name"),
    ],
)
def test_bad_corners_are_refused_with_the_reason(
    parts: tuple[TestClient, str],
    tmp_path: Path,
    name: str,
    change: dict[str, object],
    status: int,
    message: str,
) -> None:
    client, token = parts
    body = {"corners": CORNERS, "width_mm": 900, "height_mm": 600, **change}
    r = client.put(f"/api/tables/{name}", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == status and message in r.text, r.text
    assert cal.list_tables(tmp_path) == []


def test_unknown_table_is_not_found(parts: tuple[TestClient, str]) -> None:
    client, _ = parts
    r = client.get("/api/tables/nowhere")
    assert r.status_code == 404 and "no calibration for table 'nowhere'" in r.text


def test_dashboard_offers_corner_clicking(parts: tuple[TestClient, str]) -> None:
    client, _ = parts
    page = client.get("/").text
    assert 'id="calib-start"' in page and 'id="calib-w"' in page
    script = client.get("/static/app.js").text
    assert "`/api/tables/${name}`" in script and "image_size" in script


def test_a_broken_calibration_file_is_named_not_served(
    parts: tuple[TestClient, str], tmp_path: Path
) -> None:
    client, token = parts
    path = cal.table_path("kitchen", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    r = client.get("/api/tables/kitchen")
    assert r.status_code == 400 and f"calibration file {path} is not valid JSON" in r.text
    # Nor silently overwritten (its zones would be lost): the file is named, to fix or delete.
    body = {"corners": CORNERS, "width_mm": 900, "height_mm": 600}
    r = client.put("/api/tables/kitchen", json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400 and "not valid JSON" in r.text
