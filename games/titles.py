"""The browser tab's titles of the game pages: what a page shows, then the site's name."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games.models import Game
from games.rules.wording import in_sentence


def site_title(title: str) -> str:
    """A page's title in the browser tab: what it shows, then the site's name."""
    return f"{title} · {settings.SITE_NAME}"


def page_title(game: Game, *, my_turn: bool, acting_name: str | None) -> str:
    """The game page's title; it follows the game on every refresh."""
    if game.is_finished:
        return site_title(_("%(title)s: game over") % {"title": game.title})
    if game.is_open or game.status == Game.Status.CANCELLED:
        words = {"title": game.title, "status": in_sentence(game.get_status_display())}
        return site_title(_("%(title)s: %(status)s") % words)
    if my_turn:
        return site_title(_("(Your turn) %(title)s") % {"title": game.title})
    words = {"title": game.title, "acting_name": acting_name or ""}
    return site_title(_("%(title)s: %(acting_name)s to play") % words)
