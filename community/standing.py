"""A player's reliability read from the log of their games (community.reliability computes it),
stored when one of their games ends: the games' end is published on games.events, and the
refresh runs in a worker once that end is committed (its results written by the players app).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import transaction

from community import reliability
from community.models import Reliability
from community.reliability import Ending, LoggedMove
from games import events
from games.models import Game, Move, Seat
from players.models import SeatResult

log = logging.getLogger(__name__)

REFRESH_TASK = "community.tasks.refresh_reliability"


def recent_games() -> int:
    """How many of a player's last ended games their turns are read from."""
    return int(getattr(settings, "RELIABILITY_RECENT_GAMES", 30))


def new_player_games() -> int:
    return int(getattr(settings, "RELIABILITY_NEW_PLAYER_GAMES", 5))


def compute(user_id: int) -> reliability.Reliability:
    """The player's figures from their ended games' results and the move log of the latest."""
    rows = list(
        SeatResult.objects.filter(user_id=user_id, bot="")
        .order_by("-finished_at", "-record_id")
        .values_list("record_id", "seat", "resigned", "abandoned", "record__game__abandoned_at")
    )
    endings = [
        Ending(resigned=resigned, left_to_bot=abandoned, game_abandoned=gone is not None)
        for _, _, resigned, abandoned, gone in rows
    ]
    seats = {record_id: seat for record_id, seat, *_ in rows[: recent_games()]}
    return reliability.summarise(endings, turns(seats), new_below=new_player_games())


def turns(seats: dict[int, int]) -> list[reliability.Turn]:
    """The player's turns in these games (game id: their seat), from one read of the log."""
    if not seats:
        return []
    started = dict(Game.objects.filter(pk__in=seats).values_list("pk", "started_at"))
    logs: dict[int, list[LoggedMove]] = defaultdict(list)
    moves = (
        Move.objects.filter(game_id__in=seats)
        .order_by("game_id", "seq")
        .values_list("game_id", "seat", "turn", "created", "by_bot", "timeout")
    )
    for game_id, seat, turn, created, by_bot, timeout in moves.iterator(chunk_size=2000):
        logs[game_id].append(LoggedMove(seat, turn, created, by_bot, timeout))
    found: list[reliability.Turn] = []
    for game_id, seat in seats.items():
        found.extend(reliability.seat_turns(logs[game_id], seat, started.get(game_id)))
    return found


def refresh(user_id: int) -> Reliability:
    figures = compute(user_id)
    row, _ = Reliability.objects.update_or_create(
        user_id=user_id,
        defaults={
            "games_started": figures.games_started,
            "games_finished": figures.games_finished,
            "turns": figures.turns,
            "turns_on_time": figures.turns_on_time,
            "median_seconds": figures.median_seconds,
            "new_player": figures.new_player,
        },
    )
    return row


def figures_of(user: Any) -> reliability.Reliability:
    """The stored figures, or a new player's when none are stored yet."""
    row = Reliability.objects.filter(user_id=user.pk).first()
    return row.figures if row is not None else reliability.NEW


def figures_by_user(user_ids: Any) -> dict[int, reliability.Reliability]:
    """Many players' figures in one query (a list of names)."""
    ids = {pk for pk in user_ids if pk is not None}
    return {row.user_id: row.figures for row in Reliability.objects.filter(user_id__in=ids)}


def queue_refresh(user_ids: list[int]) -> None:
    """Hand the refresh to a worker; if the broker is down the figures wait for the next end
    (or `refresh_reliability`)."""
    from celery import current_app

    try:
        current_app.tasks[REFRESH_TASK].delay(user_ids)
    except Exception:
        log.warning("reliability of %s not queued", user_ids, exc_info=True)


def game_over(sender: Any, game: Game, **kwargs: Any) -> None:
    people = list(
        Seat.objects.filter(game=game, user__isnull=False, bot="").values_list("user_id", flat=True)
    )
    if people:
        transaction.on_commit(lambda: queue_refresh(people))


def connect() -> None:
    events.game_over.connect(game_over, sender=Game, dispatch_uid="community.game_over")
