"""The player account: Django's user plus the display name other players see.

A custom user model from the first migration on, so profile fields (display name, email
preferences, vacation) live on one row and never need a join on the game pages.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    class TurnEmails(models.TextChoices):
        IMMEDIATE = "immediate", "Right away, one email per turn"
        DAILY = "daily", "Once a day, all my turns in one digest"
        NEVER = "never", "Never"

    display_name = models.CharField(
        max_length=24,
        blank=True,
        help_text="The name other players see; the email address is never shown to them.",
    )
    # Email preferences (notifications/): how "your turn" emails arrive. "Never" also stops
    # invitations, game starts, timeouts and results; reminders have their own switch.
    turn_emails = models.CharField(
        "Turn emails",
        max_length=10,
        choices=TurnEmails.choices,
        default=TurnEmails.IMMEDIATE,
    )
    reminders = models.BooleanField(
        "Reminders",
        default=True,
        help_text="An email when your time to move is running out.",
    )
    # accounts/names.py: what the display name looks like, to refuse look-alikes of it.
    display_name_skeleton = models.CharField(max_length=100, blank=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="unique_display_name_ci",
                condition=~models.Q(display_name=""),
            )
        ]

    def save(self, *args, **kwargs) -> None:
        from accounts.names import skeleton

        self.display_name_skeleton = skeleton(self.display_name) if self.display_name else ""
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_skeleton"}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.display_name or f"Player {self.pk}"

    @property
    def public_name(self) -> str:
        return str(self)
