"""The version poll answered before the middleware stack (games.poll.PollMiddleware): without a
database query, a session or a user, and with exactly the answers the view gives: the same
status, body and headers for public, private and unknown games, unchanged or changed versions,
good and bad tokens."""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import lobby, versions
from games.models import Game
from tests.web.helpers import HTMX, signed_in, started_game

pytestmark = pytest.mark.django_db

# Headers that differ on every answer: the moment, and the request id (ops/observe.py).
HEADERS_OF_THE_MOMENT = {"Expires", "Date", "X-Request-ID"}
CSRF_TOKEN = re.compile(rb"[A-Za-z0-9]{64}")  # the 404 page's forms: a fresh token each time


def poll_url(game_id: int) -> str:
    return reverse("games:version", args=[game_id])


def answered(browser: Client, game_id: int, params: dict, **headers) -> tuple[dict, int]:
    """What a browser sees (status, body, headers) and how many queries answering it took."""
    with CaptureQueriesContext(connection) as queries:
        response = browser.get(poll_url(game_id), params, **headers)
    seen = {
        "status": response.status_code,
        "body": CSRF_TOKEN.sub(b"", response.content),
        "cookies": sorted(response.cookies),
        "headers": {
            name: _comparable(name, value)
            for name, value in response.headers.items()
            if name not in HEADERS_OF_THE_MOMENT
        },
    }
    return seen, len(queries)


def _comparable(name: str, value: str) -> object:
    """Header values as a browser reads them (CSP directives and Vary names in any order)."""
    if name == "Content-Security-Policy":
        return frozenset(part.strip() for part in value.split(";"))
    if name == "Vary":
        return frozenset(part.strip() for part in value.split(","))
    return value


def by_view_and_by_middleware(browser: Client, game_id: int, params: dict, **headers):
    """The answer of the view (the versions not cached: it reads the database and caches
    them), then the answer once they are cached."""
    cache.delete(versions._key(game_id))
    by_view, view_queries = answered(browser, game_id, params, **headers)
    by_cache, cache_queries = answered(browser, game_id, params, **headers)
    return by_view, view_queries, by_cache, cache_queries


@pytest.fixture
def public(anna, ben):
    return started_game(anna, ben, seed=11)


@pytest.fixture
def private(anna, ben):
    game = lobby.create_game(anna, num_players=2, is_public=False)
    lobby.join(game, ben, token=game.invite_token)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    "seen",
    [
        pytest.param(lambda g: {"v": g.version, "c": g.chat_version}, id="unchanged"),
        pytest.param(lambda g: {"v": g.version}, id="unchanged-no-chat"),
        pytest.param(lambda g: {"v": g.version - 1, "c": g.chat_version}, id="stale-version"),
        pytest.param(lambda g: {"v": g.version, "c": g.chat_version + 1}, id="chat-changed"),
        pytest.param(lambda g: {}, id="no-version"),
        pytest.param(lambda g: {"v": "x", "c": "\x00"}, id="unreadable"),
    ],
)
def test_it_answers_a_public_games_poll_from_the_cache_as_the_view_does(public, anna, seen):
    params = seen(public)
    german = Client()
    german.cookies["lang"] = "de"
    for browser in (Client(), signed_in(anna), german):
        for headers in ({}, {"HTTP_ACCEPT_LANGUAGE": "de-AT,de;q=0.9"}, HTMX):
            by_view, view_queries, by_cache, cache_queries = by_view_and_by_middleware(
                browser, public.pk, params, **headers
            )
            assert view_queries >= 1  # the view read the versions from the database
            assert cache_queries == 0
            assert by_cache == by_view


def test_it_answers_a_cached_poll_before_the_session_and_the_user_are_looked_at(
    public, anna, monkeypatch
):
    from django.contrib.sessions.middleware import SessionMiddleware

    sessions_opened = []
    real = SessionMiddleware.process_request

    def opening(self, request):
        sessions_opened.append(request.path)
        return real(self, request)

    monkeypatch.setattr(SessionMiddleware, "process_request", opening)
    browser = signed_in(anna)
    params = {"v": public.version, "c": 0}
    assert browser.get(poll_url(public.pk), params).status_code == 204  # the view caches them
    assert sessions_opened == [poll_url(public.pk)]
    for _ in range(3):
        assert browser.get(poll_url(public.pk), params).status_code == 204
        assert browser.get(poll_url(public.pk), {"v": 0}).status_code == 200
    assert sessions_opened == [poll_url(public.pk)]


def test_it_tells_a_page_showing_an_older_version_that_the_game_moved_on(public):
    answer = Client().get(poll_url(public.pk), {"v": public.version})  # caches the versions
    assert answer.status_code == 204
    Game.objects.filter(pk=public.pk).update(version=public.version + 1)
    versions.publish(public.pk)  # as after a move's commit
    answer = Client().get(poll_url(public.pk), {"v": public.version, "c": 0})
    assert answer.status_code == 200
    assert answer["HX-Trigger"] == "game-changed"
    assert answer.json() == {"version": public.version + 1, "chat": 0}


def session_of(browser: Client) -> str:
    cookie = browser.cookies.get(django_settings.SESSION_COOKIE_NAME)
    return cookie.value if cookie is not None else ""


def test_it_answers_a_private_games_poll_with_its_token_and_without_the_session(private, carla):
    for browser in (Client(), signed_in(carla)):
        token = versions.poll_token(private.pk, session_of(browser))
        for params in ({"v": private.version, "p": token}, {"v": 0, "p": token}):
            by_view, _, by_cache, cache_queries = by_view_and_by_middleware(
                browser, private.pk, params
            )
            assert cache_queries == 0
            assert by_cache == by_view
            assert by_cache["status"] in (200, 204)


def test_a_poll_token_works_only_for_its_viewer_and_only_for_a_while(private, carla):
    """Copied to another browser, or kept past its expiry, the token opens nothing: the view
    asks the session, and a stranger gets 404."""
    versions.current(private.pk)  # cached: the middleware would answer a valid token
    stranger = signed_in(carla)
    someone_elses = versions.poll_token(private.pk, "another-session")
    old = versions.poll_token(
        private.pk, session_of(stranger), now=time.time() - versions.POLL_TOKEN_SECONDS - 1
    )
    for token in (someone_elses, old, "ffffffffffff." + old.partition(".")[2]):
        answer = stranger.get(poll_url(private.pk), {"v": private.version, "p": token})
        assert answer.status_code == 404, token


@pytest.mark.parametrize(
    "token",
    ["", "0" * 32, "x", "9" * 5000, "²", None],
    ids=["empty", "zeros", "short", "huge", "unicode", "absent"],
)
def test_it_never_answers_a_private_games_poll_without_its_token_from_the_cache(
    private, carla, ben, token
):
    """No token, or a wrong one: the view decides with the session, as before (a stranger gets
    404, a seated player their answer)."""
    params = {"v": private.version} if token is None else {"v": private.version, "p": token}
    versions.current(private.pk)  # cached: only the token could let the middleware answer
    for browser, status in ((Client(), 404), (signed_in(carla), 404), (signed_in(ben), 204)):
        by_view, view_queries, by_cache, cache_queries = by_view_and_by_middleware(
            browser, private.pk, params
        )
        assert by_view["status"] == by_cache["status"] == status
        assert cache_queries >= 1  # the view answered: it looked at the game in the database
        assert by_cache == by_view


def test_it_answers_an_unknown_game_with_the_views_404(public):
    for game_id in (public.pk + 1000, 10**30):
        answer = Client().get(f"/games/{game_id}/version/", {"v": 1})
        assert answer.status_code == 404


def test_it_leaves_other_methods_and_urls_to_the_stack(public):
    versions.current(public.pk)
    url = poll_url(public.pk)
    assert Client().post(url, {"v": public.version}).status_code in (403, 405)
    head = Client().head(url, {"v": public.version})
    assert head.status_code == 204 and head.content == b""  # HEAD answers as GET does
    assert Client().get(url.rstrip("/"), {"v": public.version}).status_code == 301
    assert Client().get(f"/games/{public.pk}/version/x/").status_code == 404


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    v=st.text(max_size=40) | st.sampled_from(["1", "9" * 5000, "-0", "٣"]),
    c=st.none() | st.text(max_size=40) | st.sampled_from(["0", "1"]),
    p=st.none() | st.text(max_size=80),
)
def test_it_answers_any_query_string_as_the_view_does(anna, ben, v, c, p):
    game = started_game(anna, ben, seed=3)
    Game.objects.filter(pk=game.pk).update(is_public=False)
    params = {"v": v} | ({} if c is None else {"c": c}) | ({} if p is None else {"p": p})
    browser = Client()
    by_view, _, by_cache, _ = by_view_and_by_middleware(browser, game.pk, params)
    assert by_cache == by_view
    assert by_cache["status"] in (200, 204, 404)
    with_token = {**params, "p": versions.poll_token(game.pk, session_of(browser))}
    by_view, _, by_cache, cache_queries = by_view_and_by_middleware(browser, game.pk, with_token)
    assert by_cache == by_view and cache_queries == 0


def test_it_leaves_a_refused_host_or_query_string_to_the_stack(public):
    """A host not in ALLOWED_HOSTS and a query string with too many fields get the stack's 400,
    with its headers, whether or not the versions are cached."""
    crowded = "&".join(f"f{number}=1" for number in range(1100))
    for cached in (False, True):
        if cached:
            versions.current(public.pk)
        else:
            cache.delete(versions._key(public.pk))
        bad_host = Client().get(poll_url(public.pk), {"v": public.version}, HTTP_HOST="evil.test")
        assert bad_host.status_code == 400
        too_many = Client().get(f"{poll_url(public.pk)}?v={public.version}&{crowded}")
        assert too_many.status_code == 400
        assert "Content-Security-Policy" in too_many and "X-Frame-Options" in too_many
