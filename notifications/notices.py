"""What a webhook message or a push notification says: one short notice per outbox row.

A notice names the player (a webhook may post into a channel several players share), the game
and its title, and links to the game page. It never carries a sign-in link (a shared channel
would let anyone in) and, like the emails, it is built only from public data: seat names,
deadlines, final scores, and chat messages the table already sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.timesince import timeuntil

from notifications import emails
from notifications.models import Notification

Kind = Notification.Kind
MAX_QUOTE = 200


@dataclass
class Notice:
    kind: str
    title: str
    text: str
    url: str
    game_id: int | None
    game_title: str

    @property
    def tag(self) -> str:
        """Groups a game's notifications on a device: a newer one replaces the older."""
        return f"game-{self.game_id}" if self.game_id else f"firenze-{self.kind}"


def for_notification(notification: Notification) -> Notice:
    user, game = notification.user, notification.game
    name = user.public_name
    if game is None:
        site = emails.common_context(user)["site_url"]
        return Notice(
            notification.kind,
            "Firenze",
            f"Test from Firenze: {name}'s notifications arrive here.",
            f"{site}/",
            None,
            "",
        )
    context = emails.game_context(user, game)
    title_of_game = context["game_title"]
    title, text = BUILDERS[notification.kind](notification, context, name)
    return Notice(notification.kind, title, text, context["game_url"], game.pk, title_of_game)


def _with(context: dict[str, Any]) -> str:
    return f" with {context['opponents']}" if context["opponents"] else ""


def _time_left(context: dict[str, Any]) -> str:
    deadline = context.get("deadline")
    return f" {timeuntil(deadline)} left to move." if deadline else ""


def _your_turn(notification, context, name):
    game = context["game_title"]
    return (
        f"Your turn in {game}",
        f"{name}, it is your turn in {game}{_with(context)}.{_time_left(context)}",
    )


def _reminder(notification, context, name):
    game = context["game_title"]
    return (
        f"Reminder: your turn in {game}",
        f"{name}, your time to move in {game} is running out.{_time_left(context)}",
    )


def _timed_out(notification, context, name):
    game = context["game_title"]
    text = f"{name}, your time ran out in {game}, so the bot played your turn."
    if notification.context.get("autopilot"):
        text += " The bot now plays all your turns until you take your seat back."
    return f"Time ran out in {game}", text


def _game_over(notification, context, name):
    game = context["game_title"]
    result = emails.BUILDERS[Kind.GAME_OVER](notification, context)
    scores = ", ".join(
        f"{row['place']} {row['name']} {row['score']}" + (" (resigned)" if row["resigned"] else "")
        for row in result["results"]
    )
    winners = result["winners"].replace("you", name, 1) if result["you_won"] else result["winners"]
    return f"{game} is over", f"{game} is over: {winners} won. Final scores: {scores}."


def _invited(notification, context, name):
    game = context["game_title"]
    by = notification.context.get("by") or notification.game.creator.public_name
    return f"Invitation to {game}", f"{by} invited {name} to {game}."


def _game_started(notification, context, name):
    game = context["game_title"]
    first = notification.game.first_seat()
    first_name = context["names"][first] if first is not None else ""
    you_first = first is not None and first == context["my_seat"]
    who = "you go first" if you_first else f"{first_name} goes first"
    return f"{game} has started", f"{name}, {game} has started{_with(context)}: {who}."


def _table_full(notification, context, name):
    game = context["game_title"]
    players = ", ".join(context["players"])
    return (
        f"Your table is full: {game}",
        f"{name}, every seat of {game} is taken ({players}); start the game when you like.",
    )


def _new_messages(notification, context, name):
    from chat.services import unread_messages

    game = context["game_title"]
    messages = unread_messages(notification.game, notification.user)
    if not messages:
        return f"New messages in {game}", f"{name}, there are new messages in {game}."
    last = messages[-1]
    quote = last.text if len(last.text) <= MAX_QUOTE else last.text[: MAX_QUOTE - 1] + "…"
    more = f" ({len(messages)} new)" if len(messages) > 1 else ""
    return (
        f"New messages in {game}",
        f"{name}, new messages in {game}{more}. {last.author_name}: “{quote}”",
    )


BUILDERS = {
    Kind.YOUR_TURN: _your_turn,
    Kind.REMINDER: _reminder,
    Kind.TIMED_OUT: _timed_out,
    Kind.GAME_OVER: _game_over,
    Kind.INVITED: _invited,
    Kind.GAME_STARTED: _game_started,
    Kind.NEW_MESSAGES: _new_messages,
    Kind.TABLE_FULL: _table_full,
}
