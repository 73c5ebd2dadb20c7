"""The morning summary (issue 30): at the hour a player chose in their own time zone, one
email listing every game waiting for their move, the least clock left first, at most once per
local day; while it is on, no email per turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from games.models import Game
from games.timecontrol import TimeControl
from notifications import tasks
from notifications.models import Notification
from notifications.outbox import notify
from tests.web.helpers import signed_in
from tests.web.test_time_controls import timed_game

pytestmark = pytest.mark.django_db

DAILY = TimeControl(per_turn=timedelta(days=1))


def _waiting(user, opponent, deadline: datetime) -> Game:
    """A game whose turn is the player's own, with this deadline."""
    game = timed_game(user, opponent, control=DAILY)
    seat = game.seats.get(user=user)
    Game.objects.filter(pk=game.pk).update(acting_seat=seat.number, deadline=deadline)
    game.refresh_from_db()
    return game


def _summarise(user, zone: str, hour: int) -> None:
    user.time_zone, user.summary_hour = zone, hour
    user.save(update_fields=["time_zone", "summary_hour"])


def _run_at(moment: datetime) -> None:
    with time_machine.travel(moment, tick=False):
        tasks.send_morning_summaries()


def test_it_sends_at_the_local_hour_in_kiritimati_once_most_urgent_first(anna, ben, carla):
    _summarise(anna, "Pacific/Kiritimati", 7)  # UTC+14: 07:00 there is 17:00 UTC the day before
    later = _waiting(anna, ben, datetime(2026, 3, 12, 9, tzinfo=UTC))
    sooner = _waiting(anna, carla, datetime(2026, 3, 11, 20, tzinfo=UTC))
    mail.outbox.clear()
    _run_at(datetime(2026, 3, 10, 16, 50, tzinfo=UTC))  # 06:50 there: not yet
    assert mail.outbox == []
    _run_at(datetime(2026, 3, 10, 17, 5, tzinfo=UTC))
    _run_at(datetime(2026, 3, 10, 17, 20, tzinfo=UTC))  # the next quarter hour: not twice
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert body.index(sooner.title) < body.index(later.title)
    assert mail.outbox[0].to == [anna.email]
    _run_at(datetime(2026, 3, 11, 17, 5, tzinfo=UTC))  # the next local morning: again
    assert len(mail.outbox) == 2


def test_it_sends_in_adak_at_its_hour_and_nothing_when_no_game_waits(anna, ben):
    _summarise(anna, "America/Adak", 8)  # UTC-10 in winter: 08:00 there is 18:00 UTC
    mail.outbox.clear()
    _run_at(datetime(2026, 1, 15, 18, 10, tzinfo=UTC))
    assert mail.outbox == []  # no game waits for her
    _waiting(anna, ben, datetime(2026, 1, 16, 12, tzinfo=UTC))
    _run_at(datetime(2026, 1, 15, 18, 25, tzinfo=UTC))  # the day was claimed: still nothing
    assert mail.outbox == []
    _run_at(datetime(2026, 1, 16, 18, 0, tzinfo=UTC))
    assert len(mail.outbox) == 1


def test_it_writes_the_summary_in_the_players_language(anna, ben):
    anna.language = "de"
    anna.save(update_fields=["language"])
    _summarise(anna, "Europe/Berlin", 9)
    _waiting(anna, ben, datetime(2026, 6, 2, 12, tzinfo=UTC))
    mail.outbox.clear()
    _run_at(datetime(2026, 6, 1, 7, 5, tzinfo=UTC))  # 09:05 in Berlin (summer time)
    assert len(mail.outbox) == 1
    assert "Deine Morgenübersicht" in mail.outbox[0].body


def test_while_it_is_on_no_email_per_turn_goes_out(anna, ben):
    game = _waiting(anna, ben, datetime(2026, 6, 2, 12, tzinfo=UTC))
    _summarise(anna, "Europe/Berlin", 9)
    notify(anna, "your_turn", game=game, key=f"summary-test:{game.pk}")
    row = Notification.objects.get(user=anna, channel="email", dedupe_key=f"summary-test:{game.pk}")
    assert row.status == "skipped"


def test_a_player_chooses_the_hour_or_switches_it_off(anna):
    browser = signed_in(anna)
    url = reverse("notification_settings:summary")
    assert browser.post(url, {"hour": "7"}).status_code == 302
    anna.refresh_from_db()
    assert anna.summary_hour == 7
    assert browser.post(url, {"hour": "24"}).status_code == 400
    assert browser.post(url, {"hour": "x" * 300}).status_code == 400
    anna.refresh_from_db()
    assert anna.summary_hour == 7
    assert browser.post(url, {"hour": ""}).status_code == 302
    anna.refresh_from_db()
    assert anna.summary_hour is None
