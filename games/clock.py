"""Turn deadlines and reminders as pure arithmetic: a time limit that does not run while the
player is away.

A turn's deadline is the moment the player has had `time_limit` of time outside their absences;
reminders fall at configurable shares of that time (settings.GAMES_REMINDER_SHARES). Nothing
here reads the database: Game.schedule_turn (games.models) gathers the absences and calls
these, and the sweep's queries live on the Game manager.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

Window = tuple[datetime, datetime]

# A bot's turn has no deadline; one still waiting after this long lost its task.
BOT_TURN_GRACE = timedelta(minutes=2)


def counted_time(start: datetime, amount: timedelta, absences: list[Window]) -> datetime:
    """When `amount` of time outside the absences has passed since `start`."""
    cursor, remaining = start, amount
    for away_from, away_to in sorted(absences):
        if away_to <= cursor:
            continue
        if away_from > cursor:
            available = away_from - cursor
            if available >= remaining:
                return cursor + remaining
            remaining -= available
        cursor = max(cursor, away_to)
    return cursor + remaining


def reminder_shares() -> list[float]:
    return sorted(getattr(settings, "GAMES_REMINDER_SHARES", [0.5, 0.9]))


def next_reminder(
    start: datetime,
    limit: timedelta,
    deadline: datetime,
    absences: list[Window],
    *,
    after: datetime,
) -> datetime | None:
    """The first reminder of a turn (started at `start`) that falls after `after`."""
    for share in reminder_shares():
        moment = counted_time(start, limit * share, absences)
        if after < moment < deadline:
            return moment
    return None


def reminder_number(
    start: datetime, limit: timedelta, absences: list[Window], now: datetime
) -> int:
    """Which reminder of the turn is due now (0 for the first), for a stable dedupe key."""
    passed = [
        share for share in reminder_shares() if counted_time(start, limit * share, absences) <= now
    ]
    return max(0, len(passed) - 1)


def is_away(absences: list[Window], now: datetime) -> bool:
    return any(start <= now < end for start, end in absences)
