"""Sign-in links cannot be used to take an account over: a session opened from a (forwarded)
turn email plays but must give the password for account changes; a link never switches
accounts without asking; a password or address change voids every unused link."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from notifications import links
from notifications.models import LoginToken
from tests.factories import PASSWORD
from tests.web.test_notifications import acting_user, new_game
from tests.web.test_notifications_links import email_to, path_in, signed_in_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(anna, ben):
    return new_game(anna, ben)


def link_for(player, game) -> str:
    return path_in(email_to(player, game), f"/email/play/{game.pk}/")


def old_link_for(player, game) -> str:
    """A link signed ten minutes ago: opened by a person, so its page would submit itself."""
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 600):
        return link_for(player, game)


def signed_in_by_link(player, game) -> Client:
    browser = Client()
    assert browser.post(link_for(player, game)).status_code == 302
    assert signed_in_as(browser) == player.pk
    return browser


def test_it_asks_before_switching_from_another_signed_in_account(game, carla):
    player = acting_user(game)
    path = old_link_for(player, game)
    browser = Client()
    browser.force_login(carla)

    page = browser.get(path)

    text = page.content.decode()
    assert (
        f"You are signed in as <strong>{carla.public_name}</strong> — continue as "
        f"<strong>{player.public_name}</strong>?"
    ) in text
    assert "data-autosubmit" not in text  # an old link's page would submit itself otherwise
    # A post without the explicit answer (a replayed or crafted form) changes nothing.
    assert browser.post(path).status_code == 200
    assert signed_in_as(browser) == carla.pk
    assert LoginToken.objects.get().used_at is None

    assert browser.post(path, {"switch": "yes"})["Location"] == f"/games/{game.pk}/"
    assert signed_in_as(browser) == player.pk


def test_it_lets_an_old_link_submit_itself_when_nobody_is_signed_in(game):
    page = Client().get(old_link_for(acting_user(game), game))

    assert b'id="email-link-form" data-autosubmit' in page.content


def test_a_password_change_voids_unused_links(game):
    player = acting_user(game)
    path = link_for(player, game)
    player.set_password("a-new-password-for-firenze-7")
    player.save()

    response = Client().post(path)

    assert response["Location"].startswith("/accounts/login/")
    assert LoginToken.objects.get().used_at is None


def test_an_email_address_change_voids_unused_links(game):
    player = acting_user(game)
    path = link_for(player, game)
    EmailAddress.objects.create(user=player, email="new@example.net", verified=False)

    browser = Client()
    response = browser.post(path)

    assert response["Location"].startswith("/accounts/login/")
    assert signed_in_as(browser) is None


def test_a_link_session_plays_but_must_give_the_password_to_add_an_email_address(game):
    player = acting_user(game)
    browser = signed_in_by_link(player, game)
    assert browser.get(f"/games/{game.pk}/").status_code == 200

    response = browser.post("/accounts/email/", {"action_add": "", "email": "attacker@example.net"})

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/reauthenticate/")
    assert not EmailAddress.objects.filter(email="attacker@example.net").exists()

    wrong = browser.post(response["Location"], {"password": "not-the-password"})
    assert wrong.status_code == 200
    assert not EmailAddress.objects.filter(email="attacker@example.net").exists()

    right = browser.post(response["Location"], {"password": PASSWORD})
    assert right.status_code == 302
    added = browser.post("/accounts/email/", {"action_add": "", "email": "second@example.net"})
    assert added.status_code == 302
    assert EmailAddress.objects.filter(user=player, email="second@example.net").exists()


def test_a_link_session_cannot_change_the_password_without_the_current_one(game):
    player = acting_user(game)
    browser = signed_in_by_link(player, game)

    browser.post(
        "/accounts/password/change/",
        {"oldpassword": "guess", "password1": "Taken-0ver-123", "password2": "Taken-0ver-123"},
    )

    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_links_made_before_the_fingerprint_existed_do_not_sign_in(game):
    player = acting_user(game)
    path = link_for(player, game)
    LoginToken.objects.update(fingerprint="")

    assert Client().post(path)["Location"].startswith("/accounts/login/")
    assert links.account_fingerprint(player)


# --- the webhook and the display name from a link's session ---------------------------------

SECRET_HOOK = "https://discord.com/api/webhooks/1234/s3cr3t-t0ken"


def test_a_link_session_sees_the_webhook_only_by_its_host_and_cannot_change_it(
    game, settings, monkeypatch
):
    from django.urls import reverse

    from notifications.models import Webhook

    player = acting_user(game)
    Webhook.objects.create(user=player, url=SECRET_HOOK, format="discord")
    browser = signed_in_by_link(player, game)

    page = browser.get(reverse("notification_settings:page")).content.decode()
    assert "s3cr3t" not in page and "webhooks/1234" not in page
    assert "https://discord.com/…" in page
    for name, data in (
        ("webhook", {"url": "https://evil.example.com/hook", "format": "json"}),
        ("webhook_remove", {}),
    ):
        answer = browser.post(reverse(f"notification_settings:{name}"), data)
        assert answer.status_code == 302
        assert answer["Location"].startswith("/accounts/reauthenticate/")
    assert Webhook.objects.get(user=player).url == SECRET_HOOK

    # Giving the password carries the change on, and shows the URL again.
    browser.post(
        reverse("notification_settings:webhook"),
        {"url": "https://hooks.example.com/new", "format": "json"},
    )
    done = browser.post(
        "/accounts/reauthenticate/?next=/accounts/notifications/webhook/", {"password": PASSWORD}
    )
    assert done.status_code == 302
    assert Webhook.objects.get(user=player).url == "https://hooks.example.com/new"
    page = browser.get(reverse("notification_settings:page")).content.decode()
    assert "https://hooks.example.com/new" in page


def test_a_password_session_sees_its_webhook_url(game):
    from django.urls import reverse

    from notifications.models import Webhook
    from tests.web.helpers import signed_in

    player = acting_user(game)
    Webhook.objects.create(user=player, url=SECRET_HOOK, format="discord")
    page = signed_in(player).get(reverse("notification_settings:page")).content.decode()
    assert SECRET_HOOK in page


def test_a_link_session_cannot_rename_the_player_without_the_password(game):
    player = acting_user(game)
    browser = signed_in_by_link(player, game)

    answer = browser.post("/accounts/profile/", {"display_name": "Someone Else"})

    assert answer.status_code == 302
    assert answer["Location"].startswith("/accounts/reauthenticate/")
    player.refresh_from_db()
    assert player.display_name != "Someone Else"
    # The language and time zone need no password.
    language = browser.post("/accounts/profile/", {"form": "language", "language": "de"})
    assert language.status_code == 302 and language["Location"] == "/accounts/profile/"
