"""What the bots app keeps: a player's takeover level, the levels' ratings, post-game reviews.

All of it is game-neutral: a level is a key of the game's engine (Engine.bot_levels), a review
is the list of JSON entries the engine's `review` computed, shown through its `review_text`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class TakeoverPreference(models.Model):
    """Which bot level plays a player's seat when their time runs out or the autopilot keeps
    it (without a row: the engine's default_bot)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_takeover",
    )
    level = models.CharField(max_length=20)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.level}"


class BotRating(models.Model):
    """A level's openskill rating from the calibration ladder (manage.py rate_bots)."""

    engine_name = models.CharField(max_length=40)
    level = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField(help_text="On the scale players' ratings are shown.")
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["engine_name", "level"], name="bot_rating_level")
        ]

    def __str__(self) -> str:
        return f"{self.engine_name} {self.level}: {self.shown}"


class BotMatchup(models.Model):
    """How one level fared against another in the ladder's two-player games (ties count half)."""

    engine_name = models.CharField(max_length=40)
    level = models.CharField(max_length=20)
    opponent = models.CharField(max_length=20)
    games = models.PositiveIntegerField(default=0)
    wins = models.FloatField(default=0.0)
    score = models.IntegerField(default=0, help_text="Points scored, summed over the games.")
    opponent_score = models.IntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["engine_name", "level", "opponent"], name="bot_matchup_pair"
            )
        ]

    def __str__(self) -> str:
        return f"{self.level} vs {self.opponent}: {self.wins}/{self.games}"

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0


class Review(models.Model):
    """One player's post-game review of one finished game, computed once by a bots-queue task
    (bots.tasks.review_game) and kept."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a bot")
        RUNNING = "running", _("being computed")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    entries = models.JSONField(default=list, blank=True)
    seconds = models.FloatField(help_text="The bot's thinking time per decision.")
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="review_game_seat")]

    def __str__(self) -> str:
        return f"Review of game {self.game_id}, seat {self.seat}: {self.status}"
