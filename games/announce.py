"""Who hears about what happened in a game: the outbox rows a change of the game writes.

Every function runs inside the transaction that changes the game, so a notification exists if
and only if the change was committed (notifications.outbox.notify queues the send on commit).
Dedupe keys name the event, so replaying a task never makes a second row.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat


def _notify(user: Any, kind: str, game: Game, key: str, context: dict | None = None) -> None:
    from notifications.outbox import notify

    notify(user, kind, game=game, key=key, context=context or {})


def _people(game: Game) -> list[Seat]:
    return [s for s in game.seats.select_related("user") if s.user_id and not s.bot]


def _seats_and_players(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user"))


def turn_passed(game: Game, step: int) -> None:
    """The turn moved on: the new acting player (a person, not on autopilot) is told."""
    if not game.is_active:
        return
    # The seats a move read under the game's lock, with their players, else read now.
    seats = game.page_seats if game.page_seats is not None else _seats_and_players(game)
    seat = next((s for s in seats if s.number == game.acting_seat), None)
    if seat is None or seat.bot_plays or seat.user is None:
        return
    if step > 0 and all(s.bot_plays for s in seats if s is not seat):
        return  # against bots only, the turn comes back seconds after the player's own move
    _notify(seat.user, "your_turn", game, f"your_turn:{game.pk}:{step}")


def game_started(game: Game) -> None:
    for seat in _people(game):
        _notify(seat.user, "game_started", game, f"game_started:{game.pk}:{seat.user_id}")


def game_over(game: Game) -> None:
    for seat in _people(game):
        _notify(seat.user, "game_over", game, f"game_over:{game.pk}:{seat.user_id}")


def invited(game: Game, user: Any, by: Any) -> None:
    _notify(user, "invited", game, f"invited:{game.pk}:{user.pk}", {"by": by.public_name})


def table_full(game: Game) -> None:
    """Every seat is taken of a game that does not start by itself: its creator may start it."""
    _notify(game.creator, "table_full", game, f"table_full:{game.pk}:{game.seats.count()}")


def invited_address(invitation: Any) -> None:
    """An invitation to an address with no account: one email, sent after commit."""
    from functools import partial

    from django.db import transaction

    from notifications.outbox import queue_address_invitation

    transaction.on_commit(partial(queue_address_invitation, invitation.pk))


def timed_out(game: Game, seat: Seat, step: int) -> None:
    if seat.user is not None:
        context = {"autopilot": seat.autopilot, "timeouts": seat.timeouts_in_row}
        _notify(seat.user, "timed_out", game, f"timed_out:{game.pk}:{step}", context)


def reminder(game: Game, seat: Seat, number: int) -> None:
    started = int(game.turn_started_at.timestamp())
    context = {"deadline": game.deadline.isoformat()}
    _notify(seat.user, "reminder", game, f"reminder:{game.pk}:{started}:{number}", context)
