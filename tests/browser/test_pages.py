"""Every page as a player sees it, on a desktop (1280x900) and a phone (390x844): it fits the
screen without sideways scrolling, every button's text stands out from its background (WCAG
contrast), and a screenshot of it is saved under test-artifacts/screenshots/ to look at.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import lobby
from games.models import Absence
from tests.browser.helpers import (
    low_contrast_buttons,
    overflow,
    part_screenshot,
    play_greedily,
    screenshot,
    started_game,
    user,
    viewport_screenshot,
)
from tests.browser.worlds import shared_world
from tests.web.helpers import fast_forward

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cast():
    """Anna (mid-game against bots, a forming game with invitations, an absence), Ben (away),
    a finished game between them: built once per test process (tests/browser/worlds.py)."""
    return shared_world("pages", build_cast)


def build_cast():
    anna, ben, carla = user("anna"), user("ben"), user("carla")
    playing = play_greedily(started_game(anna, bots=3, seed=2024), anna, until_turn=29)
    forming = lobby.create_game(anna, num_players=4, name="Friday towers", is_public=False)
    lobby.join(forming, ben, token=forming.invite_token)
    lobby.add_bot(forming, anna)
    lobby.invite(forming, anna, "Carla")
    lobby.invite_by_email(forming, anna, "newcomer@example.com")
    finished = started_game(anna, ben, seed=77)
    fast_forward(finished)
    waiting = started_game(anna, ben, seed=12)
    now = timezone.now()
    away = waiting.seats.get(number=waiting.acting_seat).user
    Absence.objects.create(user=away, starts=now - timedelta(days=1), ends=now + timedelta(days=4))
    Absence.objects.create(user=anna, starts=now + timedelta(days=9), ends=now + timedelta(days=12))
    return {
        "anna": anna,
        "carla": carla,
        "playing": playing,
        "forming": forming,
        "finished": finished,
        "waiting": waiting,
        "watcher": ben if away == anna else anna,
    }


PAGES = [
    ("home", None, "/"),
    ("lobby", "anna", "/games/"),
    ("my-games", "anna", "/games/mine/"),
    ("create", "anna", "/games/new/"),
    ("forming", "anna", "/games/{forming}/"),
    ("forming-invited", "carla", "/games/{forming}/"),
    ("game", "anna", "/games/{playing}/"),
    ("game-waiting-away", "watcher", "/games/{waiting}/"),
    ("game-over", "anna", "/games/{finished}/"),
    ("whole-log", "anna", "/games/{playing}/log/"),
    ("resign", "anna", "/games/{playing}/resign/"),
    ("away", "anna", "/games/away/"),
    ("rules", None, "/rules/"),
    ("account", "anna", "/accounts/profile/"),
    ("signup", None, "/accounts/signup/"),
]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_page_fits_the_screen_and_its_buttons_can_be_read(new_page, cast, phone):
    ids = {key: game.pk for key, game in cast.items() if hasattr(game, "seats")}
    problems = []
    for name, who, path in PAGES:
        page = new_page(phone=phone, user=cast[who] if who else None)
        response = page.goto(path.format(**ids))
        assert response.status == 200, (name, response.status)
        width = overflow(page)
        if width[0] > width[1]:
            problems.append(f"{name}: sideways scrolling {width}")
        bad = low_contrast_buttons(page)
        if bad:
            problems.append(f"{name}: low contrast {bad}")
        device = "phone" if phone else "desktop"
        screenshot(page, f"{device}-page-{name}")
        if phone:
            viewport_screenshot(page, f"{device}-page-{name}-top")
            for part in ("board", "players", "log", "status"):
                if page.locator(f"#{part}").count():
                    part_screenshot(page.locator(f"#{part}"), f"{device}-page-{name}-{part}")
        page.context.close()
    assert not problems, "\n".join(problems)


def test_the_favicon_is_served(new_page):
    page = new_page()
    response = page.goto("/favicon.ico")
    assert response.status == 200
    assert response.headers["content-type"] in ("image/x-icon", "image/vnd.microsoft.icon")


def test_the_header_links_every_main_page(new_page, cast):
    page = new_page(user=cast["anna"])
    page.goto("/rules/")
    nav = page.get_by_role("navigation", name="Site")
    for label, path in [
        ("My games", "/games/mine/"),
        ("Open games", "/games/"),
        ("New game", "/games/new/"),
        ("Rules", "/rules/"),
    ]:
        expect(nav.get_by_role("link", name=label)).to_have_attribute("href", path)
    expect(nav.get_by_role("link", name="Rules")).to_have_attribute("aria-current", "page")
