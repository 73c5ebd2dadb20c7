"""Celery tasks of the games app: thin, take ids, retry what may work later.

Only transient errors are retried (like notifications/tasks.py): a database that is busy or
gone for a moment, a broker that cannot be reached, a game that moved on under the task.
Anything else is a bug: Celery logs it once instead of running it five more times (a bot
that chooses an illegal action is logged by games.play.run_bots and stops there).
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from games import redraws
from games.errors import Conflict
from games.play import run_bots
from games.timeouts import due_games, remind, stalled_bot_games, time_out

TRANSIENT = (OperationalError, InterfaceError, BrokerError, Conflict)
RETRY = {"autoretry_for": TRANSIENT, "max_retries": 5, "acks_late": True}
# Time limits (soft, then hard: the worker process is replaced). A bot's turn takes
# milliseconds per step, a whole run of bot turns seconds; past the soft limit the step in
# progress rolls back and the stalled-bot sweep queues the game again.
QUICK = {"soft_time_limit": 30, "time_limit": 45}


# Bot moves run on their own queue ("bots", settings.CELERY_TASK_ROUTES): a strong bot thinks
# for up to a few seconds a decision. A task that reaches its soft limit keeps the steps it
# committed and hands the rest to a fresh task.
BOTS_SOFT_LIMIT = 120
BOTS_HARD_LIMIT = BOTS_SOFT_LIMIT + 30


@shared_task(
    **RETRY, default_retry_delay=5, soft_time_limit=BOTS_SOFT_LIMIT, time_limit=BOTS_HARD_LIMIT
)
def play_bots(game_id: int) -> int:
    """Play the bot seats' turns of one game until a person is to act."""
    try:
        return run_bots(game_id)
    except SoftTimeLimitExceeded:
        play_bots.delay(game_id)
        return 0


@shared_task(
    **RETRY, default_retry_delay=30, soft_time_limit=BOTS_SOFT_LIMIT, time_limit=BOTS_HARD_LIMIT
)
def time_out_game(game_id: int) -> bool:
    """The acting player's deadline passed: the bot plays their turn (if still due)."""
    return time_out(game_id)


@shared_task(**RETRY, **QUICK, default_retry_delay=30)
def remind_game(game_id: int) -> bool:
    return remind(game_id)


@shared_task(ignore_result=True, **QUICK)
def draw_pages(game_id: int, version: int | None = None) -> int:
    """Draw the seated players' pages after a change, before their polls ask for them. One
    redraw per game waits at a time (games.redraws); it draws the newest version. ``version``:
    a task queued before redraws were coalesced, left alone if the game has moved on."""
    from games.models import Game
    from games.pagecache import draw_players_pages

    redraws.taken(game_id)
    if version is not None:
        now = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        if now != version:
            return 0
    return draw_players_pages(game_id)


@shared_task(soft_time_limit=60, time_limit=90)
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
