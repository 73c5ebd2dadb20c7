"""The archive pages on PostgreSQL, which refuses some values SQLite takes (a NUL character in
a text parameter) and plans queries its own way: hostile query strings and names still get a
page, never a 500, and the queries that only PostgreSQL builds differently (the head-to-head
join, the covering and partial indexes) answer the same. `make test` runs these."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.urls import reverse

from tests.factories import finished_record
from tests.web.helpers import signed_in

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

HOSTILE = ["Anna\x00", "\x00", "٣", "x" * 500, "'; DROP TABLE x; --", "Ａｎｎａ", "%00"]


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=postgres://...")


@pytest.fixture
def games(anna, ben, carla):
    return [
        finished_record([anna, ben], [50, 40]),
        finished_record([ben, anna, carla], [30, 60, 45], is_public=False),
    ]


@pytest.mark.parametrize("value", HOSTILE)
def test_it_answers_hostile_filters_and_names_without_failing(client, games, anna, value):
    browser = signed_in(anna)
    for params in ({"player": value}, {"page": value}, {"since": value}, {"players": value}):
        assert browser.get(reverse("games:history"), params).status_code == 200
    assert client.get(reverse("players:leaderboard"), {"page": value}).status_code == 200
    replay = reverse("games:replay", args=[games[0].game_id])
    assert client.get(replay, {"step": value, "turn": value}).status_code in (200, 404)
    profile = browser.get(f"/players/{value}/")
    assert profile.status_code in (301, 404)


def test_it_lists_the_same_games_and_head_to_head_as_on_sqlite(games, anna, ben, carla):
    page = signed_in(ben).get(reverse("players:profile", args=["Anna"])).content.decode()

    assert "2 finished games together" in re.sub(r"<[^>]+>", "", page)
    assert f'href="/games/{games[1].game_id}/"' in page  # private, but Ben played it
    other = signed_in(carla).get(reverse("games:history"), {"player": "Ben"}).content.decode()
    assert f'href="/games/{games[0].game_id}/"' in other
    assert f'href="/games/{games[1].game_id}/"' in other  # Carla played it too
