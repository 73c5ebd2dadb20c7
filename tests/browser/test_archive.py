"""Finished games in a real browser (issue 7): step through a replay with the buttons and the
keyboard, open a profile from the final scores, filter the history without a reload; and every
new page on desktop (1280x900) and phone (390x844), screenshotted, with no sideways scrolling.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game
from players.models import Rating
from tests.browser.helpers import screenshot, started_game, user
from tests.factories import UserFactory, finished_record
from tests.web.helpers import fast_forward

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def archive():
    """Three players with a few really played (rated) games, older listed games, a leaderboard
    with ranked and provisional players, and one game still being played."""
    anna, ben, carla = user("anna"), user("ben"), user("carla")
    games = []
    for seed, players in [(3, (anna, ben, carla)), (5, (ben, anna)), (9, (anna, carla))]:
        game = started_game(*players, seed=seed)
        fast_forward(game)
        assert game.is_finished
        games.append(game)
    for days in range(1, 60):
        finished_record(
            [anna, ben, carla][: 2 + days % 2],
            [40 + days % 7, 44, 38][: 2 + days % 2],
            finished_at=timezone.now() - timedelta(days=days),
            campanile=days % 3 == 0,
        )
    for i, shown in enumerate([1310, 1255, 1190, 1420, 980]):
        other = UserFactory(username=f"rival{i}", display_name=f"Rival {i + 1}")
        Rating.objects.create(user=other, mu=25, sigma=4, shown=shown, games=5 + i * 3)
    started_game(anna, carla, seed=13)
    return {"anna": anna, "ben": ben, "carla": carla, "finished": games[0]}


def step_of(page) -> int:
    return int(page.locator(".replay-step").inner_text())


def turn_of(page) -> int:
    return int(page.locator(".replay-turn").inner_text())


def no_sideways_scroll(page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"horizontal overflow: {width}"


def test_step_through_a_replay_then_open_a_profile_from_the_final_scores(new_page, archive):
    game: Game = archive["finished"]
    last = game.moves.count()
    page = new_page(user=archive["anna"])
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".score-breakdown")).to_be_visible()
    screenshot(page, "desktop-archive-01-finished-game")

    page.get_by_role("link", name="Replay this game").click()
    page.wait_for_load_state()  # its keys work once replay.js has run
    expect(page.locator(".replay-step")).to_have_text("0")
    assert turn_of(page) == 1
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-step")).to_have_text("1")
    assert "step=1" in page.url  # each position has its own address
    page.get_by_role("link", name="Step ▶").click()
    expect(page.locator(".replay-step")).to_have_text("2")
    page.keyboard.press("Shift+ArrowRight")
    expect(page.locator(".replay-turn")).to_have_text("2")
    second_turn = step_of(page)
    assert second_turn > 2
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-step")).to_have_text(str(second_turn - 1))
    page.fill("#jump-turn", "7")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".replay-turn")).to_have_text("7")
    expect(page.locator(".replay-hand")).to_have_count(3)
    screenshot(page, "desktop-archive-02-replay-turn-7")
    page.keyboard.press("End")
    expect(page.locator(".replay-step")).to_have_text(str(last))
    expect(page.locator(".replay-status")).to_contain_text("the game is over")
    expect(page.locator(".score-breakdown")).to_be_visible()
    page.get_by_role("link", name="◀ Step").click()
    expect(page.locator(".replay-step")).to_have_text(str(last - 1))
    page.keyboard.press("Home")
    expect(page.locator(".replay-step")).to_have_text("0")
    page.go_back()  # the browser's history follows the steps
    expect(page.locator(".replay-step")).to_have_text(str(last - 1))

    page.goto(f"/games/{game.pk}/")
    page.locator("table.final").get_by_role("link", name="Ben").click()
    expect(page).to_have_url(re.compile(r"/players/Ben/$"))
    expect(page.locator("h1")).to_have_text("Ben")
    expect(page.locator(".head-to-head")).to_contain_text("You against Ben")
    screenshot(page, "desktop-archive-03-profile")


def test_the_history_filters_update_the_list_without_a_reload(new_page, archive):
    page = new_page(user=archive["anna"])
    page.goto("/games/history/")
    marker = page.evaluate("() => (window.__kept = Math.random())")
    before = page.locator(".record").count()
    assert before == 50

    page.select_option("#id_players", "3")
    expect(page).to_have_url(re.compile(r"players=3"))
    page.wait_for_function(
        "() => [...document.querySelectorAll('.record-meta')]"
        ".every(m => m.textContent.startsWith('3 players'))"
    )
    assert page.evaluate("() => window.__kept") == marker, "the page was reloaded"
    screenshot(page, "desktop-archive-04-history-filtered")
    page.get_by_role("link", name="Clear").click()
    page.get_by_role("link", name="2", exact=True).click()
    expect(page).to_have_url(re.compile(r"page=2"))
    expect(page.locator(".result-count")).to_contain_text("page 2 of 2")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_new_page_reads_without_sideways_scrolling(new_page, archive, phone):
    device = "phone" if phone else "desktop"
    game = archive["finished"]
    page = new_page(user=archive["anna"], phone=phone)
    for name, path in [
        ("profile-own", "/players/Anna/"),
        ("profile-other", "/players/Carla/"),
        ("leaderboard", "/players/"),
        ("history", "/games/history/"),
        ("my-games", "/games/mine/"),
        ("finished-game", f"/games/{game.pk}/"),
        ("replay", f"/games/{game.pk}/replay/?turn=12"),
        ("replay-last", f"/games/{game.pk}/replay/?step={game.moves.count()}"),
    ]:
        response = page.goto(path)
        assert response.status == 200, path
        no_sideways_scroll(page)
        screenshot(page, f"{device}-archive-page-{name}")
    page.goto("/players/Anna/")
    expect(page.locator(".rating-chart svg polyline")).to_be_visible()
