"""Every path parameter has a shape, checked before a view or the database sees it: a NUL or
another control character in a path is a 404 like any path the site does not serve (on
PostgreSQL a NUL in a query was a 500)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import Resolver404, resolve

from inbox.models import CalendarFeed
from notifications import links
from tests.web.fuzzing import PARAM, fill, site_routes
from tests.web.helpers import started_game

CONTROL = ["\x00", "\x00abc", "abc\x00", "a\x01b", "\x1f", "\x7f", "a\nb"]
HOSTILE_PATHS = [
    "/calendar/%00abc.ics",
    "/games/invite/%00/",
    "/games/invite/a%01b/",
    "/players/%00/",
    "/players/Anna%00/",
    "/email/unsubscribe/%00/",
    "/email/play/1/%00/",
]


def text_params(route: str) -> list[str]:
    """The parameters of a route that are not integers."""
    return [m.group(2) for m in PARAM.finditer(route) if m.group(2) and m.group(1) != "int"]


def test_it_resolves_no_path_with_a_control_character_in_a_parameter():
    # The API's are parsed by its schema (tested below).
    routes = [r for r in site_routes() if text_params(r) and not r.startswith("api/")]
    assert len(routes) >= 5  # invite links, calendars, profiles, the email links...
    for route in routes:
        for bad in CONTROL:
            values = {name: f"ok{bad}" for name in text_params(route)}
            with pytest.raises(Resolver404):
                resolve(fill(route, values))
            # The good shape still resolves (the check is not a blanket refusal).
            good = {name: "Ok-1_token" for name in text_params(route)}
            resolve(fill(route, good))


@pytest.mark.django_db
@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_control_character_in_a_path_is_a_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/players/%00", "/api/v1/players/a%01b", "/api/v1/games/%00"]
)
def test_the_api_refuses_a_control_character_in_a_path(client, path):
    assert client.get(path).status_code in (400, 404)


@pytest.mark.django_db
def test_real_tokens_and_names_still_lead_somewhere(client, anna, ben):
    game = started_game(anna, ben)
    feed = CalendarFeed.objects.create(user=anna)
    assert client.get(f"/calendar/{feed.token}.ics").status_code == 200
    assert client.get(f"/players/{anna.display_name}/").status_code == 200
    assert client.get(f"/email/unsubscribe/{links.unsubscribe_token(ben)}/").status_code == 200
    login = links.login_url(ben, game).rstrip("/").rsplit("/", 1)[1]
    assert client.get(f"/email/play/{game.pk}/{login}/").status_code != 404


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_nul_in_a_path_is_a_404_on_postgresql(client, path):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=postgres://...")
    assert client.get(path).status_code == 404
