"""A Redis cache that is down degrades the site instead of breaking it: game pages render (without
the board fragment cache), moves are played, the sign-in page shows, and password sign-in is
paused with a message rather than left without its guess limit. Whatever sends an email to a
typed address (password reset, sign-in code, sign-up, invitations) pauses the same way, with
"try again in a few minutes"; the limits kept in the database (table talk, the webhook test)
go on counting. Nothing answers 500."""

from __future__ import annotations

import json
import socket

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

from accounts import adapter
from firenze_site import cache as shared_cache
from games import lobby
from games.models import Game, Invitation
from games.rules.firenze import rules
from tests.factories import PASSWORD
from tests.web.helpers import HTMX, fast_forward, signed_in, started_game

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends: nothing listens


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "firenze_site.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/1",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    shared_cache.ResilientRedisCache._down_until = 0.0
    yield
    shared_cache.ResilientRedisCache._down_until = 0.0


def test_the_cache_answers_as_empty_while_redis_is_down(redis_down):
    assert cache.get("board") is None
    assert cache.get("board", "fallback") == "fallback"
    cache.set("board", "x")  # dropped, no exception
    assert cache.add("lock", 1) is True
    assert shared_cache.is_down()


def test_game_pages_and_moves_work_without_the_cache(redis_down, anna, ben):
    game = started_game(anna, ben)
    player = game.seats.get(number=game.acting_seat).user
    browser = signed_in(player)

    assert browser.get(reverse("games:detail", args=[game.pk])).status_code == 200
    action = rules.legal_actions(game.load_state())[0]
    moved = browser.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
        **HTMX,
    )
    assert moved.status_code == 200
    game.refresh_from_db()
    assert game.moves.count() == 1
    assert browser.get(reverse("games:version", args=[game.pk])).status_code == 200


def test_sign_in_is_paused_not_broken_while_the_limits_cannot_count(redis_down, client, anna):
    assert client.get("/accounts/login/").status_code == 200

    response = client.post("/accounts/login/", {"login": anna.email, "password": PASSWORD})

    assert response.status_code == 200
    assert str(adapter.SIGN_IN_PAUSED) in response.content.decode()
    assert "_auth_user_id" not in client.session


# --- what sends an email fails closed; limits kept in the database hold -----------------------

PAUSED = "try again in a few minutes"


def test_password_reset_and_sign_in_codes_pause_instead_of_mailing_without_limit(
    redis_down, client, anna
):
    for _ in range(3):
        reset = client.post("/accounts/password/reset/", {"email": anna.email})
        assert reset.status_code == 200
        assert PAUSED in reset.content.decode()
        code = client.post("/accounts/login/code/", {"email": anna.email})
        assert code.status_code == 200
        assert PAUSED in code.content.decode()
    assert mail.outbox == []


def test_sign_up_and_adding_an_address_pause_too(redis_down, client, anna):
    signup = client.post(
        "/accounts/signup/",
        {
            "email": "new@example.com",
            "display_name": "Newcomer",
            "password1": "x7!Kq2pLz-9",
            "password2": "x7!Kq2pLz-9",
        },  # fmt: skip
    )
    assert signup.status_code == 200 and PAUSED in signup.content.decode()
    assert not get_user_model().objects.filter(email="new@example.com").exists()
    added = signed_in(anna).post("/accounts/email/", {"email": "second@example.com",
                                                      "action_add": ""})  # fmt: skip
    assert PAUSED in added.content.decode()
    assert mail.outbox == []


def test_invitations_pause_while_playing_goes_on(
    redis_down, anna, ben, django_capture_on_commit_callbacks
):
    forming = lobby.create_game(anna, num_players=3, is_public=False)
    creator = signed_in(anna)
    with django_capture_on_commit_callbacks(execute=True):
        by_name = creator.post(reverse("games:invite", args=[forming.pk]), {"display_name": "Ben"})
        by_address = creator.post(
            reverse("games:invite", args=[forming.pk]), {"display_name": "someone@example.org"}
        )
    for answer in (by_name, by_address):
        assert answer.status_code in (302, 303, 503)
    page = creator.get(reverse("games:detail", args=[forming.pk])).content.decode()
    assert PAUSED in page
    assert not Invitation.objects.exists()
    assert mail.outbox == []

    game = started_game(anna, ben)  # and the game next door is played
    player = game.seats.get(number=game.acting_seat).user
    action = rules.legal_actions(game.load_state())[0]
    moved = signed_in(player).post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
        **HTMX,
    )
    assert moved.status_code == 200


def test_a_rematch_that_would_invite_by_email_pauses_too(
    redis_down, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    fast_forward(game)
    mail.outbox.clear()
    player = signed_in(ben)
    with django_capture_on_commit_callbacks(execute=True):
        answer = player.post(reverse("games:rematch", args=[game.pk]))
    assert answer.status_code == 302
    assert PAUSED in player.get(answer["Location"]).content.decode()
    assert Game.objects.count() == 1 and not Invitation.objects.exists()
    assert mail.outbox == []


def test_table_talk_and_webhook_test_limits_hold_without_the_cache(
    redis_down, anna, ben, receiver, django_capture_on_commit_callbacks
):
    """Counted in the database: the cache being down changes nothing."""
    from chat.models import Message
    from chat.services import RATE_LIMIT
    from notifications.models import Notification, Webhook

    game = started_game(anna, ben)
    writer = signed_in(anna)
    answers = [
        writer.post(reverse("chat:post", args=[game.pk]), {"text": f"hello {n}"})
        for n in range(RATE_LIMIT + 1)
    ]
    assert [a.status_code for a in answers[:RATE_LIMIT]] == [302] * RATE_LIMIT
    assert answers[-1].status_code == 429
    assert Message.objects.filter(game=game).count() == RATE_LIMIT

    Webhook.objects.create(user=anna, url=receiver.url("/hook"), format="json")
    with django_capture_on_commit_callbacks(execute=True):
        writer.post(reverse("notification_settings:webhook_test"))
        again = writer.post(reverse("notification_settings:webhook_test"), follow=True)
    assert "A test was sent a moment ago" in again.content.decode()
    assert Notification.objects.filter(kind="test").count() == 1
