"""Whether a player has a game open: a poll or a stream of theirs in the last minute.

Deadline alarms are not sent to a player who is looking at the game (games.timeouts.remind).
The page's poll carries a token naming the seated player (``o``, from the page's template
tag), and the game's stream knows its signed-in caller; each writes a short-lived key in the
shared cache, never reading it first, so a poll costs no extra round trip to read. Within one
process a player's key is written at most every WRITE_EVERY seconds.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.utils.crypto import constant_time_compare, salted_hmac

OPEN_SECONDS = 60  # "open": a poll or a stream contact within the last minute
WRITE_EVERY = 20.0  # a poll every 5 s need not write every time
SALT = "games.presence"
_written: dict[tuple[int, int], float] = {}
_MAX_REMEMBERED = 10_000


def _key(game_id: int, user_id: int) -> str:
    return f"game-open:{game_id}:{user_id}"


def _mac(game_id: int, user_id: int) -> str:
    return salted_hmac(SALT, f"{game_id}:{user_id}", algorithm="sha256").hexdigest()[:24]


def token(game_id: int, user_id: int) -> str:
    """What a seated player's page sends with its polls."""
    return f"{user_id}.{_mac(game_id, user_id)}"


def user_of(game_id: int, value: str | None) -> int | None:
    """The player a poll's token names, or None if it is no valid token for this game."""
    user, _, mac = (value or "").partition(".")
    if not user.isdigit() or len(user) > 18:
        return None
    if not constant_time_compare(mac, _mac(game_id, int(user))):
        return None
    return int(user)


def touch(game_id: int, user_id: int) -> None:
    """The player has the game open now (a poll, a stream connecting or alive)."""
    now = time.monotonic()
    if now - _written.get((game_id, user_id), -WRITE_EVERY) < WRITE_EVERY:
        return
    if len(_written) > _MAX_REMEMBERED:
        _written.clear()
    _written[game_id, user_id] = now
    cache.set(_key(game_id, user_id), 1, OPEN_SECONDS)


def touch_from_poll(game_id: int, value: str | None) -> None:
    user_id = user_of(game_id, value) if value else None
    if user_id is not None:
        touch(game_id, user_id)


def forget_writes() -> None:
    """Tests: every touch writes again."""
    _written.clear()


def is_open(game_id: int, user_id: int) -> bool:
    return cache.get(_key(game_id, user_id)) is not None
