"""When a player last looked at a game: recorded as they open its page (or its page refreshes
itself), so the inbox can mark the games that changed, or have table talk they have not read,
since then."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from firenze_site import prefetch
from games import versions
from inbox.models import LastSeen

TTL_SECONDS = 3600


def key(user_id: int, game_id: int) -> str:
    return f"inbox-seen:{user_id}:{game_id}"


def record(user: Any, game_id: int, shown: tuple[int, int] | None = None) -> None:
    """The versions the player saw (``shown``: those the page was drawn at; else the game's
    current ones): a write only when they changed since the last look (a page refreshing
    itself every few seconds writes nothing), in one statement."""
    if shown is None:
        row = versions.current(game_id)
        if row is None:
            return
        shown = (row[0], row[1])
    seen = [shown[0], shown[1]]
    if prefetch.get(key(user.pk, game_id)) == seen:
        return
    look = LastSeen(
        user=user, game_id=game_id, version=seen[0], chat_version=seen[1], seen_at=timezone.now()
    )
    # One statement, new or not (INSERT ... ON CONFLICT DO UPDATE on SQLite and PostgreSQL).
    LastSeen.objects.bulk_create(
        [look],
        update_conflicts=True,
        unique_fields=["user", "game"],
        update_fields=["version", "chat_version", "seen_at"],
    )
    prefetch.set(key(user.pk, game_id), seen, TTL_SECONDS)


def last_seen(user: Any, game_ids: list[int]) -> dict[int, tuple[int, int]]:
    """(version, chat_version) the player last saw, per game they have looked at."""
    rows = LastSeen.objects.filter(user=user, game_id__in=game_ids).values_list(
        "game_id", "version", "chat_version"
    )
    return {game_id: (version, chat) for game_id, version, chat in rows}
