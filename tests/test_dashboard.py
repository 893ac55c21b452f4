"""The dashboard in a real browser: Debian's Chromium, headless, driven by Playwright.

Screenshots land in test-artifacts/ (kept by CI as evidence, ignored by git).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import tally
from helpers import centre_tiles, frame, obj

from host.api.app import create_app
from host.device import FakeDevice
from host.referee import Table
from host.settings import Settings
from host.store import Store

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def _need_browser() -> None:
    missing = [] if Path(CHROMIUM).exists() else [CHROMIUM]
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    if missing:
        message = f"dashboard test needs {' and '.join(missing)} (.ci/apt-packages.txt, dev extra)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    import uvicorn

    tally.install(monkeypatch)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(data_dir=tmp_path, port=port)
    table = Table(Store(settings.db_path), FakeDevice())
    app = create_app(settings, table)
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    api = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {app.state.token}"})
    sid = api.post("/api/sessions", json={"players": ["Ann", "Bob"]}).json()["id"]
    game = api.post(f"/api/sessions/{sid}/games", json={"game": "tally", "options": {"target": 99}})
    yield {"base": base, "api": api, "table": table, "token": app.state.token, "game": game.json()}
    server.should_exit = True
    thread.join(timeout=5)


def test_dashboard_live_correct_undo_language(served: dict[str, Any]) -> None:
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    api: httpx.Client = served["api"]
    gid = served["game"]["game_id"]
    table: Table = served["table"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900}, locale="en-US")
        page.goto(f"{served['base']}/#token={served['token']}")
        ann = page.locator('#scores li[data-player="Ann"]')
        expect(ann).to_contain_text("to play")
        expect(page.locator("#conn")).to_have_text("live")

        # live update: a change made elsewhere shows up without reloading
        api.post(
            f"/api/games/{gid}/events",
            json={"event": {"type": "point", "player": "Ann", "points": 4}},
        )
        expect(ann.locator(".score")).to_have_text("4")
        page.screenshot(path=str(ARTIFACTS / "dashboard-1-live.png"), full_page=True)

        # the camera sees three tiles, one unsure: it is flagged; correct it from its top-3
        referee = table.referee()
        for _ in range(3):
            referee.feed(
                frame(*centre_tiles("b1", "b2"), obj("b7", 500, 375, conf=0.3, alts=["b3", "b8"]))
            )
        flagged = page.locator("#overlay g.flag")
        expect(flagged).to_have_count(1)
        page.screenshot(path=str(ARTIFACTS / "dashboard-2-flagged.png"), full_page=True)
        flagged.click()
        expect(page.locator("#corr-top button")).to_have_text(["b7", "b3", "b8"])
        page.locator("#corr-top button", has_text="b3").click()
        expect(page.locator("#overlay g.flag")).to_have_count(0)
        expect(page.locator('#overlay g[data-label="b3"]')).to_have_count(1)

        # done scores Bob's turn from the table; undo takes it back
        bob = page.locator('#scores li[data-player="Bob"]')
        page.locator("#done").click()
        expect(bob.locator(".score")).to_have_text("6")
        page.screenshot(path=str(ARTIFACTS / "dashboard-3-done.png"), full_page=True)
        page.locator("#undo").click()
        expect(bob.locator(".score")).to_have_text("0")
        expect(page.locator("#hist-events li.undo")).to_have_count(1)

        # a refusal is shown in words
        page.locator("#manual-json").fill('{"type": "point", "player": "Ann", "points": 1}')
        page.locator("#manual button").click()
        expect(page.locator("#message")).to_contain_text("it is Bob's turn, not Ann's")

        # any stored game can be looked at, the live one is followed by default
        expect(page.locator("#game-pick option")).to_have_count(2)
        page.locator("#game-pick").select_option(str(gid))
        expect(ann.locator(".score")).to_have_text("4")

        # languages of the rule books
        page.locator("#lang").select_option("zh-Hant")
        expect(page.locator("h1")).to_have_text("桌遊裁判")
        expect(page.locator("#undo")).to_have_text("復原上一步")
        page.screenshot(path=str(ARTIFACTS / "dashboard-4-zh.png"), full_page=True)
        page.locator("#lang").select_option("pl")
        expect(page.locator("h1")).to_have_text("Sędzia stołu")
        page.reload()
        expect(page.locator("h1")).to_have_text("Sędzia stołu")  # the choice is remembered

        # a phone: one column, every control reachable
        phone = browser.new_page(viewport={"width": 375, "height": 740}, is_mobile=True)
        phone.goto(served["base"])
        expect(phone.locator('#scores li[data-player="Ann"] .score')).to_have_text("4")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
        phone.screenshot(path=str(ARTIFACTS / "dashboard-5-phone.png"), full_page=True)
        browser.close()
    assert shutil.which("chromium") or Path(CHROMIUM).exists()
