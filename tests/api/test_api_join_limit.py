"""Taking a seat through the API is limited as on the page (issue 33, abuse): the refusal is
429 "rate_limited" in the player's language, and no seat is taken."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import lobby
from games.models import Game, Seat

pytestmark = pytest.mark.django_db
START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
GERMAN = "Du hast in kurzer Zeit viele Plätze eingenommen; warte eine Weile bis zum nächsten."


@pytest.fixture(autouse=True)
def two_seats_an_hour(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "join_game": "2/h/user"}


def seated(user, game: Game) -> bool:
    return Seat.objects.filter(game=game, user=user).exists()


def test_it_refuses_a_seat_over_the_limit_in_the_players_language(api_as, anna, ben):
    with time_machine.travel(START, tick=False) as traveller:
        tables = [lobby.create_game(anna, num_players=3) for _ in range(3)]
        client = api_as(ben, language="de")
        taken = [client.post(f"/games/{t.pk}/join", {}).status_code for t in tables[:2]]
        refused = client.post(f"/games/{tables[2].pk}/join", {})
        not_yet = seated(ben, tables[2])
        traveller.shift(timedelta(hours=1, seconds=1))
        again = client.post(f"/games/{tables[2].pk}/join", {})

    assert taken == [200, 200]
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert refused.json()["message"] == GERMAN
    assert not not_yet
    assert again.status_code == 200 and seated(ben, tables[2])
