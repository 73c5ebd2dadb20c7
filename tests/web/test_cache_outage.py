"""A Redis cache that is down degrades the site instead of breaking it: game pages render (without
the board fragment cache), moves are played, the sign-in page shows, and password sign-in is
paused with a message rather than left without its guess limit. Nothing answers 500."""

from __future__ import annotations

import json
import socket

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts import adapter
from firenze_site import cache as shared_cache
from games.rules.firenze import rules
from tests.factories import PASSWORD
from tests.web.helpers import HTMX, signed_in, started_game

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
