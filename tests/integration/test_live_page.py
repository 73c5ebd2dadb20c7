"""The game page follows its live stream in a real browser: served by uvicorn with Redis (the
production settings, bench/live_stack.py), a watcher's page shows each move the other player
makes through the API within a moment, where the 5-second poll alone would take 2.5 s on
average. Runs with the other process-starting tests (make test's PostgreSQL step); its own
database is a SQLite file the servers share."""

from __future__ import annotations

import json
import statistics
import time

import pytest

from bench.live_bench import Players
from bench.live_stack import LiveStack
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.postgres, pytest.mark.browser]


def test_a_watchers_page_shows_moves_as_they_happen(tmp_path):
    from playwright.sync_api import sync_playwright

    with LiveStack(tmp_path, f"sqlite:///{tmp_path}/live.sqlite3", collectstatic=True) as stack:
        data = json.loads(stack.python("bench/live_setup.py").splitlines()[-1])
        game = data["games"]["latency"]
        players = Players(stack, data)
        mover, _ = players.acting(game)
        watcher = next(uid for uid in data["players"] if uid != mover)
        seen: list[float] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            session = data["players"][watcher]["session"]
            context.add_cookies([{"name": "sessionid", "value": session, "url": stack.streams}])
            page = context.new_page()
            page.goto(f"{stack.streams}/games/{game}/")  # uvicorn serves pages and streams
            page.wait_for_timeout(2000)
            for _ in range(5):
                uid, listed = players.acting(game)
                before = page.locator("#poller").get_attribute("data-version")
                started = time.monotonic()
                move = {"action": listed["actions"][0], "version": listed["version"]}
                assert players.api(uid, "POST", f"/games/{game}/move", move)[0] == 200
                while page.locator("#poller").get_attribute("data-version") == before:
                    assert time.monotonic() - started < 15, "the page never showed the move"
                    page.wait_for_timeout(20)
                seen.append(time.monotonic() - started)
                page.wait_for_timeout(700)
            browser.close()
    assert statistics.median(seen) < 2.0, seen  # the poll alone: 2.5 s on average
