"""The dashboard's table calibration in a real browser (Debian's Chromium, headless, driven by
Playwright): four corners clicked on the table view become the stored calibration."""

from __future__ import annotations

from typing import Any

from helpers import centre_tiles, frame
from test_dashboard import ARGS, CHROMIUM, _need_browser, served  # noqa: F401 (the fixture)

from vision import calibrate as cal


def test_dashboard_calibrates_from_four_clicked_corners(served: dict[str, Any]) -> None:  # noqa: F811
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    served["table"].referee().feed(frame(*centre_tiles("b1", "b2")))  # a 1000 x 750 view
    corners = [(120, 90), (880, 100), (900, 690), (100, 680)]  # image pixels, TL TR BR BL
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 1000}, locale="en-US")
        page.goto(f"{served['base']}/#token={served['token']}")
        expect(page.locator('#overlay g[data-label="b1"]')).to_have_count(1)
        page.locator("#calib summary").click()
        page.locator("#calib-name").fill("kitchen")
        page.locator("#calib-w").fill("900")
        page.locator("#calib-h").fill("600")
        page.locator("#calib-start").click()
        overlay = page.locator("#overlay")
        overlay.scroll_into_view_if_needed()
        box = overlay.bounding_box()  # in the viewport, where the mouse clicks
        assert box is not None
        scale = min(box["width"] / 1000, box["height"] / 750)  # viewBox, "meet"
        left = box["x"] + (box["width"] - 1000 * scale) / 2
        top = box["y"] + (box["height"] - 750 * scale) / 2
        for i, (x, y) in enumerate(corners):
            page.mouse.click(left + x * scale, top + y * scale)
            if i < 3:
                expect(page.locator("#calib-count")).to_have_text(f"{i + 1}/4")
        expect(page.locator("#message")).to_contain_text("Table calibrated: kitchen")
        expect(page.locator("#corr-label")).to_be_hidden()  # no read was opened for correction
        browser.close()
    stored = cal.TableCalibration.from_json(served["api"].get("/api/tables/kitchen").json())
    assert stored.width_mm == 900 and stored.image_size == (1000, 750)
    for got, want in zip(stored.image_corners, corners, strict=True):
        assert abs(got[0] - want[0]) < 2 and abs(got[1] - want[1]) < 2, (got, want)
