"""Relative times as people say them: "just now", "5 minutes ago", "in 2 days"."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.contrib.humanize.templatetags.humanize import NaturalTimeFormatter
from django.utils import timezone
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext

register = template.Library()

JUST_NOW = timedelta(minutes=1)


@register.filter
def ago(value: datetime | None) -> str:
    """ "3 hours ago", or "just now" within the last minute (never "0 minutes ago")."""
    if not value:
        return ""
    if timezone.now() - value < JUST_NOW:
        return gettext("just now")
    # humanize's words: German needs the dative after "vor" ("vor 3 Tagen", not "3 Tage").
    delta = timesince(value, depth=1, time_strings=NaturalTimeFormatter.past_substrings)
    return NaturalTimeFormatter.time_strings["past-day"] % {"delta": delta}


@register.filter
def left(value: datetime | None) -> str:
    """Time left until a deadline: "2 days, 3 hours", "less than a minute", "no time"."""
    if not value:
        return ""
    remaining = value - timezone.now()
    if remaining <= timedelta(0):
        return gettext("no time")
    if remaining < JUST_NOW:
        return gettext("less than a minute")
    return timeuntil(value)
