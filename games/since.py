"""What happened since a player's last turn: the seat's own view when its turn ended, for the
game page to compare with its view now (protocol.Seen.since_view,
Presentation.changes_since).

When a seat's move hands the turn on (games.events.move_made), that seat's player_view is
kept in the cache with the game's version: only what the seat saw then, never the state, so
the page cannot tell anything the seat could not see. A view the cache lost shows no summary
(the log still has every move)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction

from games import events
from games.models import Game

CACHE_SECONDS = 30 * 24 * 3600


def _key(game_id: int, seat: int) -> str:
    return f"since-view:{game_id}:{seat}"


def last_action_view(game: Game, seat: int) -> tuple[dict[str, Any] | None, int | None]:
    """(the seat's player_view when its last turn ended, the turn that followed), or
    (None, None) when none is kept or nobody moved since."""
    kept = cache.get(_key(game.pk, seat))
    if not isinstance(kept, dict) or kept.get("version", game.version) >= game.version:
        return None, None
    return kept["view"], kept["turn"]


def _remember(sender: Any, *, game: Game, seat: int, **kw: Any) -> None:
    """Keep the mover's view once its move handed the turn on (or ended the game); a step in
    the middle of its turn ends the summary: the player has acted."""
    key = _key(game.pk, seat)
    if game.acting_seat == seat and game.is_active:
        transaction.on_commit(lambda: cache.delete(key))
        return
    engine, state, version = game.engine, game.load_state(), game.version
    kept = {
        "view": engine.player_view(state, seat),
        "turn": engine.turn_no(state),
        "version": version,
    }
    transaction.on_commit(lambda: cache.set(key, kept, CACHE_SECONDS))


def connect() -> None:
    events.move_made.connect(_remember, sender=Game, dispatch_uid="games.since")
