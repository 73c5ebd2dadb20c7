"""Celery tasks of the games app: thin, take ids, retry."""

from __future__ import annotations

from celery import shared_task

from games.clock import due_games, stalled_bot_games
from games.play import run_bots
from games.timeouts import remind, time_out


@shared_task(bind=True, max_retries=5, default_retry_delay=5, acks_late=True)
def play_bots(self, game_id: int) -> int:
    """Play the bot seats' turns of one game until a person is to act."""
    try:
        return run_bots(game_id)
    except Exception as exc:  # database hiccups, lock timeouts: try again shortly
        raise self.retry(exc=exc) from exc


@shared_task(bind=True, max_retries=5, default_retry_delay=30, acks_late=True)
def time_out_game(self, game_id: int) -> bool:
    """The acting player's deadline passed: the bot plays their turn (if still due)."""
    try:
        return time_out(game_id)
    except Exception as exc:
        raise self.retry(exc=exc) from exc


@shared_task(bind=True, max_retries=5, default_retry_delay=30, acks_late=True)
def remind_game(self, game_id: int) -> bool:
    try:
        return remind(game_id)
    except Exception as exc:
        raise self.retry(exc=exc) from exc


@shared_task(ignore_result=True)
def draw_pages(game_id: int, version: int | None = None) -> int:
    """Draw the seated players' pages after a change, before their polls ask for them; a game
    that has moved on since is left to the task its newer change queued."""
    from games.models import Game
    from games.pagecache import draw_players_pages

    if version is not None:
        now = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        if now != version:
            return 0
    return draw_players_pages(game_id)


@shared_task
def sweep_deadlines() -> dict[str, int]:
    """Periodic (Celery beat): hand every due game to its own task."""
    timeouts, reminders = due_games()
    stalled = stalled_bot_games()
    for game_id in timeouts:
        time_out_game.delay(game_id)
    for game_id in reminders:
        remind_game.delay(game_id)
    for game_id in stalled:
        play_bots.delay(game_id)
    return {"timeouts": len(timeouts), "reminders": len(reminders), "bots": len(stalled)}
