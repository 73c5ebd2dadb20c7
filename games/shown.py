"""Which versions of a game a response shows: the game page (drawn now or from the cache) and the
answer to a move or an undo say them here, so the inbox (inbox.middleware) records what the
player saw without reading the page.

The versions are those the page's poller carries (its ``v`` and ``c``): a page that has no
poller (a game still forming, or cancelled) shows none.
"""

from __future__ import annotations

from django.http import HttpResponse

from games.models import Game

Versions = tuple[int, int]  # (game version, table talk version)

_ATTRIBUTE = "game_versions_shown"


def of_game(game: Game) -> Versions | None:
    """The versions a page of this game is drawn at, if its page has a poller."""
    if game.is_open or game.status == Game.Status.CANCELLED:
        return None
    return (game.version, game.chat_version)


def mark(response: HttpResponse, versions: Versions | None) -> HttpResponse:
    setattr(response, _ATTRIBUTE, versions)
    return response


def by(response: HttpResponse) -> Versions | None:
    """What ``response`` says it shows (None: no page of a game, or drawn without saying)."""
    return getattr(response, _ATTRIBUTE, None)
