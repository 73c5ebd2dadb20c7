"""The player account: Django's user plus the display name other players see.

A custom user model from the first migration on, so profile fields (the display name) live on
one row and never need a join on the game pages. Notification preferences are a table of their
own (notifications.models.Preference).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    display_name = models.CharField(
        max_length=24,
        blank=True,
        help_text="The name other players see; the email address is never shown to them.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="unique_display_name_ci",
                condition=~models.Q(display_name=""),
            )
        ]

    def __str__(self) -> str:
        return self.display_name or f"Player {self.pk}"

    @property
    def public_name(self) -> str:
        return str(self)
