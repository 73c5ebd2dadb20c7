"""The game page, drawn for one viewer: the one place that turns a stored game into its page.

The views draw it for a request; after a move, a worker draws the seated players' pages ahead
of their polls (games.pagecache.draw_players_pages). Both go through `render`, with a
games.viewer.Viewer.

The page only assembles: each part comes finished from its owner. A game still forming has
its own page (games.forming_page); a game in play (or over) has its parts from
games.play_page (the engine's parts as the viewer's seat sees them, the log, the seats' clocks
and absences, the standings); the tab's title comes from games.titles.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from games import titles, versions
from games.forming_page import forming_context
from games.look import look_context
from games.models import Game, Seat
from games.play_page import play_context
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
        context.update(play_context(game, seats, mine, whole_log))
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
