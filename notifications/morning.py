"""The morning summary: one email, at the hour a player chose in their own time zone, listing
every game waiting for their move, the least clock left first. While it is on, per-turn emails
are not sent (deadline alarms still are).

A beat task runs every quarter hour; a player is due when their local hour is the chosen one
and no summary went out on their local day yet. The day is claimed by a conditional update()
of summary_sent_on, so two overlapping runs send one email.
"""

from __future__ import annotations

from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.db.models import F, Q
from django.utils import timezone

from games.models import Game
from notifications import emails


def local_now(user, now: datetime) -> datetime:
    return timezone.localtime(now, user.zone or timezone.get_default_timezone())


def due_user_ids(now: datetime | None = None) -> list[int]:
    """Players whose chosen hour it is now, locally, with no summary sent on their local day."""
    now = now or timezone.now()
    users = get_user_model().objects.filter(summary_hour__isnull=False, is_active=True)
    due = []
    for user in users.only("pk", "time_zone", "summary_hour", "summary_sent_on"):
        local = local_now(user, now)
        if local.hour == user.summary_hour and user.summary_sent_on != local.date():
            due.append(user.pk)
    return due


def claim(user_id: int, day: date) -> bool:
    """Take the player's summary of this local day; False if it was taken already."""
    users = get_user_model().objects.filter(pk=user_id, summary_hour__isnull=False)
    not_yet = Q(summary_sent_on__isnull=True) | ~Q(summary_sent_on=day)
    return bool(users.filter(not_yet).update(summary_sent_on=day))


def waiting_games(user) -> list[Game]:
    """Active games whose acting seat is the player's own (not a bot's), least clock first."""
    games = Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__user=user,
        seats__number=F("acting_seat"),
        seats__bot="",
        seats__autopilot=False,
    ).defer("state")
    return sorted(games, key=lambda g: (g.deadline is None, g.deadline or timezone.now()))


def wants_summary(user) -> bool:
    return getattr(user, "summary_hour", None) is not None


def send_summary(user_id: int, now: datetime | None = None) -> bool:
    """Send the player's summary if it is due now and this caller claims it; nothing when no
    game waits (the day is claimed all the same: the hour has come)."""
    now = now or timezone.now()
    user = get_user_model().objects.filter(pk=user_id, summary_hour__isnull=False).first()
    if user is None or not user.email:
        return False
    local = local_now(user, now)
    if local.hour != user.summary_hour or not claim(user.pk, local.date()):
        return False
    games = waiting_games(user)
    if not games:
        return False
    emails.send(emails.summary_message(user, games))
    return True
