"""The lists of games the site shows: the lobby's open games and a player's own. The pages and
the API read them here, so both list the same games with the same queries (and the same
cost: tests/web/test_speed_at_scale.py)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Game, Invitation, Seat

LOBBY_PAGE_SIZE = 25
WATCH_GAMES = 10


def lobby_games() -> QuerySet[Game]:
    """Open public games, newest first: filtered and ordered by one index (game_lobby)."""
    return Game.objects.filter(status=Game.Status.OPEN, is_public=True).order_by("-created")


def lobby_listing():  # untyped: its rows carry seats_taken, which Game does not declare
    """The open games with only what a list shows: the creator, and how many seats are taken
    (counted in SQL for the shown page's rows only). The lobby page and the API share it."""
    taken = (
        Seat.objects.filter(game=OuterRef("pk"))
        .order_by()
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return (
        lobby_games()
        .defer("state")
        .select_related("creator")
        .annotate(seats_taken=Coalesce(Subquery(taken), 0))
    )


def _seats() -> QuerySet[Seat]:
    return Seat.objects.select_related("user").order_by("number", "joined", "pk")


def my_games(user: Any) -> QuerySet[Game]:
    """Every game ``user`` sits in that is forming or being played, most recently changed
    first, with its seats (and their players) fetched alongside; no game's state is loaded.
    Led by the games not yet over (few) rather than the player's seats (one per game ever)."""
    return (
        Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=_seats()))
        .order_by("-updated")
    )


def waiting_seats(user: Any) -> QuerySet[Seat]:
    """The player's seats whose game waits for their move (and not a bot's on their behalf):
    the header's count and the app badge count these."""
    return Seat.objects.filter(
        user=user,
        resigned_at=None,
        autopilot=False,
        bot="",
        game__status=Game.Status.ACTIVE,
        game__acting_seat=F("number"),
    )


def open_invitations(user: Any) -> QuerySet[Invitation]:
    """The invitations ``user`` has to games still forming."""
    return user.invitations.filter(game__status=Game.Status.OPEN).select_related(
        "game", "invited_by"
    )


def games_to_watch(user: Any) -> list[Game]:
    """A few public games being played that ``user`` does not sit in, most recent first."""
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .exclude(seats__user=user)
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=_seats()))
        .order_by("-updated")[:WATCH_GAMES]
    )
