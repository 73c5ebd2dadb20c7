"""When a player last looked at a game: recorded as they open its page (or its page refreshes
itself), so the inbox can mark the games that changed, or have table talk they have not read,
since then."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from games import versions
from inbox.models import LastSeen

TTL_SECONDS = 3600


def _key(user_id: int, game_id: int) -> str:
    return f"inbox-seen:{user_id}:{game_id}"


def record(user: Any, game_id: int) -> None:
    """The game's current versions as seen by the player: a write only when they changed
    since the last look (a page refreshing itself every few seconds writes nothing)."""
    row = versions.current(game_id)
    if row is None:
        return
    seen = [row[0], row[1]]
    if cache.get(_key(user.pk, game_id)) == seen:
        return
    LastSeen.objects.update_or_create(
        user=user, game_id=game_id, defaults={"version": seen[0], "chat_version": seen[1]}
    )
    cache.set(_key(user.pk, game_id), seen, TTL_SECONDS)


def last_seen(user: Any, game_ids: list[int]) -> dict[int, tuple[int, int]]:
    """(version, chat_version) the player last saw, per game they have looked at."""
    rows = LastSeen.objects.filter(user=user, game_id__in=game_ids).values_list(
        "game_id", "version", "chat_version"
    )
    return {game_id: (version, chat) for game_id, version, chat in rows}
