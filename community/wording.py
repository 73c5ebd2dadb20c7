"""The reliability figures in words, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from community.reliability import Reliability


def move_time(seconds: int | None) -> str:
    """A median time to move, rounded to what matters for a slow game."""
    if seconds is None:
        return "–"
    minutes = seconds // 60
    if minutes < 60:
        minutes = max(1, minutes)
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    hours = minutes // 60
    if hours < 48:
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    days = hours // 24
    return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}


def short_mark(figures: Reliability) -> str:
    """The mark beside a name: the share of games played to the end, or "new player"."""
    if figures.new_player or figures.finished_percent is None:
        return _("new player")
    return _("%(share)s%% finished") % {"share": figures.finished_percent}


def mark_title(figures: Reliability) -> str:
    if figures.new_player:
        return _("Too few games yet to show how reliably this player finishes.")
    return _(
        "Played %(finished)s of %(started)s games to the end; %(on_time)s%% of turns on time; "
        "usually moves within %(time)s."
    ) % {
        "finished": figures.games_finished,
        "started": figures.games_started,
        "on_time": figures.on_time_percent if figures.on_time_percent is not None else "–",
        "time": move_time(figures.median_seconds),
    }
