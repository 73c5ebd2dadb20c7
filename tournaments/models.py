"""Tournaments, their players, rounds and tables; the seasons' ladder.

A tournament's truth is its tables' results: a table is a game of the platform (or a bye), and
its seats' places and scores are copied from the game's record when the game ends. Standings
are a pure function of those (tournaments.standings); ``Tournament.standings`` keeps the last
computation for the pages, rewritten under the tournament's row lock whenever a table ends.

A season (a month of the standing ladder, per table size) is a tournament of the format
"season": its rounds are weekly, its players the ladder's members.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game
from games.timecontrol import TimeControl

NAME_MAX_LENGTH = 60
DESCRIPTION_MAX_LENGTH = 2000


def new_token() -> str:
    return secrets.token_urlsafe(16)


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def listed(self) -> TournamentQuerySet:
        return self.filter(is_public=True).exclude(status=Tournament.Status.CANCELLED)

    def signup_closed(self, now: Any) -> list[int]:
        """Tournaments whose sign-up window has closed but that have not started: the beat's
        question, one query on a partial index."""
        due = self.order_by().filter(status=Tournament.Status.SIGNUP, signup_closes__lte=now)
        return list(due.values_list("pk", flat=True))


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        GROUPS = "groups", _("Round robin in groups")
        KNOCKOUT = "knockout", _("Knock-out")
        SEASON = "season", _("Season")

    class Status(models.TextChoices):
        SIGNUP = "signup", _("Sign-up open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=NAME_MAX_LENGTH)
    description = models.TextField(max_length=DESCRIPTION_MAX_LENGTH, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_tournaments",
    )
    featured = models.BooleanField(default=False, help_text="Shown first (staff choose).")
    format = models.CharField(max_length=10, choices=Format.choices)
    engine_name = models.CharField(max_length=40)
    options = models.JSONField(default=dict, help_text="The games' options (the engine's).")
    clock = models.JSONField(
        default=dict,
        help_text="The games' time control (games.timecontrol.TimeControl.to_dict()).",
    )
    facets = models.CharField(
        max_length=120, blank=True, help_text="The options as the history filters them."
    )
    table_size = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss: chosen; knock-out and groups: set when it starts."
    )
    group_size = models.PositiveSmallIntegerField(null=True, blank=True)
    final_table = models.BooleanField(default=False)
    signup_closes = models.DateTimeField()
    max_players = models.PositiveSmallIntegerField()
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    # The least share (percent) of their games a player must have finished to sign up.
    min_finished = models.PositiveSmallIntegerField(null=True, blank=True)
    is_public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SIGNUP)
    current_round = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(
        default=0, help_text="Raised on every change: what the page's standings poll compares."
    )
    standings = models.JSONField(
        default=list, blank=True, help_text="The last computed standings (a cache)."
    )
    season_month = models.DateField(
        null=True, blank=True, help_text="Seasons: the first day of the season's month."
    )
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["status", "-signup_closes"], name="tournament_list"),
            models.Index(
                fields=["signup_closes"],
                name="tournament_signup_due",
                condition=models.Q(status="signup"),
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["table_size", "season_month"],
                name="one_season_per_month_and_size",
                condition=models.Q(format="season"),
            )
        ]

    def __str__(self) -> str:
        return self.name

    # --- what the pages say -------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The name; a season's is worded in the reader's language ("3-player season, March
        2027")."""
        if self.is_season and self.season_month is not None:
            month = formats.date_format(self.season_month, "YEAR_MONTH_FORMAT")
            return gettext("%(size)s-player season, %(month)s") % {
                "size": self.table_size,
                "month": month,
            }
        return self.name

    @property
    def engine(self) -> Any:
        from games.rules import registry

        return registry.get(self.engine_name)

    @property
    def time_control(self) -> TimeControl:
        """The games' clock. The first tournaments kept only seconds per turn (time_limit);
        a clock this site can no longer read falls back to the default rather than break
        the page (the games themselves keep the clock they were dealt with)."""
        data = dict(self.clock or {})
        if "time_limit" in data:
            data = {"per_turn": data.pop("time_limit"), **data}
        try:
            return TimeControl.from_dict(data)
        except ValueError:
            return TimeControl()

    @property
    def time_control_label(self) -> str:
        return self.time_control.label()

    @property
    def option_tags(self) -> list[str]:
        try:
            return list(self.engine.option_tags(self.options or {}))
        except Exception:  # an engine this site no longer has
            return []

    @property
    def is_signup(self) -> bool:
        return self.status == self.Status.SIGNUP

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_season(self) -> bool:
        return self.format == self.Format.SEASON

    @property
    def signup_open(self) -> bool:
        return self.is_signup and timezone.now() < self.signup_closes

    @property
    def rating_range(self) -> str:
        low, high = self.min_rating, self.max_rating
        if low is None and high is None:
            return ""
        if high is None:
            return gettext("%(low)s or more") % {"low": low}
        if low is None:
            return gettext("up to %(high)s") % {"high": high}
        return f"{low}–{high}"

    def rating_allowed(self, rating: int) -> bool:
        return (self.min_rating is None or rating >= self.min_rating) and (
            self.max_rating is None or rating <= self.max_rating
        )

    @property
    def smallest_table(self) -> int:
        """The fewest players a table may have: one short of the size, at least the game's
        minimum and two."""
        try:
            minimum = self.engine.min_players
        except Exception:
            minimum = 2
        return max(2, minimum, self.table_size - 1)

    @property
    def min_players(self) -> int:
        """Fewer at the close of sign-up, and it is cancelled."""
        return 2 if self.format == self.Format.KNOCKOUT else self.table_size


class Entry(models.Model):
    """A player in a tournament: from sign-up to the final place."""

    class Withdrawal(models.TextChoices):
        NONE = "", _("Playing")
        TIMEOUTS = "timeouts", _("Withdrawn after two timeouts in a row")
        LEFT = "left", _("Withdrew")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_entries",
    )
    rating = models.IntegerField(help_text="At sign-up, and again when it starts (the seeding).")
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="1 = the highest rating.")
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    joined = models.DateTimeField(auto_now_add=True)
    withdrawn_round = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal = models.CharField(max_length=10, choices=Withdrawal.choices, default="", blank=True)
    last_timeout_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A timeout in one of the tournament's games with no move in time since.",
    )
    final_place = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["joined", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                name="one_entry_per_player",
                condition=models.Q(user__isnull=False),
            )
        ]
        indexes = [models.Index(fields=["user", "final_place"], name="entry_user_place")]

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"

    @property
    def name(self) -> str:
        return self.user.public_name if self.user is not None else gettext("Former player")

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_round is not None


class Round(models.Model):
    class Stage(models.TextChoices):
        SWISS = "swiss", _("Round")
        GROUPS = "groups", _("Group games")
        FINAL = "final", _("Final table")
        KNOCKOUT = "knockout", _("Knock-out round")
        WEEK = "week", _("Week")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=10, choices=Stage.choices)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament_id}"


class Table(models.Model):
    """One table of a round: a game, or a bye (one player, no game)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    game = models.OneToOneField(
        Game,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]
        indexes = [
            models.Index(
                fields=["round"], name="table_unfinished", condition=models.Q(finished_at=None)
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.round}"

    @property
    def is_bye(self) -> bool:
        return self.game_id is None


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "entry"], name="one_seat_per_entry")
        ]

    def __str__(self) -> str:
        return f"{self.entry} at {self.table}"


class LadderMember(models.Model):
    """A player of the standing ladder at one table size: signed up once, paired every week
    until they leave."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_memberships"
    )
    table_size = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "table_size"], name="one_ladder_per_size")
        ]

    def __str__(self) -> str:
        return f"{self.user} in the {self.table_size}-player ladder"
