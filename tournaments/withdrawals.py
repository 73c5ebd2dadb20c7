"""Withdrawals: a player who times out twice in a row in a tournament's games (with no move in
time between, in any of its games) is withdrawn, as is one who withdraws themselves.

A withdrawn player is not paired again; the standings keep them, marked. Their seats in the
tournament's games still being played go to the bot (the Standard level: the engine's default
bot) so their opponents can finish: one game at a time, each under its own game lock, by a
task queued after the withdrawal commits (so no transaction ever holds one game's lock while
waiting for another's).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Conflict
from games.models import Game, Move, Seat
from games.play import queue_bots
from tournaments import news, results
from tournaments.models import Entry, Table, Tournament

log = logging.getLogger(__name__)
HAND_OVER_TASK = "tournaments.tasks.hand_over"
TIMEOUTS_IN_A_ROW = 2


def timed_out(game: Game, seat: Seat) -> None:
    """A person's turn ran out in one of a tournament's games (inside the timeout's
    transaction): the first of a run is noted, the second withdraws them."""
    if seat.user_id is None or seat.bot:
        return
    tournament_id = (
        Table.objects.filter(game_id=game.pk).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return
    tournament = results.lock(tournament_id)
    if not tournament.is_running:
        return
    entry = tournament.entries.filter(user_id=seat.user_id).select_related("user").first()
    if entry is None or entry.withdrawn:
        return
    now = timezone.now()
    if entry.last_timeout_at is not None and not moved_in_time(entry, entry.last_timeout_at):
        withdraw(tournament, entry, Entry.Withdrawal.TIMEOUTS, now=now)
        return
    entry.last_timeout_at = now
    entry.save(update_fields=["last_timeout_at"])


def moved_in_time(entry: Entry, since: datetime) -> bool:
    """Whether the player made a move of their own in any of the tournament's games since."""
    theirs = Seat.objects.filter(game=OuterRef("game"), number=OuterRef("seat"), user=entry.user)
    return (
        Move.objects.filter(
            game__tournament_table__tournament_id=entry.tournament_id,
            by_bot=False,
            created__gt=since,
        )
        .filter(Exists(theirs))
        .exists()
    )


def withdraw(tournament: Tournament, entry: Entry, reason: str, *, now: Any = None) -> None:
    """Mark the entry withdrawn (the caller holds the tournament's lock), tell the player,
    hand their seats to the bot after commit."""
    entry.withdrawn_round = tournament.current_round
    entry.withdrawn_at = now or timezone.now()
    entry.withdrawal = reason
    entry.save(update_fields=["withdrawn_round", "withdrawn_at", "withdrawal"])
    results.refresh(tournament)
    if reason == Entry.Withdrawal.TIMEOUTS:
        news.withdrawn(entry)
    entry_id = entry.pk
    transaction.on_commit(lambda: queue_hand_over(entry_id))


def withdraw_self(tournament: Tournament, user: Any) -> None:
    with transaction.atomic():
        tournament = results.lock(tournament.pk)
        if not tournament.is_running:
            raise Conflict(_("Only a running tournament can be withdrawn from."))
        entry = tournament.entries.filter(user_id=user.pk).first()
        if entry is None:
            raise Conflict(_("You are not playing in this tournament."))
        if entry.withdrawn:
            raise Conflict(_("You have withdrawn already."))
        withdraw(tournament, entry, Entry.Withdrawal.LEFT)


def queue_hand_over(entry_id: int) -> None:
    from celery import current_app

    try:
        current_app.tasks[HAND_OVER_TASK].delay(entry_id)
    except Exception:
        log.warning("entry %s: seats not handed to the bot yet (broker down)", entry_id)


def hand_over(entry_id: int) -> int:
    """The bot takes the withdrawn player's seats in the tournament's games in progress; a
    turn of theirs that is waiting is played at once. Returns how many seats it took."""
    entry = Entry.objects.filter(pk=entry_id, withdrawn_round__isnull=False).first()
    if entry is None or entry.user_id is None:
        return 0
    games = Game.objects.filter(
        tournament_table__tournament_id=entry.tournament_id,
        status=Game.Status.ACTIVE,
        seats__user_id=entry.user_id,
    ).values_list("pk", flat=True)
    taken = 0
    for game_id in list(games):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if not game.is_active:
                continue
            seat = game.seats.filter(user_id=entry.user_id).first()
            if seat is None or seat.bot_plays:
                continue
            Seat.objects.filter(pk=seat.pk).update(autopilot=True)
            taken += 1
            if game.acting_seat == seat.number:  # its clock stops: the bot moves now
                game.schedule_turn(game.turn_started_at or timezone.now())
                game.save_clock()
        queue_bots(game)
    return taken
