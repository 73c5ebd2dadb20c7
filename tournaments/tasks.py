"""Celery tasks of tournaments: thin, take ids, retry only what may work later, each with a
time limit (dealing a 1,024-player round creates 512 games: minutes, not hours).

``tick`` is the beat's sweep: it starts tournaments whose sign-up has closed, deals rounds whose
task was lost, the ladder's weekly games, and closes past seasons.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from tournaments import rounds, seasons, withdrawals
from tournaments.models import Tournament

TRANSIENT = (OperationalError, InterfaceError, BrokerError)
RETRY = {"autoretry_for": TRANSIENT, "max_retries": 5, "acks_late": True}
LIMITS = {"soft_time_limit": 600, "time_limit": 660}


@shared_task(**RETRY, **LIMITS, default_retry_delay=30)
def advance(tournament_id: int) -> bool:
    """The round of a tournament has ended: deal the next (or end it)."""
    return rounds.advance(tournament_id)


@shared_task(**RETRY, **LIMITS, default_retry_delay=30)
def start(tournament_id: int) -> bool:
    return rounds.start(tournament_id)


@shared_task(**RETRY, soft_time_limit=120, time_limit=150, default_retry_delay=10)
def hand_over(entry_id: int) -> int:
    """A withdrawn player's seats go to the bot."""
    return withdrawals.hand_over(entry_id)


@shared_task(soft_time_limit=1200, time_limit=1260)
def tick() -> dict[str, int]:
    """Periodic (Celery beat)."""
    due = Tournament.objects.signup_closed(timezone.now())
    for tournament_id in due:
        start.delay(tournament_id)
    stalled = rounds.stalled()
    for tournament_id in stalled:
        advance.delay(tournament_id)
    weeks = seasons.weekly()
    closed = seasons.close_finished()
    return {
        "started": len(due),
        "stalled": len(stalled),
        "weeks": len(weeks),
        "seasons_closed": len(closed),
    }
