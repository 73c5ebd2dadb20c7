"""The email outbox and single-use sign-in links.

A ``Notification`` is written in the same transaction as the game change that causes it (see
outbox.notify), then sent by a Celery task after commit. Its status moves forward only, each
step through a conditional UPDATE, so a row is sent at most once however often a task runs:

    pending --claim--> sending --> sent | skipped | failed
                          \\--(SMTP error, attempts left)--> pending (retried with backoff)

Rows for the daily digest (``digest=True``) are left to tasks.send_daily_digests.

A row goes out on one channel: an email (the default), a POST to the player's webhook, or a Web
Push message to one of their devices (``subscription``). One event writes one row per channel
the player wants (notifications.preferences), all through the same state machine.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Notification(models.Model):
    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        INVITED = "invited", "Invited to a game"
        GAME_STARTED = "game_started", "Game started"
        REMINDER = "reminder", "Reminder"
        TIMED_OUT = "timed_out", "Timed out"
        GAME_OVER = "game_over", "Game over"
        TABLE_FULL = "table_full", "Your table is full"
        NEW_MESSAGES = "new_messages", "New messages"
        TOURNAMENT = "tournament", "Tournament news"
        CLUB = "club", "Club invitation or request to join"
        PLAN = "plan", "Planned turn played"
        # Service messages about the player's own settings: sent whatever the preferences say.
        TEST = "test", "Test (webhook or push)"
        WEBHOOK_OFF = "webhook_off", "Webhook switched off"

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        WEBHOOK = "webhook", "Webhook"
        PUSH = "push", "Push"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Skipped"
        FAILED = "failed", "Failed"

    class Failure(models.TextChoices):
        """Why a row is failed: email is at most once, so none of these is sent again."""

        NONE = "", "Not failed"
        SMTP = "smtp", "Mail server refused every try (not delivered)"
        STUCK = "stuck", "Worker stopped mid-send (delivery unknown)"
        ERROR = "error", "Could not be built or sent (not delivered)"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.EMAIL)
    subscription = models.ForeignKey(
        "notifications.PushSubscription",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="notifications",
        help_text="The device a push row goes to.",
    )
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    context = models.JSONField(
        default=dict, blank=True, help_text="Small, public data only: never a hand or the deck."
    )
    dedupe_key = models.CharField(
        max_length=200, unique=True, help_text="Names the event: one row per event and person."
    )
    digest = models.BooleanField(default=False, help_text="Waits for the daily digest.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(
        blank=True, help_text="The last SMTP error, or why it was skipped."
    )
    failure = models.CharField(max_length=10, choices=Failure.choices, default="", blank=True)
    failed_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            # The periodic scans: pending rows (immediate or digest) and rows stuck in sending.
            models.Index(
                fields=["digest", "created"],
                name="notification_pending",
                condition=models.Q(status="pending"),
            ),
            models.Index(
                fields=["claimed_at"],
                name="notification_sending",
                condition=models.Q(status="sending"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user} by {self.channel} ({self.status})"


class LoginToken(models.Model):
    """One sign-in link from an email. The link carries this id, signed with a timestamp; the
    row makes it single-use (``used_at`` is set by a conditional UPDATE)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_tokens"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    fingerprint = models.CharField(
        max_length=64,
        blank=True,
        editable=False,
        help_text="Of the password and email addresses when made: a change voids the link.",
    )

    def __str__(self) -> str:
        return f"Sign-in link for {self.user} to {self.game}"


class Preference(models.Model):
    """One cell of a player's preferences table: does this kind of news reach them on this
    channel? Only cells the player changed are stored; notifications.preferences holds the
    defaults. For "your turn" by email, ``setting`` may also be ``daily`` (the digest)."""

    class Setting(models.TextChoices):
        OFF = "off", "Off"
        ON = "on", "On"
        DAILY = "daily", "Daily digest"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    kind = models.CharField(max_length=20)
    channel = models.CharField(max_length=10, choices=Notification.Channel.choices)
    setting = models.CharField(max_length=5, choices=Setting.choices)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "channel"], name="unique_preference_cell"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind} by {self.channel} {self.setting}"


class Webhook(models.Model):
    """A player's webhook: where "your turn" and friends are POSTed (Discord, Slack or plain
    JSON). Switched off after WEBHOOK_MAX_FAILURES failed requests in a row."""

    class Format(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        JSON = "json", "Plain JSON"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook"
    )
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.DISCORD)
    active = models.BooleanField(default=True)
    failures = models.PositiveSmallIntegerField(
        default=0, help_text="Failed requests in a row; reset by a success."
    )
    last_error = models.CharField(max_length=300, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.get_format_display()} webhook of {self.user}"


class PushSubscription(models.Model):
    """One device (browser profile) that allowed notifications: the push service's endpoint and
    the keys the payload is encrypted to. Removed when the push service says it is gone."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    device = models.CharField(max_length=80, blank=True, help_text="e.g. Firefox on Android.")
    created = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created"]

    def __str__(self) -> str:
        return f"{self.device or 'A device'} of {self.user}"
