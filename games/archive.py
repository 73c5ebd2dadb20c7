"""Views of a finished game: its replay and its JSON export (the list of finished games is
the players app's: players/views.py).

Thin views, as in games.views: access goes through games.access.game_for_user (404 for a private
game one may not see); a game still being played has no replay and no export (403 with a page
saying so), because both show every hand.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from firenze_site.requests import HtmxHttpRequest
from games import replay as replays
from games.access import game_for_user
from games.models import Game
from games.transfer import export_game


def _closed(request: HttpRequest, game: Game, what: str) -> HttpResponse:
    return render(request, "games/not_over.html", {"game": game, "what": what}, status=403)


@require_GET
def replay(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = game_for_user(request, pk, with_state=False)
    if not game.is_finished:
        return _closed(request, game, "replay")
    built = replays.build(game, request.GET)
    context: dict[str, Any] = {"game": game, "replay": built, **built.context}
    template = "games/replay.html#frame" if request.htmx else "games/replay.html"
    return render(request, template, context)


@require_GET
def export(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_for_user(request, pk)
    if not game.is_finished:
        return _closed(request, game, "download")
    response = JsonResponse(export_game(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="firenze-game-{game.pk}.json"'
    return response
