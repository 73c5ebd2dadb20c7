"""Finished games as lists show them (the history, a profile, My games): each row's words and
links worked out here, once, as plain strings.

A list page draws fifty rows of up to four players; done with template filters, tags and URL
reversing per value, that alone took longer than the 50 ms a page may take. Here each row costs
a few string operations, and the template only places the strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext, pgettext

from players.links import player_link

_SENTINEL = 987654321


@lru_cache(maxsize=8)
def _url_pattern(name: str) -> tuple[str, str]:
    """A route's address around its one id, reversed once: (before, after)."""
    before, _, after = reverse(name, args=[_SENTINEL]).partition(str(_SENTINEL))
    return before, after


def url_with_id(name: str, pk: int) -> str:
    before, after = _url_pattern(name)
    return f"{before}{pk}{after}"


@dataclass
class Standing:
    place: str
    name: SafeString  # a profile link, or the plain name of a bot
    score: str
    won: bool
    css: str
    change: str  # the rating change, "+12", or "" for unrated games
    rating: str
    resigned: bool = False


@dataclass
class ListedGame:
    pk: str
    url: str
    replay_url: str
    iso: str
    date: str
    meta: str
    unrated: str  # "", "unrated" or "imported"
    unrated_why: str
    standings: list[Standing]
    score_unit: str = ""
    title: str = ""  # the game's name, or "Game 12"


def _days(record: Any) -> str:
    days = record.days
    if not days:
        return gettext("under a day")
    return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}


def listed_games(records: list[Any], highlight: Any = None) -> list[ListedGame]:
    """Rows for records whose results (with their users) are already loaded."""
    highlight_id = getattr(highlight, "pk", None)
    rows = []
    date_format = gettext("j M Y")
    for record in records:
        finished = timezone.localtime(record.finished_at)
        meta = [
            gettext("%(count)s players") % {"count": record.num_players},
            ngettext("%(count)s turn", "%(count)s turns", record.turns) % {"count": record.turns},
            _days(record),
        ]
        standings = []
        for result in record.results.all():
            css = (" won" if result.won else "") + (
                " highlight" if highlight_id and result.user_id == highlight_id else ""
            )
            change = "" if result.rating_change is None else f"{result.rating_change:+d}"
            standings.append(
                Standing(
                    place=str(result.place),
                    name=player_link(result),
                    score=str(result.score),
                    won=result.won,
                    css=css,
                    change=change,
                    rating="" if result.rating_shown is None else str(result.rating_shown),
                    resigned=result.resigned,
                )
            )
        if record.rated:
            unrated = ""
        else:
            unrated = (
                pgettext("badge", "imported") if record.imported else pgettext("badge", "unrated")
            )
        rows.append(
            ListedGame(
                pk=str(record.pk),
                url=url_with_id("games:detail", record.pk),
                replay_url=url_with_id("games:replay", record.pk),
                iso=finished.isoformat(timespec="seconds"),
                date=dateformat.format(finished, date_format),
                meta=" · ".join(meta + record.option_labels),
                unrated=unrated,
                unrated_why=(
                    gettext("Imported games are not rated")
                    if record.imported
                    else gettext("Not rated: a bot played, or played most of a seat")
                ),
                standings=standings,
                score_unit=record.score_unit,
                title=getattr(record, "game_name", "")
                or gettext("Game %(number)s") % {"number": record.pk},
            )
        )
    return rows
