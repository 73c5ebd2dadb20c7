"""What the player's desk keeps: when each player last looked at each game, their calendar
feed's secret address, and their private notes per game.

None of these is part of a game: a game is its seed, options and moves. They belong to one
player each and are shown to that player only (never to other players, the API or exports).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from games.models import Game

NOTE_MAX_LENGTH = 10_000


def new_feed_token() -> str:
    return secrets.token_urlsafe(24)


class LastSeen(models.Model):
    """The game's versions (moves, table talk) when the player last had its page open."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField(default=0)
    chat_version = models.PositiveIntegerField(default=0)
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="unique_last_seen"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} saw game {self.game_id} at {self.version}/{self.chat_version}"


class CalendarFeed(models.Model):
    """A player's private calendar address: whoever has it reads their turn deadlines, so it
    is long, random and can be replaced (the old one then answers 404)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True, default=new_feed_token)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Calendar feed of {self.user_id}"


class Note(models.Model):
    """A player's notepad for one game: kept after the game ends, seen by nobody else."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True, max_length=NOTE_MAX_LENGTH)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="unique_note")]

    def __str__(self) -> str:
        return f"Note of {self.user_id} on game {self.game_id}"
