"""The game page drawn now for a request, as the answer to it: a refused step, a move's or an
undo's answer, the whole log, a page the shared cache does not keep (games.pagecache serves the
rest). The answer says which versions it shows (games.shown), so the inbox records them."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from firenze_site.requests import HtmxHttpRequest
from games import page, shown
from games.errors import GameError
from games.models import Game, Seat
from games.viewer import Viewer


def drawn(
    request: HtmxHttpRequest,
    game: Game,
    *,
    seats: list[Seat] | None = None,
    status: int = 200,
    **options: Any,
) -> HttpResponse:
    """The game page (games.page) for this request. ``seats``: a move's own read of them."""
    seats = game.seats_for_page() if seats is None else seats
    html = page.render(Viewer.of(request), game, seats, **options)
    drawn_at = None if options.get("template") else shown.of_game(game)  # the log: no poller
    return shown.mark(HttpResponse(html, status=status), drawn_at)


def after_step(
    request: HtmxHttpRequest, game: Game, seats: list[Seat] | None, error: GameError | None
) -> HttpResponse:
    """The answer to a step (a move or an undo), taken or refused: htmx gets the page's fresh
    parts (with the refusal's message); a plain form post is sent back to the page when the
    step was taken, and gets the page with the refusal's status when it was not."""
    message = error.message if error else None
    if request.htmx:
        return drawn(request, game, seats=seats, error=message, partial="updates")
    if error is not None:
        return drawn(request, game, error=message, status=error.status)
    return redirect(reverse("games:detail", args=[game.pk]))
