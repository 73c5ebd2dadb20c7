"""Vacations: a player may be away up to N days a calendar year; their turns' clocks pause.

An absence covers whole days (midnight to midnight in the player's own time zone, which
accounts.middleware activates). Adding or removing one re-schedules every game in which the
player is to act now.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import RequestRefused
from games.models import Absence, Game


def max_days() -> int:
    return getattr(settings, "GAMES_MAX_ABSENCE_DAYS_PER_YEAR", 30)


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def days_used(user: Any, year: int) -> int:
    start, end = _midnight(date(year, 1, 1)), _midnight(date(year + 1, 1, 1))
    total = timedelta()
    for absence in Absence.objects.filter(user=user, ends__gt=start, starts__lt=end):
        total += min(absence.ends, end) - max(absence.starts, start)
    return round(total / timedelta(days=1))


def add_absence(user: Any, first_day: date, last_day: date) -> Absence:
    today = timezone.localdate()
    if first_day < today:
        raise RequestRefused(_("An absence cannot start in the past."))
    if last_day < first_day:
        raise RequestRefused(_("The last day must not be before the first day."))
    starts, ends = _midnight(first_day), _midnight(last_day + timedelta(days=1))
    with transaction.atomic():
        if Absence.objects.filter(user=user, starts__lt=ends, ends__gt=starts).exists():
            raise RequestRefused(_("That overlaps an absence you already have."))
        for year in range(first_day.year, last_day.year + 1):
            year_start = max(first_day, date(year, 1, 1))
            year_end = min(last_day, date(year, 12, 31))
            wanted = (year_end - year_start).days + 1
            left = max_days() - days_used(user, year)
            if wanted > left:
                text = _(
                    "You have %(left)s days of absence left in %(year)s; this would take %(n)s."
                )
                raise RequestRefused(text % {"left": left, "year": year, "n": wanted})
        absence = Absence.objects.create(user=user, starts=starts, ends=ends)
        reschedule_games_of(user)
    return absence


def end_absence(user: Any, absence_id: int) -> None:
    """Remove a future absence, or end a current one now."""
    now = timezone.now()
    with transaction.atomic():
        absence = Absence.objects.filter(user=user, pk=absence_id, ends__gt=now).first()
        if absence is None:
            raise RequestRefused(_("There is no such absence to cancel."))
        if absence.starts >= now:
            absence.delete()
        else:
            absence.ends = now
            absence.save(update_fields=["ends"])
        reschedule_games_of(user)


def reschedule_games_of(user: Any) -> None:
    """Recompute the clock of every game in which this player is to act now."""
    games = Game.objects.select_for_update().filter(
        status=Game.Status.ACTIVE, seats__user=user, seats__number=F("acting_seat")
    )
    for game in games:
        game.schedule_turn(game.turn_started_at or timezone.now())
        game.save_clock()
