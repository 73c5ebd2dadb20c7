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
