"""The cost of the pages a player keeps open, pinned (issue 27): a game page served from the
cache reads the shared Redis once (the session together with the page, the viewer's count and
last look, for the user the signed viewer cookie names: firenze_site.prefetch) and asks the
database a fixed number of questions; the poll reads Redis once. Counted against a real
redis-server: a round trip is one write of a command (or a pipeline) to its socket."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from redis.connection import Connection

from bench.stack import RedisServer
from games.rules.firenze import rules
from inbox import counts
from tests.web.helpers import HTMX, play_greedy, signed_in, started_game

pytestmark = pytest.mark.django_db

# Seated player, page from the cache: the user (with its language and zone) and the game's
# head; the session comes from the cache.
PAGE_QUERIES = 2
POLL_QUERIES = 0  # answered from the cached versions


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory) -> Iterator[str]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server.url
    server.stop()


@pytest.fixture
def shared_redis(redis_url):
    caches = {
        "default": {"BACKEND": "firenze_site.cache.ResilientRedisCache", "LOCATION": redis_url}
    }
    with override_settings(CACHES=caches):
        from django.core.cache import cache

        cache.clear()
        yield


@contextmanager
def trips() -> Iterator[list[bytes]]:
    """The commands each round trip to Redis sent."""
    sent: list[bytes] = []
    original = Connection.send_packed_command

    def send(self, command, check_health=True):
        sent.append(command if isinstance(command, bytes) else b"".join(command))
        return original(self, command, check_health)

    Connection.send_packed_command = send  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        Connection.send_packed_command = original  # type: ignore[method-assign]


@contextmanager
def costs() -> Iterator[tuple[list[bytes], CaptureQueriesContext]]:
    with trips() as sent, CaptureQueriesContext(connection) as queries:
        yield sent, queries


def warm(browser: Client, url: str, **headers: str) -> None:
    """Draw the page once (and fill the session's, the count's and the look's cache, and
    the browser's viewer cookie)."""
    for _ in range(2):
        assert browser.get(url, **headers).status_code == 200


@pytest.fixture
def game(anna, ben):
    return started_game(anna, ben, seed=11)


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx part"])
def test_it_serves_a_cached_game_page_in_one_redis_round_trip(shared_redis, game, anna, headers):
    browser = signed_in(anna)
    url = reverse("games:detail", args=[game.pk])
    warm(browser, url, **headers)

    with costs() as (sent, queries):
        response = browser.get(url, **headers)

    assert response.status_code == 200
    assert len(sent) == 1, sent
    assert sent[0].count(b"MGET") == 1
    assert all(key in sent[0] for key in (b"firenze.session", b"game-page", b"inbox-count"))
    assert len(queries) == PAGE_QUERIES, [q["sql"] for q in queries.captured_queries]


def test_it_serves_a_visitor_the_cached_page_in_one_round_trip(shared_redis, game, client):
    url = reverse("games:detail", args=[game.pk])
    warm(client, url)

    with costs() as (sent, queries):
        response = client.get(url)

    assert response.status_code == 200
    assert len(sent) == 1 and b"game-page" in sent[0]
    assert len(queries) == 1  # the game's head


def test_it_answers_the_poll_in_one_round_trip_and_no_query(shared_redis, game, anna):
    browser = signed_in(anna)
    poll = reverse("games:version", args=[game.pk])
    browser.get(poll, {"v": game.version})

    with costs() as (sent, queries):
        response = browser.get(poll, {"v": game.version})

    assert response.status_code == 204
    assert len(sent) == 1 and len(queries) == POLL_QUERIES


def test_it_asks_the_count_once_and_answers_304_in_one_round_trip(shared_redis, game, anna):
    browser = signed_in(anna)
    url = reverse("games:detail", args=[game.pk])
    warm(browser, url)
    etag = browser.get(url)["ETag"]

    with costs() as (sent, _):
        response = browser.get(url, HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304
    assert len(sent) == 1
    assert sum(command.count(b"inbox-count") for command in sent) == 1


def test_it_sends_the_page_again_when_only_the_header_count_changed(
    shared_redis, game, anna, ben, carla
):
    browser = signed_in(anna)
    url = reverse("games:detail", args=[game.pk])
    warm(browser, url)
    etag = browser.get(url)["ETag"]
    before = counts.waiting_count(anna)
    other = started_game(carla, anna, seed=11)
    seat = other.seats.get(user=anna).number
    play_greedy(other, 40, until=lambda state: rules.acting_seat(state) == seat)
    counts.forget([anna.pk])
    assert counts.waiting_count(anna) != before

    response = browser.get(url, HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200
    assert response["ETag"] != etag
    assert f"-i{counts.waiting_count(anna)}" in response["ETag"]


def test_it_reads_another_signed_in_pages_session_and_count_in_one_round_trip(
    shared_redis, game, anna
):
    browser = signed_in(anna)
    url = reverse("inbox:inbox")
    warm(browser, url)

    with costs() as (sent, _):
        response = browser.get(url)

    assert response.status_code == 200
    assert len(sent) == 1 and b"firenze.session" in sent[0] and b"inbox-count" in sent[0]


def test_it_reads_the_lobbys_list_with_its_generation(shared_redis, game, anna, client):
    """A visitor's lobby in one round trip; a player's in two: the list's key names the
    language, which only the player's account tells."""
    url = reverse("games:lobby")
    browser = signed_in(anna)
    warm(browser, url)
    warm(client, url)

    with costs() as (by_player, _):
        assert browser.get(url).status_code == 200
    with costs() as (by_visitor, _):
        assert client.get(url).status_code == 200

    assert len(by_player) == 2 and b"firenze.session" in by_player[0]
    assert len(by_visitor) == 1
    assert all(b"lobby:generation" in sent[-1] for sent in (by_player, by_visitor))
