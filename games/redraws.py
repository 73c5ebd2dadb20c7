"""Drawing the players' pages after a change, coalesced: at most one redraw per game waits.

After every change a worker draws the seated players' pages before their polls ask for them
(games.pagecache). Queued once per move, the redraws of a busy site piled up in front of
everything else a worker does (emails, invitations, tournament rounds). So a redraw is queued
only if none of that game is pending (a key in the shared cache, taken with ``add``); the task
gives the key back before it reads the game, so it draws the newest version, and a change
committed while it draws queues the next one. Redraws have their own queue, "pages": a worker
serving it with the default queue takes from the two in turn, so an email waits behind at most
one redraw, never behind a queue of them.
"""

from __future__ import annotations

import logging
from functools import partial

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

DRAW_PAGES_TASK = "games.tasks.draw_pages"
# A redraw lost with its worker frees its game after this long (the next change queues one).
PENDING_SECONDS = 60


def pending_key(game_id: int) -> str:
    return f"games:redraw-pending:{game_id}"


def after_commit(game_id: int) -> None:
    """Once the transaction commits, queue a redraw of the game unless one is pending."""
    transaction.on_commit(partial(_queue, game_id))


def _queue(game_id: int) -> None:
    key = pending_key(game_id)
    if not cache.add(key, 1, PENDING_SECONDS):
        return  # the pending redraw will draw this change too
    try:
        current_app.tasks[DRAW_PAGES_TASK].delay(game_id)
    except OperationalError:
        cache.delete(key)
        log.warning("pages of game %s not queued: the broker is unreachable", game_id)


def taken(game_id: int) -> None:
    """The redraw starts: a change from now on queues another."""
    cache.delete(pending_key(game_id))
