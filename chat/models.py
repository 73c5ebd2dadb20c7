"""Messages of a game's table talk, who muted whom, reports, and each player's last visit.

A message is stored with its game and kept after the game ends. ``after_move`` is the number of
moves in the log when it was written, so a replay can show it at that moment. Deleting blanks
the text (everyone sees "message deleted"); a report keeps its own copy for the moderators.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

MAX_LENGTH = 500


class Message(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
    )
    seat = models.PositiveSmallIntegerField(null=True, help_text="The author's seat number.")
    text = models.TextField(max_length=MAX_LENGTH)
    after_move = models.PositiveIntegerField(
        default=0, help_text="Moves in the log when it was written (for replays)."
    )
    created = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(fields=["game", "id"], name="chat_message_game"),
            models.Index(fields=["author", "created"], name="chat_message_author"),
        ]

    def __str__(self) -> str:
        return f"{self.author_name} in {self.game_id}: {self.text[:40]}"

    @property
    def author_name(self) -> str:
        return self.author.public_name if self.author is not None else "A former player"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


class Mute(models.Model):
    """``user`` does not want to read ``muted``: their messages collapse everywhere."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="unique_chat_mute")]

    def __str__(self) -> str:
        return f"{self.user} muted {self.muted}"


class Report(models.Model):
    """A player flags a message for the moderators (listed in the admin)."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=MAX_LENGTH, blank=True)
    text = models.TextField(help_text="The message as it read when it was reported.")
    created = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ["resolved", "-created"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="unique_chat_report")
        ]

    def __str__(self) -> str:
        return f"Report by {self.reporter} on message {self.message_id}"


class Visit(models.Model):
    """The last message a player has seen in a game: what "unread" counts from."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_visits"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    last_read = models.PositiveBigIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="unique_chat_visit")]

    def __str__(self) -> str:
        return f"{self.user} read {self.game_id} up to message {self.last_read}"
