"""The clubs' jobs: thin tasks with a time limit. ``expire_challenges`` is the beat's sweep of
ladder challenges left unanswered (clubs.challenges.expire: idempotent, so a sweep run twice
or overlapping another settles each challenge once)."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError


@shared_task(
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    default_retry_delay=60,
    soft_time_limit=120,
    time_limit=150,
)
def expire_challenges() -> int:
    from clubs import challenges

    return challenges.expire_due()
