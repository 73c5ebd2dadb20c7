"""What the history, profiles and ratings read: one record per finished game, one result per
seat, one rating per player.

Written once, in the transaction that ends the game (players.results), so a list of finished
games never loads a game's state: the state holds hidden cards and is large, these rows hold
only what a list shows. They are a cache of the move log like the state is:
`recompute_ratings` rebuilds them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from games.models import Game


class GameRecord(models.Model):
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="record"
    )
    started_at = models.DateTimeField(help_text="The first move.")
    finished_at = models.DateTimeField()
    num_players = models.PositiveSmallIntegerField()
    is_public = models.BooleanField(help_text="Private games are listed only to their players.")
    # What the game's engine keeps of it (Engine.record_details): details in words for lists
    # (Engine.describe_record), and the values the history filters by (Engine.record_facets)
    # as one short string, ";key=value;" per facet, carried by the list indexes.
    engine_name = models.CharField(max_length=40, default="", blank=True)
    details = models.JSONField(default=dict, blank=True)
    facets = models.CharField(max_length=120, default="", blank=True)
    turns = models.PositiveIntegerField(help_text="Players' turns, as the engine counts them.")
    moves = models.PositiveIntegerField()
    rated = models.BooleanField()
    # Rated in the pool of games with bot accounts (players.results): never both this and rated.
    bot_pool = models.BooleanField(default=False)
    imported = models.BooleanField(default=False)

    class Meta:
        indexes = [
            # The history's lists and counts read only these indexes (the filters' columns are
            # in them): all games newest first, or those of one number of players.
            models.Index(
                fields=["-finished_at", "-game", "is_public", "num_players", "facets"],
                name="record_finished",
            ),
            models.Index(
                fields=["num_players", "-finished_at", "-game", "is_public", "facets"],
                name="record_players_finished",
            ),
            models.Index(fields=["rated", "finished_at"], name="record_rated_finished"),
        ]

    def __str__(self) -> str:
        return f"Record of game {self.game_id}"

    @property
    def days(self) -> int:
        return (self.finished_at - self.started_at).days

    @property
    def engine(self) -> Any:
        """The current engine of the game's name, or None if this site has none by that name."""
        from games.rules import registry

        try:
            return registry.get(self.engine_name)
        except registry.UnknownEngine:
            return None

    @property
    def option_labels(self) -> list[str]:
        engine = self.engine
        return engine.describe_record(self.details) if engine else []

    @property
    def score_unit(self) -> str:
        engine = self.engine
        return str(engine.look.score_unit) if engine else ""


class SeatResult(models.Model):
    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="results",
    )
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40, help_text="The seat's name when the game ended.")
    bot = models.CharField(max_length=20, blank=True)
    place = models.PositiveSmallIntegerField(help_text="1 for the winners; ties share a place.")
    score = models.SmallIntegerField()
    won = models.BooleanField()
    steps = models.PositiveIntegerField(default=0)
    bot_steps = models.PositiveIntegerField(
        default=0, help_text="Steps the bot played for this seat (timeouts, autopilot)."
    )
    abandoned = models.BooleanField(
        default=False,
        help_text="A person's seat that the bot finished (autopilot at the end) or mostly played.",
    )
    resigned = models.BooleanField(
        default=False, help_text="The player conceded (games.resign): placed last, a bot went on."
    )
    # What the engine keeps of the seat (Engine.record_details): counts a profile sums.
    details = models.JSONField(default=dict, blank=True)
    # Copied from the record so a player's games can be listed newest first off one index,
    # and their private games found off a small one.
    finished_at = models.DateTimeField()
    is_public = models.BooleanField(default=True)
    # The player's rating after this game (rated games only), for the profile's chart.
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    rating_shown = models.IntegerField(null=True, blank=True)
    rating_change = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["place", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["record", "seat"], name="unique_result_seat"),
        ]
        indexes = [
            # A player's games newest first; on PostgreSQL it also carries what the profile
            # counts and charts, so those read the index alone (covering columns: ignored
            # elsewhere).
            models.Index(
                fields=["user", "-finished_at", "-record"],
                name="result_user_finished",
                include=["won", "score", "abandoned", "rating_shown"],
            ),
            models.Index(fields=["record", "user"], name="result_record_user"),
            # The private games a viewer played: the only private games listed to them.
            models.Index(
                fields=["user", "record"],
                name="result_user_private",
                condition=models.Q(is_public=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.score} points in game {self.record_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)


class Rating(models.Model):
    """A player's current openskill rating (players.ratings says which model and why)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField(help_text="The number players see: a conservative estimate.")
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-shown", "games"], name="rating_shown")]

    def __str__(self) -> str:
        return f"{self.user}: {self.shown}"


class BotPoolRating(models.Model):
    """A rating in the pool of games with bot accounts (api/bots.py): programs, and the people
    who play them, rated apart from games between people (players.results)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_pool_rating",
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-shown", "games"], name="bot_pool_rating_shown")]

    def __str__(self) -> str:
        return f"{self.user}: {self.shown} (bot pool)"
