"""Play by email, the links: one-click unsubscribe without signing in (and the RFC 8058 POST
mail providers make), the single-use sign-in link of a turn email, and the email preferences
on the account page.

Links are read out of the emails the way a player would click them.
"""

from __future__ import annotations

import html
import re
import time
from datetime import timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.utils import timezone

from notifications import links, outbox, preferences, tasks
from notifications.models import LoginToken, Notification
from tests.factories import PASSWORD
from tests.web.helpers import reauthenticated
from tests.web.test_notifications import acting_user, new_game

pytestmark = pytest.mark.django_db

User = get_user_model()


def email_to(user, game, kind="your_turn"):
    row = outbox.notify(user, kind, game=game, key=f"links:{kind}:{game.pk}:{user.pk}")
    tasks.send_notification(row.pk)
    return mail.outbox[-1]


def path_in(message, prefix: str) -> str:
    match = re.search(r"http://localhost:8000(" + re.escape(prefix) + r"\S*/)", message.body)
    assert match, f"no {prefix} link in:\n{message.body}"
    return match.group(1)


def signed_in_as(client) -> int | None:
    user_id = client.session.get("_auth_user_id")
    return int(user_id) if user_id else None


@pytest.fixture
def game(anna, ben):
    return new_game(anna, ben)


# --- unsubscribe ----------------------------------------------------------------------------


def email_table(user) -> dict[str, str]:
    """The player's email column: kind -> setting."""
    return {
        kind: value
        for (kind, channel), value in preferences.table(user).items()
        if channel == "email"
    }


ALL_ON = {
    "your_turn": "on",
    "reminder": "on",
    "timeout": "on",
    "game_over": "on",
    "new_messages": "off",
    "invitations": "on",
    "tournaments": "on",
}


def test_it_unsubscribes_from_one_kind_with_one_click_without_signing_in(game, anna):
    message = email_to(anna, game, "game_started")
    path = path_in(message, "/email/unsubscribe/")
    assert message.extra_headers["List-Unsubscribe"] == f"<http://localhost:8000{path}>"
    assert "Stop “Invitations” emails (one click)" in message.body
    client = Client()

    page = client.get(path)  # what a mail scanner sees: buttons, nothing changed yet
    assert page.status_code == 200
    assert "Stop “Invitations” emails?" in page.content.decode()
    assert b'method="post"' in page.content
    assert email_table(anna) == ALL_ON

    done = client.post(path)
    assert done.status_code == 200
    assert b"You are unsubscribed" in done.content
    assert b'href="/accounts/notifications/"' in done.content
    assert email_table(anna) == {**ALL_ON, "invitations": "off"}
    assert signed_in_as(client) is None


def test_it_offers_every_other_kind_one_click_away_from_any_email(game, anna):
    path = path_in(email_to(anna, game, "reminder"), "/email/unsubscribe/")
    page = html.unescape(Client().get(path).content.decode())
    for label in ("Your turn", "Timeouts", "Game over", "New messages", "Invitations"):
        assert f"Stop “{label}” emails" in page
    assert "Stop all game emails" in page

    Client().post(path, {"kind": "game_over"})
    assert email_table(anna) == {**ALL_ON, "game_over": "off"}
    Client().post(path, {"kind": "all"})
    assert set(email_table(anna).values()) == {"off"}
    refused = Client().post(path, {"kind": "everything<script>"})
    assert refused.status_code == 400


def test_it_accepts_the_one_click_post_of_a_mail_provider_without_csrf(game, ben):
    path = path_in(email_to(ben, game, "your_turn"), "/email/unsubscribe/")
    provider = Client(enforce_csrf_checks=True)
    response = provider.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert response.content == b"Unsubscribed.\n"
    assert email_table(ben) == {**ALL_ON, "your_turn": "off"}
    # No more turn emails reach Ben; other kinds still do.
    mail.outbox.clear()
    turn = outbox.notify(ben, "your_turn", game=game, key="after-unsubscribe")
    assert turn.status == Notification.Status.SKIPPED
    over = outbox.notify(ben, "game_over", game=game, key="still-subscribed")
    assert over.status == Notification.Status.PENDING


def test_it_still_unsubscribes_from_everything_with_a_link_from_before_the_table(anna):
    old_link = links.absolute(f"/email/unsubscribe/{links.unsubscribe_token(anna)}/")
    page = Client().get(old_link.removeprefix("http://localhost:8000"))
    assert b"Stop game emails?" in page.content
    Client().post(old_link.removeprefix("http://localhost:8000"), {"List-Unsubscribe": "One-Click"})
    assert set(email_table(anna).values()) == {"off"}


def test_it_refuses_a_tampered_unsubscribe_link(game, anna, ben):
    path = path_in(email_to(anna, game, "game_started"), "/email/unsubscribe/")
    token = path.split("/")[-2]
    value, stamp, signature = token.rsplit(":", 2)
    user_id, kind = value.split(":")
    tampered = [
        f"{ben.pk}:{kind}:{stamp}:{signature}",  # someone else's account
        f"{user_id}:your_turn:{stamp}:{signature}",  # another kind
        f"{user_id}:{kind}:{stamp}:{signature[:-2]}xx",
        f"{user_id}:{stamp}",
        links.read_login_token.__name__,
    ]
    for bad in tampered:
        for method in (Client().get, Client().post):
            response = method(f"/email/unsubscribe/{bad}/")
            assert response.status_code == 400, bad
            assert b"This link does not work" in response.content
    for user in (anna, ben):
        assert email_table(user) == ALL_ON


def test_it_lets_an_old_unsubscribe_link_submit_itself(anna):
    fresh = Client().get(
        links.unsubscribe_url(anna, "reminder").removeprefix("http://localhost:8000")
    )
    assert b"data-autosubmit" not in fresh.content  # mail scanners open links at delivery
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 600):
        old_url = links.unsubscribe_url(anna, "reminder")
    old = Client().get(old_url.removeprefix("http://localhost:8000"))
    assert b'<form method="post" id="email-link-form" data-autosubmit>' in old.content
    assert b"<script>" not in old.content  # the CSP allows no inline script: static/js/site.js


# --- sign-in link ---------------------------------------------------------------------------


def test_it_signs_the_player_in_once_with_the_link_in_a_turn_email(game):
    player = acting_user(game)
    path = path_in(email_to(player, game), f"/email/play/{game.pk}/")
    browser = Client()

    page = browser.get(path)  # a mail scanner's GET does not use the link up
    assert page.status_code == 200
    assert f"signing in as <strong>{player.public_name}</strong>".encode() in page.content
    assert signed_in_as(browser) is None

    response = browser.post(path)
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert signed_in_as(browser) == player.pk
    assert browser.get(f"/games/{game.pk}/").status_code == 200
    assert LoginToken.objects.get().used_at is not None

    # The same browser clicking again just goes to the game.
    assert browser.get(path)["Location"] == f"/games/{game.pk}/"
    # Anyone else with the link (a forwarded email) gets the sign-in page.
    for method in (Client().get, Client().post):
        again = method(path)
        assert again.status_code == 302
        assert again["Location"] == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"


def test_it_sends_an_expired_link_to_the_sign_in_page_and_then_to_the_game(game, settings):
    player = acting_user(game)
    path = path_in(email_to(player, game), f"/email/play/{game.pk}/")
    LoginToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    browser = Client()

    response = browser.get(path)
    assert response["Location"] == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "That sign-in link has expired or was already used. Sign in to continue to your game."
    ]
    assert signed_in_as(browser) is None
    login = browser.post(response["Location"], {"login": player.email, "password": PASSWORD})
    assert login.status_code == 302 and login["Location"] == f"/games/{game.pk}/"
    assert signed_in_as(browser) == player.pk


def test_it_checks_the_age_of_the_signature_too(game, settings):
    """The signed timestamp expires the link even if its row says otherwise."""
    settings.NOTIFICATIONS_LOGIN_LINK_MAX_AGE = 3600
    player = acting_user(game)
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 3601):
        url = links.login_url(player, game)
    LoginToken.objects.update(expires_at=timezone.now() + timedelta(days=1))
    path = url.removeprefix("http://localhost:8000")
    assert Client().post(path)["Location"].startswith("/accounts/login/?next=")
    assert LoginToken.objects.get().used_at is None


def test_it_refuses_a_tampered_sign_in_link_or_one_for_another_game(game, anna, ben):
    player = acting_user(game)
    other_game = new_game(anna, ben, seed=7)
    path = path_in(email_to(player, game), f"/email/play/{game.pk}/")
    token = path.split("/")[-2]
    token_id, stamp, signature = token.split(":")
    other_digit = "1" if token_id.endswith("0") else "0"
    bad_paths = [
        f"/email/play/{game.pk}/{token_id}:{stamp}:{signature[:-2]}xx/",
        f"/email/play/{game.pk}/{token_id[:-1]}{other_digit}:{stamp}:{signature}/",
        f"/email/play/{other_game.pk}/{token}/",
        f"/email/play/{game.pk}/not-a-token/",
    ]
    for bad in bad_paths:
        browser = Client()
        response = browser.post(bad)
        game_id = bad.split("/")[3]
        assert response["Location"] == f"/accounts/login/?next=%2Fgames%2F{game_id}%2F", bad
        assert signed_in_as(browser) is None
    assert LoginToken.objects.get().used_at is None


def test_it_puts_a_new_sign_in_link_in_every_turn_email(game):
    player = acting_user(game)
    first = path_in(email_to(player, game, "your_turn"), "/email/play/")
    second = path_in(email_to(player, game, "reminder"), "/email/play/")
    assert first != second
    assert LoginToken.objects.filter(user=player, game=game).count() == 2


# --- the account page points to the notification settings -----------------------------------


def test_it_links_the_account_page_to_the_notification_settings(anna):
    client = Client()
    client.force_login(anna)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="email-preferences-heading"' in page
    assert 'href="/accounts/notifications/"' in page


def test_it_still_changes_the_display_name_from_the_account_page(anna):
    client = reauthenticated(anna)  # a new name needs the password again
    response = client.post("/accounts/profile/", {"display_name": "Annabella"})
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.display_name == "Annabella"
