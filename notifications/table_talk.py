"""Who hears about a new message: the other players who are not to move, at most once an hour
per game, and only if they asked for it (the "new messages" row of their preferences, off by
default). The player to move reads the table talk when they come to play; their turn email
lists what was said since their last move.

Runs inside the transaction that stores the message, like notifications.game_events: a receiver of
chat.signals.message_posted (connected in NotificationsConfig.ready), so the table talk does not
import notifications.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from chat.models import Message, Mute
from chat.services import NOTIFY_EVERY
from games.models import Game
from notifications import outbox, preferences
from notifications.models import Notification

KIND = Notification.Kind.NEW_MESSAGES


def new_message(sender: Any, *, game: Game, message: Message, **kwargs: Any) -> None:
    seats = game.seats.select_related("user").filter(bot="").exclude(user=None)
    now = timezone.now()
    muting = set(Mute.objects.filter(muted_id=message.author_id).values_list("user_id", flat=True))
    for seat in seats:
        user = seat.user
        if user is None or user.pk == message.author_id or user.pk in muting:
            continue
        if game.is_active and seat.number == game.acting_seat:
            continue
        if not preferences.wants_any(user, KIND):
            continue
        recent = Notification.objects.filter(
            user=user, game=game, kind=KIND, created__gte=now - NOTIFY_EVERY
        )
        if recent.exists():
            continue
        # The hour is a sliding window (the check above); the key names the first message.
        outbox.notify(user, KIND, game=game, key=f"{KIND}:{game.pk}:{user.pk}:{message.pk}")
