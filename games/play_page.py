"""The page of a game in play (or over), as one seat sees it: the engine's parts drawn from
what that seat may see (games.seen), with what changed since the seat's last turn
(games.since), beside the platform's own parts (the log, the seats' panel, the standings),
each finished by its owner. Nothing here writes into what the engine drew."""

from __future__ import annotations

from typing import Any

from games import gamelog, since, standings
from games.models import Game, Seat
from games.rules import protocol
from games.seat_panel import seat_panel
from games.seen import seen_by


def play_context(
    game: Game, seats: list[Seat], mine: Seat | None, whole_log: bool
) -> dict[str, Any]:
    """The parts of the page of a game in play or over, as the viewer's seat (``mine``; None:
    a watcher) sees them."""
    state = game.load_state()
    whole_log = whole_log or game.is_finished
    log = gamelog.drawn_log(game, seats, game.engine.turn_no(state), whole=whole_log)
    engine = engine_part(game, state, seats, mine.number if mine else None, log.moves)
    return {
        **engine,
        "whole_log": whole_log,
        "log_html": log.html,
        **seat_panel(game, seats).page_part(engine["players"]),
        **standings.page_part(game, state, seats),
    }


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
