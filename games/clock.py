"""Turn deadlines and reminders: a time limit that does not run while the player is away.

A turn's deadline is the moment the player has had `time_limit` of time outside their absences;
reminders fall at configurable shares of that time (settings.FIRENZE_REMINDER_SHARES).
The sweep finds due games with one indexed query each for timeouts and reminders, and hands
every due game to its own task, so its cost does not grow with the games that are not due.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

Window = tuple[datetime, datetime]


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
    return sorted(getattr(settings, "FIRENZE_REMINDER_SHARES", [0.5, 0.9]))


def _acting_player(game: Any) -> tuple[int | None, bool]:
    """(user id, whether a bot plays) of the acting seat; uses seat rows a move already read."""
    known = getattr(game, "seat_rows", None)
    if known is not None:
        seat = known.get(game.acting_seat)
        row = (seat.user_id, seat.bot, seat.autopilot) if seat is not None else None
    else:
        row = (
            game.seats.filter(number=game.acting_seat)
            .values_list("user_id", "bot", "autopilot")
            .first()
        )
    if row is None:
        return None, True
    user_id, bot, autopilot = row
    return user_id, bool(bot) or autopilot


def absences_of(user_id: int, after: datetime) -> list[Window]:
    from games.models import Absence

    return list(
        Absence.objects.filter(user_id=user_id, ends__gt=after).values_list("starts", "ends")
    )


def schedule_turn(game: Any, start: datetime) -> None:
    """Set turn_started_at, deadline and next_reminder_at for the turn that starts now."""
    game.turn_started_at = start
    game.deadline = game.next_reminder_at = None
    if not game.is_active or game.acting_seat is None:
        return
    user_id, bot_plays = _acting_player(game)
    if bot_plays:
        return  # a bot moves at once; it needs no clock
    absences = absences_of(user_id, start)
    game.deadline = counted_time(start, game.time_limit, absences)
    game.next_reminder_at = next_reminder(game, start, absences, after=start)


def next_reminder(
    game: Any, start: datetime, absences: list[Window], *, after: datetime
) -> datetime | None:
    for share in reminder_shares():
        moment = counted_time(start, game.time_limit * share, absences)
        if moment > after and moment < game.deadline:
            return moment
    return None


def reminder_number(game: Any, now: datetime) -> int:
    """Which reminder of the turn is due now (0 for the first), for a stable dedupe key."""
    user_id, _ = _acting_player(game)
    absences = absences_of(user_id, game.turn_started_at) if user_id else []
    passed = [
        share
        for share in reminder_shares()
        if counted_time(game.turn_started_at, game.time_limit * share, absences) <= now
    ]
    return max(0, len(passed) - 1)


BOT_TURN_GRACE = timedelta(minutes=2)


def due_games(now: datetime | None = None) -> tuple[list[int], list[int]]:
    """(games past their deadline, games due a reminder): two indexed queries."""
    from games.models import Game

    now = now or timezone.now()
    # order_by(): no sort by Meta.ordering; the partial indexes serve the ranges.
    games = Game.objects.order_by()
    timeouts = list(games.filter(deadline__lte=now).values_list("pk", flat=True))
    reminders = list(
        games.filter(next_reminder_at__lte=now, deadline__gt=now).values_list("pk", flat=True)
    )
    return timeouts, reminders


def stalled_bot_games(now: datetime | None = None) -> list[int]:
    """Active games whose bot turn began a while ago yet is still waiting.

    A bot's turn has no deadline; its task is queued when the turn passes. If the broker was
    down then, nothing else would ever play it, so the sweep queues it again.
    """
    from games.models import Game

    now = now or timezone.now()
    stalled = Game.objects.order_by().filter(
        status=Game.Status.ACTIVE, deadline=None, turn_started_at__lte=now - BOT_TURN_GRACE
    )
    return list(stalled.values_list("pk", flat=True))
