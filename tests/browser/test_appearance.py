"""The system's wishes are honoured: prefers-color-scheme: dark turns the pages dark (the board
stays the lit table it draws), prefers-reduced-motion: reduce stops every transition.
Screenshots of both schemes on a desktop and a phone go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.rules.firenze import rules
from tests.browser.helpers import (
    part_screenshot,
    play_greedily_until,
    screenshot,
    started_game,
    user,
)
from tests.browser.worlds import shared_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The relative luminance (WCAG) of an element's background colour.
LUMINANCE = """(selector) => {
  const c = getComputedStyle(document.querySelector(selector)).backgroundColor
    .match(/[\\d.]+/g).map(Number);
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}"""


@pytest.fixture
def game_mid_turn():
    """Anna with a payment to decide: built once per test process (tests/browser/worlds.py)."""
    world = shared_world("appearance", build_game_mid_turn)
    return world["anna"], world["game"]


def build_game_mid_turn():
    anna = user("anna")

    def paying(state, seat):
        return rules.player_view(state, seat)["pending"] is not None

    return {
        "anna": anna,
        "game": play_greedily_until(started_game(anna, bots=2, seed=2024), anna, paying),
    }


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_it_follows_the_colour_scheme_the_system_asks_for(new_page, game_mid_turn, dark, phone):
    anna, game = game_mid_turn
    scheme = "dark" if dark else "light"
    device = "phone" if phone else "desktop"
    for name, path in [("game", f"/games/{game.pk}/"), ("lobby", "/games/"), ("rules", "/rules/")]:
        page = new_page(user=anna, dark=dark, phone=phone)
        page.goto(path)
        page_light = page.evaluate(LUMINANCE, "body")
        assert (page_light < 0.05) if dark else (page_light > 0.8), (name, page_light)
        screenshot(page, f"{device}-{scheme}-{name}")
        if name == "game":
            # The board is a lit table in both schemes: sand under dark ink.
            assert page.evaluate(LUMINANCE, "#board") > 0.6
            ink = page.locator("#board .card-name").first.evaluate("e => getComputedStyle(e).color")
            assert ink == "rgb(43, 33, 28)", ink
            for part in ("panel", "board", "players"):
                part_screenshot(page.locator(f"#{part}"), f"{device}-{scheme}-{name}-{part}")
        page.context.close()


def test_it_stops_motion_when_the_system_asks_for_less(browser, live_server, game_mid_turn):
    anna, game = game_mid_turn
    from tests.browser.conftest import DESKTOP, session_cookie

    durations = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(base_url=live_server.url, reduced_motion=motion, **DESKTOP)
        context.add_cookies([session_cookie(anna, live_server.url)])
        page = context.new_page()
        page.goto(f"/games/{game.pk}/")
        piece = page.locator("#game .brick-act").first
        expect(piece).to_be_visible()
        piece.hover()
        durations[motion] = (
            piece.evaluate("e => getComputedStyle(e).transform"),
            page.evaluate("() => getComputedStyle(document.body).transitionDuration"),
        )
        context.close()
    # A brick one can take grows under the pointer, unless the player asked for calm.
    assert durations["no-preference"][0].startswith("matrix(1.15"), durations
    assert durations["reduce"][0] == "none", durations
    assert durations["reduce"][1] in ("1e-05s", "0.00001s"), durations
