"""The dashboard shows which table calibration places the cards (issue 7, zones): its name and
its zones drawn on the table view, or the image sectors; a new game may pick a calibrated
table (Debian's Chromium, headless, driven by Playwright)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_dashboard import ARGS, CHROMIUM, _need_browser, served  # noqa: F401 (the fixture)

from host.referee import Table
from host.table.reads import FrameRead
from vision import calibrate as cal


def test_dashboard_shows_the_table_calibration_in_use(
    served: dict[str, Any],  # noqa: F811
    tmp_path: Path,
) -> None:
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    table: Table = served["table"]
    table.tables_dir = tmp_path  # where the served settings keep calibrations
    corners = [(100, 80), (900, 80), (900, 700), (100, 700)]
    zones = cal.default_zones(2)
    cal.save(cal.from_corners("home", corners, 900, 600, image_size=(1000, 750), zones=zones),
             tmp_path)  # fmt: skip
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 1400}, locale="en-US")
        page.goto(f"{served['base']}/#token={served['token']}")
        expect(page.locator("#conn")).to_have_text("live")
        # The running game was started without a table: the image sectors place its cards.
        expect(page.locator("#table-calib")).to_have_text("image sectors (no table calibration)")
        page.locator("#ng-game").select_option("allin")
        page.locator("#ng-players").fill("Ann, Bob")
        expect(page.locator('#ng-table option[value="home"]')).to_have_count(1)
        page.locator("#ng-table").select_option("home")
        with page.expect_response("**/api/sessions/*/games") as started:
            page.locator("#newgame-form button[type=submit]").click()
        assert started.value.status == 201
        expect(page.locator("#table-calib")).to_have_text("zones of table: home (manual)")
        expect(page.locator("#table-calib")).to_have_attribute(
            "title", "Ann = seat1, Bob = seat2, centre = centre"
        )
        expect(page.locator("#overlay g.zone")).to_have_count(3)
        expect(page.locator('#overlay g.zone[data-owner="Ann"] text')).to_have_text("Ann")
        # Each read says where the referee placed it: Ann's hand zone, or nowhere.
        ref = table.referee()
        card = {"label": "2c", "confidence": 0.99,
                "quad": [[480, 640], [520, 640], [520, 690], [480, 690]]}  # fmt: skip
        stray = {**card, "label": "3c", "quad": [[20, 20], [60, 20], [60, 70], [20, 70]]}
        for _ in range(3):
            ref.feed(FrameRead.model_validate({"objects": [card, stray]}))
        expect(page.locator('#overlay g.obj[data-label="2c"]')).to_have_attribute(
            "data-zone", "Ann"
        )
        expect(page.locator('#overlay g.obj[data-label="2c"] title')).to_contain_text("· Ann")
        expect(page.locator('#overlay g.obj[data-label="3c"] title')).to_contain_text(
            "· off the table"
        )
        # Clicking the corners again would re-calibrate the table in use.
        expect(page.locator("#calib-name")).to_have_value("home")
        browser.close()
    assert table.referee().adapter.layout.table == "home"
