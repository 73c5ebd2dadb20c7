"""The Content-Security-Policy in a real browser: the pages work with no inline script or style
allowed (htmx without eval or injected styles, behaviour from static/js/site.js), and an old
sign-in link's page still submits itself."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.conf import settings

from notifications import links
from tests.browser.helpers import act, first, screenshot, started_game, user, user_of_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def csp_violations(page) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    return messages


def test_the_game_page_plays_under_the_policy_without_violations(new_page):
    game = started_game(user("anna"), user("ben"), seed=11)
    page = new_page(user=user_of_seat(game, game.acting_seat))
    messages = csp_violations(page)

    page.goto(f"/games/{game.pk}/")
    act(page, first(page, type="choose_card"))
    page.goto("/accounts/profile/")
    page.goto("/accounts/login/")

    blocked = [m for m in messages if "Content Security Policy" in m]
    assert blocked == []


def test_an_old_sign_in_link_submits_itself_from_the_static_script(new_page):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=11)
    player = user_of_seat(game, game.acting_seat)
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 600):
        url = links.login_url(player, game)
    page = new_page()
    messages = csp_violations(page)

    page.goto(url.removeprefix(settings.SITE_URL))  # the path, on the live server
    page.wait_for_url(f"**/games/{game.pk}/")

    assert page.locator(".site-account").inner_text() == player.display_name
    assert [m for m in messages if "Content Security Policy" in m] == []
    screenshot(page, "desktop-09-signed-in-by-old-email-link")
