"""The preferences table: which kinds of news reach a player on which channel.

Rows are kinds (your turn, reminder, timeout, game over, new messages, invitations), columns are
channels (email, webhook, push). Only cells a player has saved are stored (notifications.models
.Preference); every other cell has the default below. The "your turn" email may also be
``daily``: one digest a day instead of an email per turn.

The outbox asks ``wants(user, notification_kind, channel)`` when it writes a row and again
before it sends one, so a change takes effect for news already on its way.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, override

from notifications.models import Notification, Preference

Kind = Notification.Kind
Channel = Notification.Channel
Setting = Preference.Setting

YOUR_TURN, REMINDER, TIMEOUT = "your_turn", "reminder", "timeout"
GAME_OVER, NEW_MESSAGES, INVITATIONS = "game_over", "new_messages", "invitations"
TOURNAMENTS = "tournaments"

# The rows of the table, in the order the preferences page shows them.
KINDS: list[tuple[str, Promise, Promise]] = [
    (YOUR_TURN, gettext_lazy("Your turn"), gettext_lazy("When a game waits for your move.")),
    (REMINDER, gettext_lazy("Reminders"), gettext_lazy("When your time to move is running out.")),
    (
        TIMEOUT,
        gettext_lazy("Timeouts"),
        gettext_lazy("When your time ran out and the bot moved for you."),
    ),
    (GAME_OVER, gettext_lazy("Game over"), gettext_lazy("The final scores of your games.")),
    (
        NEW_MESSAGES,
        gettext_lazy("New messages"),
        gettext_lazy("Table talk while it is not your turn (at most hourly)."),
    ),
    (
        INVITATIONS,
        gettext_lazy("Invitations"),
        gettext_lazy("Invitations to a game, games that start, full tables."),
    ),
    (
        TOURNAMENTS,
        gettext_lazy("Tournaments"),
        gettext_lazy("Your tables in each new round, withdrawals and final standings."),
    ),
]
KIND_LABELS = {kind: label for kind, label, _ in KINDS}
CHANNELS: list[tuple[str, Promise]] = [
    (Channel.EMAIL, gettext_lazy("Email")),
    (Channel.WEBHOOK, gettext_lazy("Webhook")),
    (Channel.PUSH, gettext_lazy("Push")),
]

# What players get until they choose: everything but chat, which is opt-in.
DEFAULTS: dict[tuple[str, str], str] = {
    (kind, channel): Setting.OFF if kind == NEW_MESSAGES else Setting.ON
    for kind, _, _ in KINDS
    for channel, _ in CHANNELS
}

# Which cell of the table decides about each kind of outbox row. Kinds not listed (a webhook
# test, the email saying a webhook was switched off) are about the player's own settings and
# always go out.
KIND_OF: dict[str, str] = {
    Kind.YOUR_TURN: YOUR_TURN,
    Kind.REMINDER: REMINDER,
    Kind.TIMED_OUT: TIMEOUT,
    Kind.GAME_OVER: GAME_OVER,
    Kind.NEW_MESSAGES: NEW_MESSAGES,
    Kind.INVITED: INVITATIONS,
    Kind.GAME_STARTED: INVITATIONS,
    Kind.TABLE_FULL: INVITATIONS,
    Kind.TOURNAMENT: TOURNAMENTS,
    Kind.CLUB: INVITATIONS,  # an invitation to a club, a request to join one
    Kind.PLAN: YOUR_TURN,  # what the site played of my planned turn when it came
}


def table(user: Any) -> dict[tuple[str, str], str]:
    """Every cell of the player's table, defaults filled in (one query)."""
    cells = dict(DEFAULTS)
    if getattr(user, "pk", None) is None:
        return cells
    stored = Preference.objects.filter(user_id=user.pk).values_list("kind", "channel", "setting")
    for kind, channel, setting in stored:
        if (kind, channel) in cells:
            cells[kind, channel] = setting
    return cells


Cells = dict[tuple[str, str], str]


def setting(user: Any, kind: str, channel: str, cells: Cells | None = None) -> str:
    """One cell; ``cells`` (from table()) saves the query when several are asked together."""
    if cells is not None:
        return cells[kind, channel]
    if getattr(user, "pk", None) is None:
        return DEFAULTS[kind, channel]
    stored = (
        Preference.objects.filter(user_id=user.pk, kind=kind, channel=channel)
        .values_list("setting", flat=True)
        .first()
    )
    return stored or DEFAULTS[kind, channel]


def wants(user: Any, notification_kind: str, channel: str, cells: Cells | None = None) -> bool:
    """Whether this row of the outbox should reach the player on this channel."""
    kind = KIND_OF.get(notification_kind)
    if kind is None:
        return True
    return setting(user, kind, channel, cells) != Setting.OFF


def wants_any(user: Any, notification_kind: str) -> bool:
    kind = KIND_OF.get(notification_kind)
    if kind is None:
        return True
    cells = table(user)
    return any(cells[kind, channel] != Setting.OFF for channel, _ in CHANNELS)


def email_digest(user: Any, cells: Cells | None = None) -> bool:
    """Turn emails wait for the daily digest."""
    return setting(user, YOUR_TURN, Channel.EMAIL, cells) == Setting.DAILY


def opt_out_reason(
    user: Any, notification_kind: str, channel: str, cells: Cells | None = None
) -> str:
    """Why the player does not want this (empty if they do), as the outbox records it."""
    if wants(user, notification_kind, channel, cells):
        return ""
    with override("en"):  # a record for the operator, not a page
        label = str(KIND_LABELS[KIND_OF[notification_kind]]).lower()
    return f"switched off: {label} by {channel}"


def save(user: Any, cells: dict[tuple[str, str], str]) -> None:
    """Store the player's choice for these cells (the whole table, or one unsubscribed kind)."""
    for (kind, channel), value in cells.items():
        if (kind, channel) not in DEFAULTS:
            raise ValueError(f"No preference {kind!r} by {channel!r}.")
        if value == Setting.DAILY and (kind, channel) != (YOUR_TURN, Channel.EMAIL):
            raise ValueError("Only your-turn emails come as a daily digest.")
        if value not in Setting.values:
            raise ValueError(f"Unknown setting {value!r}.")
    with transaction.atomic():
        for (kind, channel), value in cells.items():
            Preference.objects.update_or_create(
                user_id=user.pk, kind=kind, channel=channel, defaults={"setting": value}
            )


def unsubscribe(user: Any, kind: str | None) -> None:
    """One-click unsubscribe from an email: this kind by email off, or every kind (old links,
    which named no kind)."""
    kinds = [kind] if kind else [k for k, _, _ in KINDS]
    save(user, {(k, Channel.EMAIL): Setting.OFF for k in kinds})
