"""Profiles, the leaderboards (people, and the bot pool) and the history of finished games."""

from __future__ import annotations

from typing import Any, Literal

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Query, Router

from api.schemas import Error, History, HistoryQuery, Leaderboard, PlayerName, Profile
from players import history as finished
from players import profiles
from players.models import BotPoolRating, Rating
from players.ratings import PROVISIONAL_GAMES

router = Router(tags=["players"])
PER_PAGE = 50


def _rating(row: Rating | BotPoolRating | None, model: Any) -> dict[str, Any] | None:
    if row is None:
        return None
    provisional = row.games < PROVISIONAL_GAMES
    rank = None
    if not provisional:
        ahead = model.objects.filter(games__gte=PROVISIONAL_GAMES, shown__gt=row.shown).count()
        rank = ahead + 1
    return {"rating": row.shown, "games": row.games, "rank": rank, "provisional": provisional}


def _visitor(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


@router.get("/players/{name}", response={200: Profile, 401: Error, 404: Error})
def profile(request: HttpRequest, name: PlayerName) -> dict[str, Any]:
    """A player's public profile (display name, any case)."""
    player = finished.find_player(name)
    if player is None:
        raise Http404(_("No such player."))
    player = type(player).objects.get(pk=player.pk)
    career = profiles.career(player)
    viewer = _visitor(request)
    return {
        "name": player.public_name,
        "bot_account": player.bot_account,
        "finished": career.finished,
        "won": career.won,
        "win_rate": career.win_rate,
        "average_score": career.average_score,
        "best_score": career.best_score,
        "abandoned": career.abandoned,
        "rating": _rating(Rating.objects.filter(user=player).first(), Rating),
        "bot_pool_rating": _rating(
            BotPoolRating.objects.filter(user=player).first(), BotPoolRating
        ),
        "games_in_progress": [game.pk for game in profiles.games_in_progress(player)],
        "latest_finished": [int(row.pk) for row in profiles.latest_finished(player, viewer)],
    }


@router.get("/leaderboard", response={200: Leaderboard, 401: Error})
def leaderboard(
    request: HttpRequest,
    pool: Literal["people", "bots"] = "people",
    page: int = Query(1, ge=1, le=10**6),
) -> dict[str, Any]:
    """Players with at least 5 rated games, best first; ties share a rank. ``pool=bots``: the
    ratings of games with bot accounts."""
    model: Any = Rating if pool == "people" else BotPoolRating
    ranked = (
        model.objects.select_related("user")
        .filter(games__gte=PROVISIONAL_GAMES)
        .order_by("-shown", "-games", "user_id")
    )
    shown = Paginator(ranked, PER_PAGE).get_page(page)
    rows: list[dict[str, Any]] = []
    for index, row in enumerate(shown.object_list):
        if index == 0 or row.shown != rows[-1]["rating"]:
            rank = (
                1 + ranked.filter(shown__gt=row.shown).count()
                if index == 0
                else (shown.start_index() + index)
            )
        rows.append(
            {
                "rank": rank,
                "name": row.user.public_name,
                "bot_account": row.user.bot_account,
                "rating": row.shown,
                "games": row.games,
            }
        )
    return {"pool": pool, "page": shown.number, "pages": shown.paginator.num_pages, "rows": rows}


@router.get("/history", response={200: History, 401: Error})
def history(request: HttpRequest, filters: Query[HistoryQuery]) -> dict[str, Any]:
    """Finished games, newest first, 50 a page: the history page's filters (a filter that
    cannot be used is dropped, with a note)."""
    viewer = _visitor(request)
    params = {
        key: ("on" if value is True else str(value))
        for key, value in filters.dict().items()
        if value not in (None, "", False) and key != "page"
    }
    _form, applied, notes = finished.read_filters(params, viewer)
    page = finished.list_page(finished.finished_games(applied, viewer), filters.page, notes)
    records = finished.records_in_order(page.rows)
    return {
        "page": page.number,
        "total": page.total,
        "more": page.capped,
        "notes": [str(note) for note in notes],
        "games": [
            {
                "id": record.pk,
                "finished_at": record.finished_at,
                "started_at": record.started_at,
                "num_players": record.num_players,
                "turns": record.turns,
                "rated": record.rated,
                "bot_pool": record.bot_pool,
                "imported": record.imported,
                "results": [
                    {
                        "seat": result.seat,
                        "name": result.name,
                        "player": result.user.display_name if result.user else None,
                        "place": result.place,
                        "score": result.score,
                        "won": result.won,
                        "resigned": result.resigned,
                        "rating_change": result.rating_change,
                    }
                    for result in record.results.all()
                ],
            }
            for record in records
        ],
    }
