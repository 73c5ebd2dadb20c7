"""The tournament pages in Chromium, as players meet them from sign-up to the final standings:
axe finds nothing on a desktop or a phone, light or dark, in English or German; nothing scrolls
sideways on a phone; signing up works from the keyboard; the standings update without a
reload. Screenshots of each page go to test-artifacts/screenshots/ (tournament-*.jpg)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.helpers import TIMEOUT_MS, overflow, screenshot
from tests.browser.screens import each_screen, share
from tests.browser.test_accessibility import AXE_OPTIONS, blocking_violations
from tests.browser.worlds import shared_world
from tests.web.tournament_helpers import end_game, end_round, field, started, table_users
from tests.web.tournament_helpers import tournament as make_tournament
from tournaments import rounds, seasons, signup
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def events():
    """Spring Cup (Swiss, six players) in round 2 with round 1's results in; Autumn Groups open
    for sign-up with a rating range; Winter Knock-out finished; a 3-player ladder: built once
    per test process (tests/browser/worlds.py)."""
    return shared_world("tournaments", build_events)


def build_events():
    players = field(6)
    anna = players[0]
    running = started(anna, players, rounds=3, description="Three rounds, three days a turn.")
    end_round(running)  # the test runs outside a transaction: the next round comes at once
    rounds.advance(running.pk)
    running.refresh_from_db()
    table = Table.objects.filter(tournament=running, round__number=2, finished_at=None).first()
    open_ = make_tournament(
        players[1], name="Autumn Groups", fmt="groups", table_size=3, group_size=4,
        final_table=True, max_players=12, min_rating=900, max_rating=1800,
        signup_closes=timezone.now() + timedelta(days=2), description="Groups of four.",
    )  # fmt: skip
    for player in players[2:5]:
        signup.sign_up(open_, player)
    finished = started(anna, players[:4], name="Winter Knock-out", fmt="knockout")
    for _ in range(2):
        end_round(finished)
        rounds.advance(finished.pk)
    for player in players:
        seasons.join(player, 3)
    return {
        "players": players,
        "running": running,
        "open": open_,
        "finished": finished,
        "table": table,
    }


def note_violations(page) -> list[str]:
    """On a game page only the tournament's line is this app's (the board has findings of its
    own at the first turn, reported apart): axe on that line."""
    results = Axe().run(page, context=".tournament-note", options=AXE_OPTIONS)
    return [
        f"{violation['id']} ({violation['impact']}) {node['target']}"
        for violation in results.response["violations"]
        for node in violation["nodes"]
    ]


def pages_of(events) -> list[tuple[str, object, str]]:
    players, running = events["players"], events["running"]
    entry = running.entries.get(user=players[0])
    return [
        ("list", players[0], "/tournaments/"),
        ("signup", players[5], f"/tournaments/{events['open'].pk}/"),
        ("running", players[0], f"/tournaments/{running.pk}/"),
        ("standings", None, f"/tournaments/{running.pk}/standings/"),
        ("schedule", players[0], f"/tournaments/{running.pk}/players/{entry.pk}/"),
        ("finished", players[1], f"/tournaments/{events['finished'].pk}/"),
        ("create", players[0], "/tournaments/new/"),
        ("seasons", players[0], "/tournaments/seasons/"),
        ("profile", None, "/players/P01/"),
        ("game", players[0], f"/games/{events['table'].game_id}/"),
    ]


@each_screen
def test_the_tournament_pages_pass_axe_and_fit_the_screen(new_page, events, phone, dark, language):
    """This screen's share of the pages (tests/browser/screens.py): each page on two screens
    opposite in device, scheme and language."""
    pages = share(pages_of(events), phone, dark, language)
    assert pages
    problems = []
    for user in events["players"]:
        user.language = language
        user.save(update_fields=["language"])
    for name, user, path in pages:
        page = new_page(phone=phone, dark=dark, language=language, user=user)
        response = page.goto(path)
        assert response.status == 200, (name, response.status)
        assert page.locator("html").get_attribute("lang") == language
        found = note_violations(page) if name == "game" else blocking_violations(page)
        problems += [f"{name}: {line}" for line in found]
        width, window = overflow(page)
        if width > window:
            problems.append(f"{name}: {width}px wide in a {window}px window")
        screen = ("phone" if phone else "desktop") + ("-dark" if dark else "")
        screenshot(page, f"tournament-{name}-{screen}-{language}")
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_player_signs_up_with_the_keyboard(new_page, events):
    player = events["players"][5]
    page = new_page(user=player)
    page.goto(f"/tournaments/{events['open'].pk}/")

    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "Sign up":
            break
    page.keyboard.press("Enter")

    page.get_by_text("You are signed up.", exact=False).first.wait_for()
    assert events["open"].entries.filter(user=player).exists()


def test_the_standings_update_as_a_game_ends_without_a_reload(new_page, events):
    running, table = events["running"], events["table"]
    page = new_page(user=events["players"][0])
    page.goto(f"/tournaments/{running.pk}/")
    page.evaluate("window.stillHere = true")
    before = page.locator("#standings").get_attribute("data-version")

    users = sorted(table_users(table), key=lambda u: u.username)
    end_game(table.game, users)
    page.evaluate("htmx.trigger('#standings', 'refresh')")  # what the 15 s poll does

    page.wait_for_function(
        "v => document.querySelector('#standings').dataset.version !== v",
        arg=before,
        timeout=TIMEOUT_MS,
    )
    assert page.evaluate("window.stillHere === true")
    leader = page.locator("#standings tbody tr").first.inner_text()
    assert "P01" in leader


@pytest.mark.parametrize("language", ["en", "de"])
def test_on_a_phone_the_standings_fit_and_the_other_tie_breaks_are_one_tap_away(
    new_page, events, language
):
    page = new_page(phone=True, language=language)
    page.goto(f"/tournaments/{events['running'].pk}/standings/")
    table = page.locator(".standings-table").first
    heads = table.locator("thead th")
    # Place, player, points, games and the first tie-break (Buchholz) in sight, whole.
    visible = [i for i in range(heads.count()) if heads.nth(i).is_visible()]
    assert visible == [0, 1, 2, 3, 4], visible
    box, scroller = table.bounding_box(), page.locator(".table-scroll").first.bounding_box()
    assert box and scroller and box["width"] <= scroller["width"] + 1, (box, scroller)
    more = page.locator(".standings-more").first
    expect(more).to_be_visible()
    more.click()
    expect(heads.nth(heads.count() - 1)).to_be_visible()
    screenshot(page, f"tournament-standings-all-columns-phone-{language}")
