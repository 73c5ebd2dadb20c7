"""The community app's jobs: thin tasks taking ids."""

from __future__ import annotations

from celery import shared_task


@shared_task(soft_time_limit=60, time_limit=90)
def refresh_reliability(user_ids: list[int]) -> None:
    from community import standing

    for user_id in user_ids:
        standing.refresh(user_id)
