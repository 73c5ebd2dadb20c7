"""A lobby action (join, leave, start, invite...) as a browser posts it: run it, then back to
the game page with what happened as a message. The games views and the invitation views
share it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import urlencode

from firenze_site.requests import HtmxHttpRequest
from games.access import game_for_user, game_url, posted_token
from games.errors import GameError
from games.models import Game


def lobby_action(
    request: HtmxHttpRequest, pk: int, run: Any, success: str | list[str]
) -> HttpResponse:
    """Run a lobby action; ``success`` is the message (or a list ``run`` fills in)."""
    game = game_for_user(request, pk)
    try:
        run(game)
    except GameError as exc:
        messages.error(request, exc.message)
        response = redirect(back_to_game(request, game))
        if not request.htmx:
            response.status_code = 303
        return response
    for text in [success] if isinstance(success, str) else success:
        if text:
            messages.success(request, text)
    return redirect(game_url(game))


def back_to_game(request: HttpRequest, game: Game) -> str:
    """The game page, keeping a valid invite token: a refused stranger must still see it."""
    token = posted_token(request)
    if token and game.admits(token):
        return f"{game_url(game)}?{urlencode({'token': token})}"
    return game_url(game)
