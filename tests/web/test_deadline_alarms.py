"""Deadline alarms at the times a player chooses (issue 30): minutes before their clock runs
out, once per alarm per turn, by the channels their preferences choose for reminders; none
chosen: the site's default (halfway through the turn and with a tenth of it left)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.timecontrol import TimeControl
from games.timeouts import remind
from notifications.models import Notification
from tests.web.helpers import signed_in
from tests.web.test_time_controls import acting, started_at, timed_game

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
DAILY = TimeControl(per_turn=timedelta(days=1))


def test_a_player_chooses_their_alarms_on_the_settings_page(anna):
    browser = signed_in(anna)
    url = reverse("notification_settings:alarms")
    response = browser.post(url, {"alarms": ["30", "480", "120"]})
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.deadline_alarms == [480, 120, 30]
    page = browser.get(reverse("notification_settings:page")).content.decode()
    checked = re.findall(r'<input type="checkbox" name="alarms" value="(\d+)"[^>]*checked', page)
    assert sorted(map(int, checked)) == [30, 120, 480]
    assert browser.post(url, {"alarms": ["7"]}).status_code == 400  # not one it offers
    assert browser.post(url, {"alarms": ["x" * 300]}).status_code == 400
    anna.refresh_from_db()
    assert anna.deadline_alarms == [480, 120, 30]
    assert browser.post(url, {}).status_code == 302  # none: the default again
    anna.refresh_from_db()
    assert anna.deadline_alarms == []


def test_the_alarms_fall_before_the_deadline_once_each(anna, ben):
    game = timed_game(anna, ben, control=DAILY)
    seat = acting(game)
    seat.user.deadline_alarms = [480, 120, 30]
    seat.user.save(update_fields=["deadline_alarms"])
    start = timezone.now() - 20 * HOUR
    game = started_at(game, start)
    deadline = game.deadline
    assert game.next_reminder_at == deadline - 8 * HOUR
    moments = [deadline - 8 * HOUR, deadline - 2 * HOUR, deadline - timedelta(minutes=30)]
    for moment in moments:
        game.refresh_from_db()
        assert game.next_reminder_at == moment
        assert remind(game.pk, now=moment + timedelta(seconds=1))
        assert not remind(game.pk, now=moment + timedelta(seconds=2))  # once per alarm
    game.refresh_from_db()
    assert game.next_reminder_at is None
    told = Notification.objects.filter(game=game, user=seat.user, kind="reminder", channel="email")
    assert told.count() == 3
    assert len(set(told.values_list("dedupe_key", flat=True))) == 3


def test_without_alarms_the_default_stays_as_it_was(anna, ben):
    game = timed_game(anna, ben, control=DAILY)
    start = timezone.now() - HOUR
    game = started_at(game, start)
    assert game.next_reminder_at == start + 12 * HOUR  # halfway through a day's turn


def test_an_alarm_before_the_turn_began_is_skipped(anna, ben):
    game = timed_game(anna, ben, control=TimeControl(per_turn=timedelta(hours=12)))
    seat = acting(game)
    seat.user.deadline_alarms = [1440, 120]  # 24 hours before a 12-hour turn's end: never
    seat.user.save(update_fields=["deadline_alarms"])
    game = started_at(game, timezone.now())
    assert game.next_reminder_at == game.deadline - 2 * HOUR
