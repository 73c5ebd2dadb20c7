"""Each game's version numbers in the shared cache, so the poll needs no database.

Thousands of open tabs ask every few seconds whether their game changed; almost always it has
not. The poll reads (version, chat_version, is_public) from the shared cache: written after every
commit that changes a game (moves, undo, resignations, table talk, any Game.save()), filled from
the database on a miss with ``add`` (never overwriting a fresher value a commit wrote).
A short expiry bounds the harm of a write that raced another one.

Private games: the page embeds a token that its poll sends back, so the poll checks it without
loading the session; the token says nothing but "may read the version". It is an HMAC of the
game id, the viewer (their session cookie, as sent: no session is loaded) and an expiry
(POLL_TOKEN_SECONDS): copied into another browser, or kept after the page closed, it opens
nothing. A poll with an expired or foreign token goes on to the view, which asks the session
who may see the game, as the page does.
"""

from __future__ import annotations

import re
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare, salted_hmac

TTL_SECONDS = 60
SALT = "games.versions.poll"
POLL_TOKEN_SECONDS = 12 * 3600
_EXPIRY = re.compile(r"[0-9a-f]{1,12}")

Versions = tuple[int, int, bool]  # version, chat_version, is_public


def _key(game_id: int) -> str:
    return f"game-versions:{game_id}"


def viewer(request: HttpRequest) -> str:
    """Who asks, as far as a poll token goes: the session cookie (no session is loaded)."""
    return request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


def poll_token(game_id: int, viewer: str, now: float | None = None) -> str:
    """What the page of a private game sends with its polls, for this viewer, for a while."""
    expires = int(time.time() if now is None else now) + POLL_TOKEN_SECONDS
    return f"{expires:x}.{_mac(game_id, viewer, expires)}"


def valid_poll_token(game_id: int, viewer: str, token: str | None) -> bool:
    stamp, _, mac = (token or "").partition(".")
    if not _EXPIRY.fullmatch(stamp) or int(stamp, 16) < time.time():
        return False
    return constant_time_compare(mac, _mac(game_id, viewer, int(stamp, 16)))


def _mac(game_id: int, viewer: str, expires: int) -> str:
    value = f"{game_id}:{expires}:{viewer}"
    return salted_hmac(SALT, value, algorithm="sha256").hexdigest()[:32]


def _from_database(game_id: int) -> Versions | None:
    from games.models import Game

    row = (
        Game.objects.filter(pk=game_id)
        .order_by()
        .values_list("version", "chat_version", "is_public")
        .first()
    )
    return (row[0], row[1], row[2]) if row else None


def cached(game_id: int) -> Versions | None:
    """The game's versions if the shared cache has them (None: not cached, or no such game)."""
    found = cache.get(_key(game_id))
    return None if found is None else tuple(found)


def current(game_id: int) -> Versions | None:
    """The game's versions: from the cache, else the database (None: no such game)."""
    found = cached(game_id)
    if found is not None:
        return found
    row = _from_database(game_id)
    if row is not None:
        cache.add(_key(game_id), list(row), TTL_SECONDS)
    return row


def publish(game_id: int) -> None:
    """Write the committed versions to the cache (read back from the database: the truth)."""
    row = _from_database(game_id)
    if row is None:
        cache.delete(_key(game_id))
    else:
        cache.set(_key(game_id), list(row), TTL_SECONDS)


def changed(game_id: int) -> None:
    """Call inside the transaction that changes a game. The cached versions go at once (a poll
    meanwhile reads the database, which still answers the old ones until the commit, and a
    rollback leaves nothing wrong behind); the new ones are written once it commits."""
    cache.delete(_key(game_id))
    transaction.on_commit(lambda: publish(game_id))
