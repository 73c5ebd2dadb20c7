"""Seasons, the standing ladder: sign up once per table size, a game every week with players
near one's rating, a monthly table of points, the first three on their profiles."""

from __future__ import annotations

from datetime import datetime
from itertools import combinations
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from notifications.models import Notification
from players.models import Rating
from tests.web.helpers import signed_in
from tests.web.tournament_helpers import end_game, field, table_users
from tournaments import seasons
from tournaments.models import LadderMember, Table, Tournament

pytestmark = pytest.mark.django_db

UTC = ZoneInfo("UTC")
MARCH_1 = datetime(2027, 3, 1, 12, tzinfo=UTC)
MARCH_9 = datetime(2027, 3, 9, 12, tzinfo=UTC)
APRIL_2 = datetime(2027, 4, 2, 12, tzinfo=UTC)


@pytest.fixture
def ladder():
    """Seven members of the 3-player ladder, rated 1900, 1800, ... 1300 (p01 the highest)."""
    members = field(7)
    for number, user in enumerate(members):
        Rating.objects.create(user=user, mu=30, sigma=2, shown=1900 - 100 * number, games=20)
        seasons.join(user, 3)
    return members


def week_tables(number: int) -> list[set[str]]:
    tables = Table.objects.filter(tournament__format="season", round__number=number)
    return [{u.username for u in table_users(t)} for t in tables.order_by("number")]


def test_a_player_joins_and_leaves_a_ladder_from_its_page(anna):
    browser = signed_in(anna)

    joined = browser.post(reverse("tournaments:ladder_join"), {"size": "3"}, follow=True)
    assert "You are on the ladder" in joined.content.decode()
    assert LadderMember.objects.get(user=anna, table_size=3).active
    refused = browser.post(reverse("tournaments:ladder_join"), {"size": "7"}, follow=True)
    assert "There is no ladder for tables of that size." in refused.content.decode()
    browser.post(reverse("tournaments:ladder_leave"), {"size": "3"})
    assert not LadderMember.objects.get(user=anna, table_size=3).active


def test_members_get_a_game_each_week_with_players_near_their_rating(ladder):
    assert seasons.deal_week(3, MARCH_1)

    season = Tournament.objects.get(format="season", table_size=3)
    assert season.season_month.isoformat() == "2027-03-01" and season.is_running
    assert week_tables(1) == [{"p01", "p02", "p03"}, {"p04", "p05"}, {"p06", "p07"}]
    told = Notification.objects.filter(kind="tournament", channel="email", context__event="round")
    assert told.count() == 7
    assert not seasons.deal_week(3, MARCH_1.replace(day=5))  # one week at a time

    assert seasons.deal_week(3, MARCH_9)
    first = [frozenset(p) for t in week_tables(1) for p in combinations(sorted(t), 2)]
    second = [frozenset(p) for t in week_tables(2) for p in combinations(sorted(t), 2)]
    assert not set(first) & set(second)  # nobody meets the same player twice this season
    assert sorted(len(t) for t in week_tables(2)) == [2, 2, 3]


def test_a_member_with_two_season_games_running_sits_the_week_out(ladder):
    seasons.deal_week(3, MARCH_1)
    seasons.deal_week(3, MARCH_9)

    assert not seasons.deal_week(3, datetime(2027, 3, 17, 12, tzinfo=UTC))  # all busy
    table = Table.objects.get(tournament__format="season", round__number=1, number=1)
    end_game(table.game, sorted(table_users(table), key=lambda u: u.username))

    assert seasons.deal_week(3, datetime(2027, 3, 17, 13, tzinfo=UTC))
    assert week_tables(3) == [{"p01", "p02", "p03"}]  # the only ones with a game to spare


def test_a_finished_season_puts_its_first_three_on_their_profiles(ladder):
    seasons.deal_week(3, MARCH_1)
    season = Tournament.objects.get(format="season")
    assert seasons.close_finished(APRIL_2) == []  # games still running
    for table in Table.objects.filter(tournament=season):
        end_game(table.game, sorted(table_users(table), key=lambda u: u.username))

    assert seasons.close_finished(datetime(2027, 3, 30, tzinfo=UTC)) == []  # March not over
    assert seasons.close_finished(APRIL_2) == [season.pk]

    season.refresh_from_db()
    assert season.is_finished
    places = dict(season.entries.values_list("user__username", "final_place"))
    assert places["p01"] == 1
    profile = signed_in(ladder[0]).get(reverse("players:profile", args=["P01"])).content.decode()
    assert "Season podiums" in profile and "3-player season, March 2027" in profile
    page = signed_in(ladder[0]).get(reverse("tournaments:ladder")).content.decode()
    assert "Past seasons" in page and "3-player season, March 2027" in page
