"""One click to play: "Play against bots now" (home page, My games) and "Rematch" on a
finished game. Thin views over games.lobby.play_bots_now and games.lobby.rematch."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games import limits, lobby
from games.access import game_for_user, game_url
from games.errors import GameError
from games.forms import BotsNowForm


def _chosen(params: QueryDict) -> dict[str, Any]:
    """The players and level in `params` if they are valid choices, else nothing."""
    form = BotsNowForm(params)
    return dict(form.cleaned_data) if form.is_valid() else {}


def bots_now(request: HttpRequest) -> HttpResponse:
    """GET: the form (where sign-in leads back to, with the choice made before it in the
    query); POST: the game, started, at once."""
    if not request.user.is_authenticated:
        chosen = _chosen(request.POST if request.method == "POST" else request.GET)
        query = f"?{urlencode(chosen)}" if chosen else ""
        return redirect_to_login(reverse("games:bots_now") + query)
    if request.method == "POST":
        form = BotsNowForm(request.POST)
    else:
        form = BotsNowForm(initial=_chosen(request.GET) or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                limits.check(request, "create_game")
                data = form.cleaned_data
                game = lobby.play_bots_now(request.user, data["num_players"], data["level"])
            except GameError as exc:
                form.add_error(None, exc.message)
                status = exc.status
            else:
                return redirect(game_url(game))
    context = {"form": form, "page_title": _("Play against bots now") + " · Firenze"}
    return render(request, "games/bots_now.html", context, status=status)


@login_required
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of a finished game starts the same game again; the others are invited."""
    game = game_for_user(request, pk, with_state=False)
    if request.method != "POST":
        return redirect(game_url(game))
    try:
        limits.check(request, "create_game")
        limits.check(request, "invite")  # it emails the others: paused while limits cannot count
        new = lobby.rematch(game, request.user)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect(game_url(game))
    if new.is_open:
        messages.success(request, _("Rematch created: the other players are invited."))
    return redirect(game_url(new))
