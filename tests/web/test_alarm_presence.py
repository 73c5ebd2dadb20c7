"""Deadline alarms are never sent while the player has the game open (issue 30): a poll from
their game page or their stream of the game in the last minute counts as open. An alarm that
falls while the game is open is skipped; the next one still comes."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games import presence
from games.access import game_url
from games.timeouts import remind
from notifications.models import Notification
from tests.web.helpers import signed_in
from tests.web.test_deadline_alarms import DAILY, HOUR
from tests.web.test_time_controls import acting, started_at, timed_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _every_touch_writes():
    presence.forget_writes()
    yield
    presence.forget_writes()


def _alarmed_game(anna, ben):
    game = timed_game(anna, ben, control=DAILY)
    seat = acting(game)
    seat.user.deadline_alarms = [480, 120]
    seat.user.save(update_fields=["deadline_alarms"])
    return started_at(game, timezone.now() - 20 * HOUR), seat


def _poll_url_of_page(browser, game) -> str:
    page = browser.get(game_url(game)).content.decode()
    found = re.search(r'hx-get="([^"]*/version/[^"]*)"', page)
    assert found is not None
    return found.group(1).replace("&amp;", "&")


def _reminders(game, user) -> int:
    return Notification.objects.filter(game=game, user=user, kind="reminder").count()


def test_it_skips_an_alarm_while_the_player_polls_and_sends_the_next(anna, ben):
    game, seat = _alarmed_game(anna, ben)
    first = game.deadline - 8 * HOUR
    second = game.deadline - 2 * HOUR
    browser = signed_in(seat.user)
    url = _poll_url_of_page(browser, game)
    assert "&o=" in url
    with time_machine.travel(first - timedelta(seconds=30), tick=False):
        assert browser.get(url).status_code in (200, 204)
    with time_machine.travel(first + timedelta(seconds=1), tick=False):
        assert remind(game.pk)
    assert _reminders(game, seat.user) == 0  # looking at the game: no alarm
    game.refresh_from_db()
    assert game.next_reminder_at == second  # the next alarm still waits
    with time_machine.travel(second + timedelta(seconds=1), tick=False):
        assert remind(game.pk)  # no poll in the last minute: the game is closed
    assert _reminders(game, seat.user) == 1


def test_a_poll_more_than_a_minute_ago_does_not_count(anna, ben):
    game, seat = _alarmed_game(anna, ben)
    first = game.deadline - 8 * HOUR
    browser = signed_in(seat.user)
    url = _poll_url_of_page(browser, game)
    with time_machine.travel(first - timedelta(seconds=61), tick=False):
        browser.get(url)
    with time_machine.travel(first + timedelta(seconds=1), tick=False):
        assert remind(game.pk)
    assert _reminders(game, seat.user) == 1


def test_an_onlookers_poll_does_not_keep_the_players_alarm_away(anna, ben, carla):
    game, seat = _alarmed_game(anna, ben)
    other = ben if seat.user == anna else anna
    first = game.deadline - 8 * HOUR
    url = _poll_url_of_page(signed_in(other), game)  # the other player's own page
    with time_machine.travel(first - timedelta(seconds=10), tick=False):
        signed_in(carla).get(url)
    with time_machine.travel(first + timedelta(seconds=1), tick=False):
        assert remind(game.pk)
    assert _reminders(game, seat.user) == 1


def test_a_forged_open_token_is_ignored(anna, ben):
    game, seat = _alarmed_game(anna, ben)
    first = game.deadline - 8 * HOUR
    url = reverse("games:version", args=[game.pk])
    with time_machine.travel(first - timedelta(seconds=10), tick=False):
        for forged in [f"{seat.user_id}.0000", "x", f"{seat.user_id}", "9" * 40 + ".a"]:
            assert signed_in(seat.user).get(url, {"o": forged}).status_code in (200, 204)
    with time_machine.travel(first + timedelta(seconds=1), tick=False):
        assert remind(game.pk)
    assert _reminders(game, seat.user) == 1


def test_a_stream_of_the_game_counts_as_open(anna, ben):
    game, seat = _alarmed_game(anna, ben)
    first = game.deadline - 8 * HOUR
    with time_machine.travel(first - timedelta(seconds=20), tick=False):
        presence.touch(game.pk, seat.user_id)  # what the stream does on connect and keep-alive
    with time_machine.travel(first + timedelta(seconds=1), tick=False):
        assert remind(game.pk)
    assert _reminders(game, seat.user) == 0
