"""How many games wait for a player's move: every page's header shows it, so it is counted
once and kept in the shared cache until one of the player's games changes (games.events).

A game waits for a player when it is in progress, their seat acts, and they play it
themselves (not a bot on their behalf after a resignation or repeated timeouts).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from firenze_site import prefetch
from games import events
from games.listings import waiting_seats
from games.models import Game, Seat

__all__ = ["forget", "key", "waiting_count", "waiting_seats"]

TTL_SECONDS = 600  # a resignation or a seat taken back sends no event: counted again soon


def key(user_id: int) -> str:
    return f"inbox-count:{user_id}"


def waiting_count(user: Any) -> int:
    """The number in the header: from the cache (read with the page's own read when the page
    comes from the cache: firenze_site.prefetch), else one indexed count."""
    found = prefetch.get(key(user.pk))
    if found is None:
        found = waiting_seats(user).count()
        prefetch.set(key(user.pk), found, TTL_SECONDS)
    return int(found)


def forget(user_ids: list[int]) -> None:
    prefetch.delete_many([key(pk) for pk in user_ids])


def _game_changed(sender: Any, *, game: Game, **kw: Any) -> None:
    """Any change of a game may change whose move it is: its players are counted again once
    the change commits (a rollback changes nothing)."""
    seats = kw.get("seats")  # a move's own read of the seats, if the event carries it
    if seats is not None:
        user_ids = [s.user_id for s in seats if s.user_id]
    else:
        user_ids = list(
            Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True)
        )
    if user_ids:
        transaction.on_commit(lambda: forget(user_ids))


def connect() -> None:
    for signal in (
        events.move_made,
        events.move_undone,
        events.turn_passed,
        events.game_started,
        events.game_over,
        events.timed_out,
    ):
        signal.connect(_game_changed, sender=Game, dispatch_uid=f"inbox.counts.{id(signal)}")
