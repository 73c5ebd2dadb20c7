"""The game page, drawn for one viewer: the one place that turns a stored game into its page.

The views draw it for a request; after a move, a worker draws the seated players' pages ahead
of their polls (games.pagecache.draw_players_pages). Both go through `render`, with a
games.viewer.Viewer.

The page only assembles: each part comes finished from its owner. A game still forming has
its own page (games.forming_page); a game in play (or over) shows the engine's parts as the
viewer's seat sees them (games.seen: what the seat may see, never the state, so a page cannot
show another player's hand), the log (games.gamelog), the seats' clocks and absences
(games.seat_panel), the standings (games.standings) and the tab's title (games.titles).
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from games import gamelog, seen, standings, titles, versions
from games.forming_page import forming_context
from games.look import look_context
from games.models import Game, Seat
from games.seat_panel import seat_panel
from games.viewer import Viewer

PAGE_TEMPLATE = "games/game.html"  # the game page of every engine, around the engine's parts


def render(
    viewer: Viewer,
    game: Game,
    seats: list[Seat],
    *,
    error: str | None = None,
    partial: str | None = None,
    template: str = "",
    whole_log: bool = False,
    extra: dict[str, Any] | None = None,
) -> str:
    """The game page (or its ``partial``) as ``viewer`` sees it. ``seats``: the game's seats
    with their players and absences (Game.seats_for_page). A game still forming (or cancelled)
    has one page, without parts."""
    context = _common_context(viewer, game, seats, error)
    mine = context["my_seat"]  # the viewer's seat, read once for every part
    if game.is_open or game.status == Game.Status.CANCELLED:  # the whole page, no parts
        template, partial = "games/forming.html", None
        context.update(forming_context(viewer, game, seats, mine))
    else:
        template = template or PAGE_TEMPLATE
        context.update(_play_context(game, seats, mine, whole_log))
    my_turn, acting_name = context.get("my_turn", False), context.get("acting_name")
    context["page_title"] = titles.page_title(game, my_turn=my_turn, acting_name=acting_name)
    context.update(extra or {})
    if partial:
        template = f"{template}#{partial}"
    return render_to_string(template, context, request=viewer.request)


def render_chat(viewer: Viewer, game: Game, seats: list[Seat], csrf_token: str) -> str:
    """The table talk of a game page, drawn fresh for each request (games.pagecache)."""
    context = {"user": viewer.user, "game": game, "seats": seats, "csrf_token": csrf_token}
    return render_to_string(f"{PAGE_TEMPLATE}#chat", context)


def _common_context(
    viewer: Viewer, game: Game, seats: list[Seat], error: str | None
) -> dict[str, Any]:
    return {
        **look_context(game.engine),
        "game": game,
        "seats": seats,
        "user": viewer.user,
        "error": error,
        "token": viewer.token,
        "is_htmx": viewer.htmx,
        "my_seat": viewer.seat_in(seats),
        # Reversed once here: the templates use it in loops.
        "move_url": reverse("games:move", args=[game.pk]),
        # Lets the poll of a private game answer without loading the session.
        # Bound to the viewer's session (games.versions); a page drawn without a request
        # gets games.pagecache's placeholder instead, filled in when it is served.
        "poll_token": ""
        if game.is_public or viewer.request is None
        else versions.poll_token(game.pk, versions.viewer(viewer.request)),
    }


def _play_context(
    game: Game, seats: list[Seat], mine: Seat | None, whole_log: bool
) -> dict[str, Any]:
    """A game in play or over: the engine's parts as the viewer's seat (``mine``) sees them,
    beside the platform's own (the log, the seats' panel, the standings), each finished by its
    owner; nothing here writes into what the engine drew."""
    state = game.load_state()
    whole_log = whole_log or game.is_finished
    log = gamelog.drawn_log(game, seats, game.engine.turn_no(state), whole=whole_log)
    engine_part = seen.engine_part(game, state, seats, mine.number if mine else None, log.moves)
    return {
        **engine_part,
        "whole_log": whole_log,
        "log_html": log.html,
        **seat_panel(game, seats).page_part(engine_part["players"]),
        **standings.page_part(game, state, seats),
    }
