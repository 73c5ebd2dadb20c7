"""Public profiles, the leaderboard and the history of finished games: thin views over the
queries of players.profiles and players.history."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from firenze_site.requests import HtmxHttpRequest
from players import history as history_list
from players import profiles
from players.charts import line_chart
from players.history import find_player, only_pages, page_number
from players.models import Rating
from players.ratings import PROVISIONAL_GAMES
from players.results import RATED_RULE

PER_PAGE = 50
PROVISIONAL_SHOWN = 50


@require_GET
def history(request: HtmxHttpRequest) -> HttpResponse:
    """Finished games, newest first, filtered by a bookmarkable query string; htmx requests
    get only the list, so the filters update it without reloading the page. Served at
    /games/history/ (games/urls.py mounts players/history_urls.py)."""
    viewer = request.user if request.user.is_authenticated else None
    context = {"history": history_list.history(request.GET, viewer)}
    template = "games/history.html#results" if request.htmx else "games/history.html"
    return render(request, template, context)


@require_GET
def profile(request: HttpRequest, name: str) -> HttpResponse:
    player = find_player(name)
    if player is None:
        raise Http404(_("No such player."))
    if name != player.display_name:  # one address per profile, whatever case was typed
        return redirect("players:profile", player.display_name, permanent=True)
    viewer = request.user if request.user.is_authenticated else None
    is_me = viewer is not None and viewer.pk == player.pk
    context = {
        "player": player,
        "is_me": is_me,
        "career": profiles.career(player),
        "standing": profiles.standing(player),
        "chart": line_chart(profiles.rating_points(player)),
        "in_progress": profiles.games_in_progress(player),
        "latest": profiles.latest_finished(player, viewer),
        "head_to_head": (
            profiles.head_to_head(viewer, player) if viewer is not None and not is_me else None
        ),
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "players/profile.html", context)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    notes: list[str] = []
    number = page_number(request.GET.get("page"), notes)
    ratings = Rating.objects.select_related("user").order_by("-shown", "-games", "user_id")
    ranked = ratings.filter(games__gte=PROVISIONAL_GAMES)
    paginator = Paginator(ranked, PER_PAGE)
    if number > paginator.num_pages:
        if paginator.count:
            notes.append(only_pages(paginator.num_pages))
        number = paginator.num_pages
    page = paginator.page(number)
    rows = list(page.object_list)
    if rows:
        rank = 1 + ranked.filter(shown__gt=rows[0].shown).count()
        for index, row in enumerate(rows):
            if index and row.shown != rows[index - 1].shown:
                rank = page.start_index() + index
            row.rank = rank  # type: ignore[attr-defined]  # the leaderboard's place
    provisional = ratings.filter(games__lt=PROVISIONAL_GAMES)
    context = {
        "page": page,
        "rows": rows,
        "notes": notes,
        "provisional": list(provisional[:PROVISIONAL_SHOWN]),
        "provisional_count": provisional.count(),
        "provisional_games": PROVISIONAL_GAMES,
        "rated_rule": RATED_RULE,
    }
    return render(request, "players/leaderboard.html", context)
