"""Celery tasks of the games app: thin, take ids, retry."""

from __future__ import annotations

from celery import shared_task

from games.play import run_bots


@shared_task(bind=True, max_retries=5, default_retry_delay=5, acks_late=True)
def play_bots(self, game_id: int) -> int:
    """Play the bot seats' turns of one game until a person is to act."""
    try:
        return run_bots(game_id)
    except Exception as exc:  # database hiccups, lock timeouts: try again shortly
        raise self.retry(exc=exc) from exc
