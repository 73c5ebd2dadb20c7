"""Rate limits that hold: counted in the shared cache (so every worker sees one count), by the
client's address behind the reverse proxy (so one attacker does not lock everyone out), on the
admin's sign-in too, and per player for game creation, invitations and moves."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import lobby
from games.limits import MESSAGES
from games.models import Game, Invitation
from games.rules.firenze import rules
from tests.factories import PASSWORD, UserFactory
from tests.web.helpers import HTMX, signed_in, started_game

pytestmark = pytest.mark.django_db
User = get_user_model()
TOO_MANY = "Too many failed login attempts"


@pytest.fixture(autouse=True)
def production_rates(settings):
    """The rates production runs with (the test settings raise the move limit)."""
    from firenze_site import settings as production

    settings.ACCOUNT_RATE_LIMITS = production.ACCOUNT_RATE_LIMITS


def guess(password: str, email: str = "anna@example.com", *, client_ip: str | None = None):
    """One sign-in attempt from a browser of its own, through the proxy if ``client_ip``."""
    headers = {"HTTP_X_FORWARDED_FOR": client_ip} if client_ip else {}
    return Client().post("/accounts/login/", {"login": email, "password": password}, **headers)


def signed_in_ok(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


def test_five_wrong_passwords_lock_the_account_even_from_many_addresses(anna, settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for n in range(5):
        wrong = guess(f"wrong-{n}", client_ip=f"203.0.113.{n + 1}")
        assert wrong.status_code == 200 and TOO_MANY not in wrong.content.decode()

    sixth = guess(PASSWORD, client_ip="198.51.100.7")

    assert not signed_in_ok(sixth)
    assert TOO_MANY in sixth.content.decode()


def test_the_right_password_does_not_use_up_a_guess(anna):
    for _ in range(4):
        guess("wrong")
    assert signed_in_ok(guess(PASSWORD))
    assert signed_in_ok(guess(PASSWORD))


def test_behind_the_proxy_one_attacker_does_not_lock_out_the_other_players(settings, anna):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for n in range(12):  # over the 10 a minute of one address, on many accounts
        guess("wrong", f"nobody{n}@example.com", client_ip="203.0.113.66")
    assert (
        TOO_MANY in guess("wrong", "other@example.com", client_ip="203.0.113.66").content.decode()
    )

    assert signed_in_ok(guess(PASSWORD, client_ip="198.51.100.20"))


def test_without_the_proxy_setting_every_client_would_share_the_proxys_address(settings, anna):
    """What the README's proxy settings prevent: all requests come from the proxy."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    for n in range(10):
        guess("wrong", f"nobody{n}@example.com", client_ip="203.0.113.66")

    assert not signed_in_ok(guess(PASSWORD, client_ip="198.51.100.20"))


def test_a_forged_forwarded_for_does_not_reset_the_count(settings, anna):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for n in range(10):
        # The proxy appends the real address; the client's own value comes first.
        guess("wrong", f"nobody{n}@example.com", client_ip=f"10.0.0.{n}, 203.0.113.66")

    refused = guess("wrong", "x@example.com", client_ip="10.9.9.9, 203.0.113.66")
    assert TOO_MANY in refused.content.decode()


def test_the_admin_signs_in_through_the_limited_sign_in_page(anna):
    UserFactory(username="root", email="root@example.com", is_staff=True, is_superuser=True)

    response = Client().post("/admin/login/", {"username": "root", "password": "wrong"})

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    for n in range(5):
        guess(f"wrong-{n}", "root@example.com")
    browser = Client()
    refused = browser.post("/accounts/login/", {"login": "root@example.com", "password": PASSWORD})
    assert TOO_MANY in refused.content.decode()
    chain = browser.get("/admin/", follow=True).redirect_chain
    assert chain[-1][0].startswith("/accounts/login/")


def test_game_creation_is_limited_per_player(anna):
    browser = signed_in(anna)
    data = {
        "num_players": 2,
        "neutral_seals": 5,
        "seal_placement": "recommended",
        "time_limit": str(3 * 86400),
        "is_public": "1",
    }
    created = [browser.post("/games/new/", data).status_code for _ in range(10)]
    refused = browser.post("/games/new/", data)

    assert created == [302] * 10
    assert refused.status_code == 429
    assert str(MESSAGES["create_game"]) in refused.content.decode()
    assert Game.objects.filter(creator=anna).count() == 10


def test_one_player_cannot_flood_another_with_invitation_emails(anna, ben, carla):
    browser = signed_in(anna)
    games = [lobby.create_game(anna, num_players=3) for _ in range(5)]
    mail.outbox.clear()

    answers = [
        browser.post(reverse("games:invite", args=[g.pk]), {"display_name": "Ben"}, follow=True)
        for g in games
    ]

    assert Invitation.objects.filter(user=ben).count() == 3
    assert str(MESSAGES["invite_pair"]) in answers[3].content.decode()
    # Another player is not affected by Anna's limit towards Ben.
    browser.post(reverse("games:invite", args=[games[4].pk]), {"display_name": "Carla"})
    assert Invitation.objects.filter(user=carla).count() == 1


def test_invitations_by_address_are_limited_per_player_and_day(
    anna, carla, django_capture_on_commit_callbacks
):
    """Ten a day, whoever the addresses belong to (so the limit tells nothing about who has an
    account: carla's address counts as well)."""
    browser = signed_in(anna)
    addresses = [f"friend{n}@example.org" for n in range(9)] + [carla.email, "one@example.org"]
    games = [lobby.create_game(anna, num_players=2) for _ in addresses]
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        answers = [
            browser.post(reverse("games:invite", args=[g.pk]), {"display_name": a}, follow=True)
            for g, a in zip(games, addresses, strict=True)
        ]

    assert Invitation.objects.count() == 10
    assert str(MESSAGES["invite_email"]) in answers[-1].content.decode()
    assert not Invitation.objects.filter(email="one@example.org").exists()
    assert len([m for m in mail.outbox if m.to != [carla.email]]) == 9


def test_password_resets_and_sign_in_codes_to_one_address_are_limited(client, anna):
    resets = [
        Client().post("/accounts/password/reset/", {"email": anna.email}).status_code
        for _ in range(4)
    ]
    codes = [Client().post("/accounts/login/code/", {"email": anna.email}) for _ in range(4)]

    assert resets == [302, 302, 302, 429]  # three an hour per address
    assert [c.status_code for c in codes[:3]] == [302] * 3  # three in 15 minutes
    assert "Too many" in codes[3].content.decode()
    assert len(mail.outbox) == 6


def test_moves_are_limited_per_player(anna, ben, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "move": "3/m/user"}
    game = started_game(anna, ben)
    player = game.seats.get(number=game.acting_seat).user
    browser = signed_in(player)
    statuses = []
    for _ in range(4):
        game.refresh_from_db()
        action = rules.legal_actions(game.load_state())[0]
        response = browser.post(
            reverse("games:move", args=[game.pk]),
            {"action": json.dumps(action), "version": game.version},
        )
        statuses.append(response.status_code)

    assert statuses == [302, 302, 302, 429]
    assert str(MESSAGES["move"]) in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version
    htmx = browser.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
        **HTMX,
    )
    assert str(MESSAGES["move"]) in htmx.content.decode()
