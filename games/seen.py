"""What one seat sees of a game: its protocol.Seen (the seat's player_view and its own
choices, never the state) and the engine's parts of the game page drawn from it, with what
changed since the seat's last turn (games.since). A page cannot show another player's hand
because nothing but the Seen reaches the engine's drawing."""

from __future__ import annotations

from typing import Any

from games import since
from games.models import Game, Seat
from games.rules import protocol


def seen_by(
    engine: protocol.Rules,
    state: protocol.State,
    viewer: int | None,
    *,
    live: bool = True,
    **more: Any,
) -> protocol.Seen:
    """What seat ``viewer`` may see of ``state`` (None: a watcher); not ``live`` once the game
    has ended, however it ended (no choices then, whatever the state was in the middle of)."""
    acting = engine.acting_seat(state)
    mine = live and viewer is not None and acting == viewer
    return protocol.Seen(
        view=engine.player_view(state, viewer),
        viewer=viewer,
        acting=acting,
        choices=engine.legal_actions(state) if mine else [],
        can_undo=mine and engine.can_undo(state),
        scores=engine.scores(state),
        live=live,
        **more,
    )


def engine_part(
    game: Game, state: protocol.State, seats: list[Seat], seat: int | None, moves: list[Any]
) -> dict[str, Any]:
    """The engine's parts of the game page as ``seat`` (None: a watcher) sees them, finished:
    its page_context and the summary of what changed since the seat last acted.
    ``moves``: the log's latest moves (games.gamelog.drawn_log)."""
    engine = game.engine
    since_view, since_turn = (
        since.last_action_view(game, seat) if seat is not None and game.is_active else (None, None)
    )
    names = [s.name for s in seats]
    seen = seen_by(
        engine,
        state,
        seat,
        names=names,
        colours=[s.colour for s in seats],
        moves=moves,
        live=game.is_active,
        since_view=since_view,
        since_turn=since_turn,
    )
    context: dict[str, Any] = dict(engine.page_context(seen))
    if since_view is not None and seat is not None:
        changes = engine.changes_since(since_view, seen.view, seat, names)
        context["since"] = changes if changes.any else None
        context["since_turn"] = since_turn
    return context
