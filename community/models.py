"""What the community app keeps: each player's reliability (a cache of their games' log,
rebuilt by community.standing), a table's requirements, follows and blocks."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from community.reliability import Reliability as Figures
from games.models import Game


class Reliability(models.Model):
    """A player's figures (community.reliability), refreshed when one of their games ends so
    the lobby reads them off one row, never the log."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="reliability",
    )
    games_started = models.PositiveIntegerField(default=0)
    games_finished = models.PositiveIntegerField(default=0)
    turns = models.PositiveIntegerField(default=0)
    turns_on_time = models.PositiveIntegerField(default=0)
    median_seconds = models.PositiveIntegerField(null=True, blank=True)
    new_player = models.BooleanField(default=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Reliability of {self.user_id}"

    @property
    def figures(self) -> Figures:
        return Figures(
            games_started=self.games_started,
            games_finished=self.games_finished,
            turns=self.turns,
            turns_on_time=self.turns_on_time,
            median_seconds=self.median_seconds,
            new_player=self.new_player,
        )


class TableRequirement(models.Model):
    """Who may join an open game besides the lobby's own rules: set by its creator."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="requirement"
    )
    min_finished = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Least share of games played to the end, in percent."
    )
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Requirement of game {self.game_id}"

    @property
    def is_empty(self) -> bool:
        return self.min_finished is None and self.min_rating is None and self.max_rating is None


class Follow(models.Model):
    """One player follows another (one way): the followed is told once, on the first follow."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="unique_follow"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """One player blocks another: private, known only to the blocker (and their data export)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="unique_block"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class FollowNotice(models.Model):
    """That a player was told of a follower: written on the first follow only, kept when they
    unfollow, so following again tells nobody twice."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follow_notices"
    )
    created = models.DateTimeField(auto_now_add=True)
    seen = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="unique_follow_notice"),
        ]

    def __str__(self) -> str:
        return f"{self.followed_id} told of {self.follower_id}"
