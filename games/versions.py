"""Each game's version numbers in the shared cache, so the poll needs no database.

Thousands of open tabs ask every few seconds whether their game changed; almost always it has
not. The poll reads (version, chat_version, is_public) from the shared cache: written after every
commit that changes a game (moves, undo, resignations, table talk, any Game.save()), filled from
the database on a miss with ``add`` (never overwriting a fresher value a commit wrote).
A short expiry bounds the harm of a write that raced another one.

Private games: the page embeds a token (an HMAC of the game id) that its poll sends back, so the
poll checks it without loading the session; the token says nothing but "may read the version".
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac

TTL_SECONDS = 60
SALT = "games.versions.poll"

Versions = tuple[int, int, bool]  # version, chat_version, is_public


def _key(game_id: int) -> str:
    return f"game-versions:{game_id}"


def poll_token(game_id: int) -> str:
    """What the page of a private game sends with its polls."""
    return salted_hmac(SALT, str(game_id)).hexdigest()[:32]


def valid_poll_token(game_id: int, token: str | None) -> bool:
    return token is not None and constant_time_compare(token, poll_token(game_id))


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
