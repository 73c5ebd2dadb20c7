"""Celery tasks queued by name once the transaction commits.

The game's modules queue work (the bots' turns, drawing the players' pages) without importing
games.tasks, which imports them: a task is found by its registered name (GamesConfig.ready
registers games.tasks). A broker that is down must not undo a committed move or turn it into a
500: the work is then picked up later (the deadline sweep re-queues stalled bot turns; a page
is drawn on its first view).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)


def after_commit(task: str, *args: Any, about: str) -> None:
    """Queue the task named ``task`` with ``args`` once the current transaction commits;
    ``about`` says what it does, for the log if the broker cannot take it."""
    transaction.on_commit(partial(_queue, task, args, about))


def _queue(task: str, args: tuple[Any, ...], about: str) -> None:
    try:
        current_app.tasks[task].delay(*args)
    except OperationalError:
        log.warning("%s not queued: the broker is unreachable", about, exc_info=True)
