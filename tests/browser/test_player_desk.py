"""The pages of issue 20 as a player meets them in Chromium, on a desktop (1280x900) and a
phone (390x844), in English and German: the inbox, the game page with its card help, notepad
and (on a phone) its action bar, a finished game with Rematch and a readable score breakdown,
"Play against bots now", the push opt-in's words. Screenshots: test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.rules.firenze import rules
from inbox.models import Note
from tests.browser.helpers import (
    SCREENSHOTS,
    play_greedily_until,
    started_game,
    user,
    viewport_screenshot,
)
from tests.browser.helpers import screenshot as full_page_screenshot
from tests.browser.screens import each_screen, share
from tests.browser.test_accessibility import blocking_violations
from tests.browser.worlds import shared_world
from tests.web.helpers import fast_forward

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def screenshot(page, name: str):
    """A full-page screenshot; long phone pages take a while on a loaded machine."""
    return full_page_screenshot(page, name, timeout=90_000)


@pytest.fixture
def desk():
    """Anna at her building step against two bots, and a finished game of three: built once
    per test process (tests/browser/worlds.py)."""
    return shared_world("desk", build_desk)


def build_desk():
    anna, ben, carla = user("anna"), user("ben"), user("carla")

    def building(state, seat):
        return rules.player_view(state, seat)["phase"] == "build"

    playing = play_greedily_until(started_game(anna, bots=2, seed=2024), anna, building)
    finished = started_game(anna, ben, carla, seed=77)
    fast_forward(finished)
    for person in (anna, ben, carla):
        person.refresh_from_db()
    return {"anna": anna, "ben": ben, "playing": playing, "finished": finished}


@each_screen
def test_the_new_pages_read_well_and_are_axe_clean(new_page, desk, phone, dark, language):
    """This screen's share of the pages (tests/browser/screens.py: each page on two screens
    opposite in device, scheme and language)."""
    anna = desk["anna"]
    anna.language = language
    anna.save(update_fields=["language"])
    device = ("phone" if phone else "desktop") + ("-dark" if dark else "")
    pages = [
        ("inbox", anna, "/inbox/"),
        ("game", anna, f"/games/{desk['playing'].pk}/"),
        ("game-over", anna, f"/games/{desk['finished'].pk}/"),
        ("bots-now", anna, "/games/bots/"),
        ("my-games", anna, "/games/mine/"),
        ("rules", anna, "/rules/"),
        ("home", None, "/"),
    ]
    problems = []
    for name, who, path in share(pages, phone, dark, language):
        page = new_page(phone=phone, dark=dark, user=who, language=language)
        page.goto(path)
        screenshot(page, f"desk-{device}-{language}-{name}")
        if name == "game":
            viewport_screenshot(page, f"desk-{device}-{language}-game-first-screen")
        problems += [f"{name}: {line}" for line in blocking_violations(page)]
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= (390 if phone else 1280), (name, width)
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_card_help_opens_beside_the_board_and_closes_with_the_keyboard(new_page, desk):
    page = new_page(user=desk["anna"])
    page.goto(f"/games/{desk['playing'].pk}/")
    name = page.locator(".row-card .card-help-button").first
    name.focus()
    page.keyboard.press("Enter")
    popover = page.locator(".card-help:popover-open")
    expect(popover).to_have_count(1)
    expect(popover).to_be_visible()
    assert page.url.endswith(f"/games/{desk['playing'].pk}/")  # still on the game
    screenshot(page, "desk-desktop-en-card-help")
    assert not blocking_violations(page)
    page.keyboard.press("Escape")
    expect(page.locator(".card-help:popover-open")).to_have_count(0)
    phone = new_page(phone=True, user=desk["anna"])
    phone.goto(f"/games/{desk['playing'].pk}/")
    phone.locator(".row-card .card-help-button").first.click()
    expect(phone.locator(".card-help:popover-open")).to_be_visible()
    viewport_screenshot(phone, "desk-phone-en-card-help")


def test_notes_are_saved_as_the_player_types(new_page, desk):
    page = new_page(user=desk["anna"])
    game = desk["playing"]
    page.goto(f"/games/{game.pk}/")
    page.locator("#note_text").fill("Blue 6 next; keep the Architect")
    expect(page.locator("#notes-status")).to_have_text("Saved.")
    assert Note.objects.get(user=desk["anna"], game=game).text.startswith("Blue 6")
    page.reload()
    expect(page.locator("#note_text")).to_have_value("Blue 6 next; keep the Architect")


def test_on_a_phone_the_header_is_compact_and_shows_every_page(new_page, desk):
    for language in ("en", "de"):
        page = new_page(phone=True, user=desk["anna"], language=language)
        page.goto(f"/games/{desk['playing'].pk}/")
        header = page.locator(".site-header").bounding_box()
        assert header["height"] <= 125, header  # was about 240 px; three short lines at most
        expect(page.locator("#panel")).to_be_visible()
        links = page.locator(".site-nav a")
        assert links.count() == 9  # Clubs joined the site's pages
        for i in range(links.count()):  # every page of the site in sight, none scrolled away
            box = links.nth(i).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, box)


def test_on_a_phone_one_tap_goes_between_the_actions_and_the_board(new_page, desk):
    page = new_page(phone=True, user=desk["anna"])
    page.goto(f"/games/{desk['playing'].pk}/")
    viewport_screenshot(page, "desk-phone-en-first-screen-with-board-link")
    board_link = page.locator("#status .jump-link")
    expect(board_link).to_be_visible()
    board_link.click()
    expect(page.locator("#board")).to_be_focused()
    expect(page.locator("#board")).to_be_in_viewport()
    viewport_screenshot(page, "desk-phone-en-jumped-to-board")
    expect(page.locator("#panel button").first).not_to_be_in_viewport()
    page.locator("#board > .jump-link").click()
    expect(page.locator("#panel")).to_be_focused()
    expect(page.locator("#panel")).to_be_in_viewport()

    desktop = new_page(user=desk["anna"])
    desktop.goto(f"/games/{desk['playing'].pk}/")
    expect(desktop.locator(".jump-link").first).to_be_hidden()  # side by side: nothing to jump


def test_on_a_phone_the_three_player_score_breakdown_shows_every_column(new_page, desk):
    page = new_page(phone=True, user=desk["anna"])
    page.goto(f"/games/{desk['finished'].pk}/")
    scroll = page.locator(".breakdown-scroll")
    scroll.scroll_into_view_if_needed()
    widths = scroll.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1], widths
    scroll.screenshot(path=str(SCREENSHOTS / "desk-phone-en-breakdown.png"))
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()


def test_the_push_opt_in_says_what_to_do_in_the_players_words(new_page, desk, settings):
    from notifications import push
    from notifications.management.commands.vapid_keys import new_private_key

    private, _public = new_private_key()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:admin@firenze.example"
    push._vapid.cache_clear()
    try:
        page = new_page(user=desk["anna"])
        page.context.grant_permissions([])  # the browser refuses notifications
        page.goto("/accounts/notifications/")
        status = page.locator("#push-status")
        expect(status).not_to_have_text("")
        if page.locator("#push-enable").is_visible():
            before = status.inner_text()
            page.locator("#push-enable").click()
            expect(status).not_to_have_text(before)
        text = status.inner_text()
        assert "Registration failed" not in text and "permission denied" not in text
        assert "allow" in text.lower() or "try again" in text.lower(), text
    finally:
        push._vapid.cache_clear()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_changed_forming_away_and_history_pages(new_page, desk, phone, language):
    from datetime import date, timedelta

    from games import absences, lobby

    anna, ben = desk["anna"], desk["ben"]
    anna.language = language
    anna.save(update_fields=["language"])
    forming = lobby.create_game(anna, num_players=4, name="Friday towers", is_public=False)
    lobby.invite(forming, anna, "Ben")
    lobby.invite_by_email(forming, anna, "friend@example.org")
    full = lobby.create_game(anna, num_players=2, is_public=False)
    used = full.invite_token
    lobby.join(full, ben, token=used)
    first = date.today() + timedelta(days=30)
    if not anna.absences.exists():
        absences.add_absence(anna, first, first + timedelta(days=7))
    device = "phone" if phone else "desktop"
    problems = []
    for name, who, path in [
        ("forming", anna, f"/games/{forming.pk}/"),
        ("away", anna, "/games/away/"),
        ("history", anna, "/games/history/?players=9"),
        ("link-used", user("carla"), f"/games/invite/{used}/"),
    ]:
        page = new_page(phone=phone, user=who, language=language)
        page.goto(path)
        screenshot(page, f"desk-{device}-{language}-{name}")
        problems += [f"{name}: {line}" for line in blocking_violations(page)]
        page.context.close()
    assert not problems, "\n".join(problems)
