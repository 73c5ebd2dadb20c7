"""Who hears about what happened in a game: the outbox rows for the games' events.

Receivers of games.events, connected in NotificationsConfig.ready: they run inside the
transaction that changed the game, so a notification exists if and only if the change was
committed (outbox.notify queues the send on commit). Dedupe keys name the event, so replaying
a task never makes a second row.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from games import events
from games.models import Game, Seat
from notifications import outbox
from notifications.models import Notification


def _people(game: Game) -> list[Seat]:
    return [s for s in game.seats.select_related("user") if s.user_id and not s.bot]


def turn_passed(
    sender: Any, *, game: Game, step: int, seats: list[Seat] | None = None, **kw: Any
) -> None:
    """The new acting player (a person, not on autopilot) is told."""
    if not game.is_active:
        return
    if seats is None:
        seats = list(game.seats.select_related("user"))
    seat = next((s for s in seats if s.number == game.acting_seat), None)
    if seat is None or seat.bot_plays or seat.user is None:
        return
    if step > 0 and all(s.bot_plays for s in seats if s is not seat):
        return  # against bots only, the turn comes back seconds after the player's own move
    outbox.notify(seat.user, "your_turn", game=game, key=f"your_turn:{game.pk}:{step}")


def game_started(sender: Any, *, game: Game, announced: bool = False, **kw: Any) -> None:
    if announced:  # whoever formed the table (a tournament's round) told the players
        return
    for seat in _people(game):
        key = f"game_started:{game.pk}:{seat.user_id}"
        outbox.notify(seat.user, "game_started", game=game, key=key)


def game_over(sender: Any, *, game: Game, **kw: Any) -> None:
    """The players are told; a game ended for being abandoned also tells its creator, seated
    or not (the email says why it ended)."""
    people = [seat.user for seat in _people(game) if seat.user is not None]
    creator = game.creator
    if game.ended_abandoned and creator is not None:
        people += [creator] if all(u.pk != creator.pk for u in people) else []
    for user in people:
        outbox.notify(user, "game_over", game=game, key=f"game_over:{game.pk}:{user.pk}")


def invited(sender: Any, *, game: Game, user: Any, by: Any, **kw: Any) -> None:
    context = {"by": by.public_name}
    outbox.notify(user, "invited", game=game, key=f"invited:{game.pk}:{user.pk}", context=context)


def table_full(sender: Any, *, game: Game, **kw: Any) -> None:
    """Every seat is taken of a game that does not start by itself: its creator may start it."""
    key = f"table_full:{game.pk}:{game.seats.count()}"
    outbox.notify(game.creator, "table_full", game=game, key=key)


def invited_address(sender: Any, *, invitation: Any, **kw: Any) -> None:
    """An invitation to an address with no account: one email, sent after commit."""
    transaction.on_commit(partial(outbox.queue_address_invitation, invitation.pk))


def timed_out(sender: Any, *, game: Game, seat: Seat, step: int, **kw: Any) -> None:
    if seat.user is not None:
        context = {"autopilot": seat.autopilot, "timeouts": seat.timeouts_in_row}
        key = f"timed_out:{game.pk}:{step}"
        outbox.notify(seat.user, "timed_out", game=game, key=key, context=context)


def reminder_due(sender: Any, *, game: Game, seat: Seat, number: int, **kw: Any) -> None:
    assert game.turn_started_at is not None and game.deadline is not None  # a running clock
    started = int(game.turn_started_at.timestamp())
    context = {"deadline": game.deadline.isoformat()}
    key = f"reminder:{game.pk}:{started}:{number}"
    outbox.notify(seat.user, "reminder", game=game, key=key, context=context)


def plan_played(
    sender: Any, *, game: Game, seat: int, user_id: int, outcome_id: int, in_full: bool, **kw: Any
) -> None:
    """The plan's owner alone hears what it played and why it stopped. A plan that stopped
    leaves the turn waiting: its notice says so, and stands in for the your-turn news on each
    channel it goes by."""
    owner = next((s.user for s in _people(game) if s.user_id == user_id), None)
    if owner is None:
        return
    key = f"plan:{outcome_id}"
    outbox.notify(owner, "plan", game=game, key=key, context={"outcome": outcome_id})
    if in_full:
        return
    going = Notification.objects.filter(
        dedupe_key__startswith=key, status=Notification.Status.PENDING
    ).values_list("channel", flat=True)
    Notification.objects.filter(
        user_id=user_id,
        game=game,
        kind=Notification.Kind.YOUR_TURN,
        status=Notification.Status.PENDING,
        digest=False,
        channel__in=list(going),
    ).update(status=Notification.Status.SKIPPED, last_error="the plan's notice tells them")


RECEIVERS: dict[Signal, Callable[..., None]] = {
    events.turn_passed: turn_passed,
    events.game_started: game_started,
    events.game_over: game_over,
    events.invited: invited,
    events.table_full: table_full,
    events.invited_address: invited_address,
    events.timed_out: timed_out,
    events.reminder_due: reminder_due,
    events.plan_played: plan_played,
}


def connect() -> None:
    for signal, receiver in RECEIVERS.items():
        signal.connect(receiver, sender=Game, dispatch_uid=f"notifications.{receiver.__name__}")
