"""A player's name as a link to their public profile, wherever a name is shown (lists of
finished games build their rows with it; the template tags of players.templatetags.players
draw it in pages).

`who` is a seat (games.Seat), a result (players.SeatResult), a user, or a list of seats with
`seat=` the seat number to pick (the game page's player boxes know only the number). Bots, open
seats and accounts without a display name are shown as plain text: they have no profile.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext


def profile_url(user: Any) -> str | None:
    name = getattr(user, "display_name", "")
    return _profile_path(name) if name else None


@lru_cache(maxsize=4096)
def _profile_path(name: str) -> str:
    """Reversed once per name: lists of games show hundreds of names a page."""
    return reverse("players:profile", args=[name])


def _person(who: Any) -> tuple[Any | None, str]:
    """(the user behind a name, or None; the name to show)."""
    if who is None:
        return None, ""
    if hasattr(who, "public_name"):  # a user
        return who, who.public_name
    if getattr(who, "bot", ""):
        return None, who.name
    user_id = getattr(who, "user_id", None)
    user = who.user if user_id is not None else None
    return user, (user.public_name if user is not None else who.name)


def player_link(who: Any, seat: int | None = None, label: str = "") -> SafeString:
    if seat is not None:
        who = next((s for s in who if getattr(s, "number", getattr(s, "seat", None)) == seat), None)
        if who is None:
            return format_html('<span class="player-name">Player {}</span>', seat + 1)
    user, name = _person(who)
    url = profile_url(user) if user is not None else None
    text = label or name
    if url is None:
        return format_html('<span class="player-name">{}</span>', text)
    # A program's account (api/bots.py) is marked; read only if loaded (a list that loaded its
    # users with .only() must not pay a query per name).
    if vars(user).get("bot_account", False):
        return format_html(
            '<a class="player-link" href="{}">{}</a> '
            '<span class="badge badge-quiet bot-mark">{}</span>',
            url,
            text,
            pgettext("a bot account's mark beside its name", "bot"),
        )
    return format_html('<a class="player-link" href="{}">{}</a>', url, text)


_SEAT_TOKEN = re.compile(r"\{(\d)\}")


def log_line(raw: str, seats: list[Any]) -> SafeString:
    """A stored log line ({0}, {1} ... for seats) with each seat's name as a profile link."""
    parts = _SEAT_TOKEN.split(raw)
    html = [
        player_link(seats, seat=int(part)) if i % 2 else conditional_escape(part)
        for i, part in enumerate(parts)
    ]
    return mark_safe("".join(html))  # noqa: S308 - every part is escaped or format_html
