"""The player account: Django's user plus the display name other players see.

A custom user model from the first migration on, so profile fields (the display name) live on
one row and never need a join on the game pages. Notification preferences are a table of their
own (notifications.models.Preference).
"""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

TIME_ZONE_MAX_LENGTH = 64


@cache
def time_zone_names() -> frozenset[str]:
    """The IANA zone names this machine knows (the browser reports one of these)."""
    return frozenset(zoneinfo.available_timezones())


def language_choices() -> list[tuple[str, str]]:
    """The site's languages (settings.LANGUAGES): a callable, so that adding a language needs
    no migration."""
    return list(settings.LANGUAGES)


def validate_time_zone(value: str) -> None:
    if value not in time_zone_names():
        raise ValidationError(
            _("Choose a time zone from the list, e.g. Europe/Rome."), code="invalid"
        )


class User(AbstractUser):
    display_name = models.CharField(
        max_length=24,
        blank=True,
        help_text=_("The name other players see; the email address is never shown to them."),
    )
    time_zone = models.CharField(
        _("Time zone"),
        max_length=TIME_ZONE_MAX_LENGTH,
        blank=True,
        validators=[validate_time_zone],
        help_text=_("Times on the site and in emails are shown in this zone (empty: UTC)."),
    )
    language = models.CharField(
        _("Language"),
        max_length=8,
        choices=language_choices,
        blank=True,
        help_text=_("Pages and emails are written in this language."),
    )
    # api/bots.py: an account that plays only through the API (a program), marked as a bot
    # wherever its name is shown and rated apart from people (players/results.py).
    bot_account = models.BooleanField(
        _("Bot account"),
        default=False,
        help_text=_("A program plays this account through the API; it is marked as a bot."),
    )
    # games.clock.alarm_moments: when to warn before the player's clock runs out, in minutes
    # before it (e.g. [480, 120, 30]); empty: the site's default shares of the turn.
    deadline_alarms = models.JSONField(_("Deadline alarms"), default=list, blank=True)
    # notifications.morning: the hour (0-23, the player's time zone) of their morning summary
    # of the games waiting for them, instead of one email per turn; None: no summary.
    summary_hour = models.PositiveSmallIntegerField(
        _("Morning summary hour"), null=True, blank=True
    )
    # The local day the last summary went out: claimed by a conditional update, once a day.
    summary_sent_on = models.DateField(null=True, blank=True, editable=False)
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
        return self.display_name or gettext("Player %(number)s") % {"number": self.pk}

    @property
    def public_name(self) -> str:
        return str(self)

    @property
    def zone(self) -> zoneinfo.ZoneInfo | None:
        """The player's time zone, or None (the site's default) if unset or unknown."""
        if self.time_zone and self.time_zone in time_zone_names():
            return zoneinfo.ZoneInfo(self.time_zone)
        return None
