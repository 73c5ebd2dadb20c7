"""What a club keeps: the club, its members (each with a rung of the club's ladder), the
requests and invitations at its door, the ladder's challenges and its tournaments."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game
from tournaments.models import Tournament

NAME_MAX_LENGTH = 60
DESCRIPTION_MAX_LENGTH = 1000


class Club(models.Model):
    class Door(models.TextChoices):
        OPEN = "open", _("Open: anyone may join")
        INVITATION = "invitation", _("By invitation: admins let players in")

    name = models.CharField(max_length=NAME_MAX_LENGTH, unique=True)
    slug = models.SlugField(max_length=NAME_MAX_LENGTH + 10, unique=True)
    description = models.TextField(max_length=DESCRIPTION_MAX_LENGTH, blank=True)
    door = models.CharField(max_length=10, choices=Door.choices, default=Door.OPEN)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.door == self.Door.OPEN


class Membership(models.Model):
    """A player in a club. ``rung`` orders the ladder (lowest first); places are counted from
    it, so a gap left by a departure needs no renumbering."""

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ADMIN = "admin", _("Admin")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    rung = models.PositiveIntegerField()
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_club_member"),
        ]
        indexes = [models.Index(fields=["club", "rung"], name="club_ladder")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id}"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN


class DoorEntry(models.Model):
    """A player asking to join a club by invitation (REQUEST, an admin accepts) or invited by
    an admin (INVITATION, the player accepts)."""

    class Kind(models.TextChoices):
        REQUEST = "request", _("Asked to join")
        INVITATION = "invitation", _("Invited")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="door_entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_door_entries"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_club_door_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.user_id} at {self.club_id}"


class Challenge(models.Model):
    """A ladder challenge: a game between a member and one up to N places above them. The
    challenged answers by taking their seat; unanswered for a week, they lose it."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for an answer")
        PLAYING = "playing", _("Being played")
        WON = "won", _("Won by the challenger")
        HELD = "held", _("Held by the challenged")
        FORFEITED = "forfeited", _("Not answered in time")
        CANCELLED = "cancelled", _("Cancelled")

    OPEN_STATUSES = (Status.WAITING, Status.PLAYING)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_challenges_received"
    )
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="club_challenge"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created = models.DateTimeField()
    settled = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created"], name="club_challenge_due")]

    def __str__(self) -> str:
        return f"{self.challenger_id} challenges {self.challenged_id} in {self.club_id}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES


class ClubTournament(models.Model):
    """A tournament of the platform's formats open to one club's members only."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="club_link"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} of {self.club_id}"
