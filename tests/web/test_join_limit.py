"""Taking seats is limited like invitations (issue 33, abuse): over the limit the page says so,
and no seat is taken; once the window has passed, seats can be taken again."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games import lobby
from games.limits import MESSAGES
from games.models import Game, Seat
from tests.web.helpers import HTMX, signed_in

pytestmark = pytest.mark.django_db
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def two_seats_an_hour(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "join_game": "2/h/user"}


def join(browser, game: Game, **extra):
    return browser.post(reverse("games:join", args=[game.pk]), **extra)


def seated(user, game: Game) -> bool:
    return Seat.objects.filter(game=game, user=user).exists()


def test_it_seats_under_the_limit_and_refuses_over_it_with_the_message(anna, ben):
    with time_machine.travel(START, tick=False):
        tables = [lobby.create_game(anna, num_players=3) for _ in range(3)]
        browser = signed_in(ben)
        taken = [join(browser, table).status_code for table in tables[:2]]
        refused = join(browser, tables[2])
        in_the_page = join(browser, tables[2], **HTMX)

    assert taken == [302, 302]
    assert all(seated(ben, table) for table in tables[:2])
    assert refused.status_code == 429
    assert str(MESSAGES["join_game"]) in html.unescape(refused.content.decode())
    assert str(MESSAGES["join_game"]) in html.unescape(in_the_page.content.decode())
    assert not seated(ben, tables[2])
    assert tables[2].seats.count() == 1


def test_it_seats_again_once_the_hour_has_passed(anna, ben):
    with time_machine.travel(START, tick=False) as traveller:
        tables = [lobby.create_game(anna, num_players=3) for _ in range(3)]
        browser = signed_in(ben)
        for table in tables[:2]:
            join(browser, table)
        assert join(browser, tables[2]).status_code == 429
        traveller.shift(timedelta(hours=1, seconds=1))
        again = join(browser, tables[2])

    assert again.status_code == 302
    assert seated(ben, tables[2])


def test_it_counts_each_player_on_their_own(anna, ben, carla):
    with time_machine.travel(START, tick=False):
        tables = [lobby.create_game(anna, num_players=4) for _ in range(3)]
        ben_browser = signed_in(ben)
        for table in tables:
            join(ben_browser, table)
        carla_joins = join(signed_in(carla), tables[2])

    assert not seated(ben, tables[2])
    assert carla_joins.status_code == 302 and seated(carla, tables[2])
