"""What one seat sees of a game: its protocol.Seen (the seat's player_view and its own
choices, never the state). A page cannot show another player's hand because nothing but the
Seen reaches the engine's drawing (games.play_page, games.replay)."""

from __future__ import annotations

from typing import Any

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
