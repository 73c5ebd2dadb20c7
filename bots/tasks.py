"""Celery tasks of the bots app, on the "bots" queue (settings.CELERY_TASK_ROUTES) with the
bot moves, so a review that thinks for minutes never holds up an email or a page."""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from bots import estimates, reviews

# A review thinks about every decision of one player's game (about a second each); this is
# far more than a long game needs, and stops a runaway.
REVIEW_SOFT_LIMIT = 20 * 60
REVIEW_HARD_LIMIT = REVIEW_SOFT_LIMIT + 60


@shared_task(
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    default_retry_delay=30,
    soft_time_limit=REVIEW_SOFT_LIMIT,
    time_limit=REVIEW_HARD_LIMIT,
)
def review_game(review_id: int) -> bool:
    """Compute one post-game review (claimed once; a second delivery finds it taken)."""
    try:
        return reviews.compute(review_id)
    except SoftTimeLimitExceeded:
        reviews.fail(review_id)
        return False


# A "what if" estimate thinks for about BOTS_REVIEW_SECONDS; this stops a runaway.
ESTIMATE_SOFT_LIMIT = 2 * 60
ESTIMATE_HARD_LIMIT = ESTIMATE_SOFT_LIMIT + 30


@shared_task(
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    default_retry_delay=10,
    soft_time_limit=ESTIMATE_SOFT_LIMIT,
    time_limit=ESTIMATE_HARD_LIMIT,
)
def estimate_line(game_id: int, key: str) -> bool:
    """The Strong bot's estimate of a "what if" line beside the played one (asked under key)."""
    try:
        return estimates.compute(game_id, key)
    except SoftTimeLimitExceeded:
        estimates.forget(key)
        return False
