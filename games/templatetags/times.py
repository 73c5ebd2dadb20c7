"""Relative times as people say them: "just now", "5 minutes ago", "in 2 days"."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince, timeuntil

register = template.Library()

JUST_NOW = timedelta(minutes=1)


@register.filter
def ago(value: datetime | None) -> str:
    """ "3 hours ago", or "just now" within the last minute (never "0 minutes ago")."""
    if not value:
        return ""
    if timezone.now() - value < JUST_NOW:
        return "just now"
    return f"{timesince(value, depth=1)} ago"


@register.filter
def left(value: datetime | None) -> str:
    """Time left until a deadline: "2 days, 3 hours", "less than a minute", "no time"."""
    if not value:
        return ""
    remaining = value - timezone.now()
    if remaining <= timedelta(0):
        return "no time"
    if remaining < JUST_NOW:
        return "less than a minute"
    return timeuntil(value)
