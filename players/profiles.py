"""What a public profile shows, each part one or two indexed queries whatever the number of
games: career counters, rating and rank, the rating chart, games in progress, the latest
finished games and a head-to-head record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import (
    Avg,
    Count,
    Exists,
    F,
    FilteredRelation,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    Sum,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from games.models import Game, Seat
from games.rules import registry
from players.history import records_in_order, visible_to
from players.listing import ListedGame, listed_games
from players.models import Rating, SeatResult
from players.ratings import PROVISIONAL_GAMES

LATEST = 10
TALLY_SECONDS = 24 * 3600
IN_PROGRESS = 20
CHART_GAMES = 100


@dataclass
class Career:
    finished: int
    won: int
    average_score: float | None
    best_score: int | None
    abandoned: int
    facts: list[tuple[str, str]]  # the game's own lines (Engine.career_facts): label, HTML
    first_game: Any

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.won / self.finished) if self.finished else None


def career(user: Any) -> Career:
    """The player's counters (off the results' covering index on PostgreSQL), and the game's
    own lines from its per-seat tallies summed over the player's games (seat_tallies)."""
    totals = SeatResult.objects.filter(user=user).aggregate(
        finished=Count("pk"),
        won=Count("pk", filter=Q(won=True)),
        average_score=Avg("score"),
        best_score=Max("score"),
        abandoned=Count("pk", filter=Q(abandoned=True)),
    )
    engine = registry.default()
    facts = engine.career_facts(summed_tallies(user, engine.seat_tallies))
    return Career(**totals, facts=facts, first_game=first_game(user))


def summed_tallies(user: Any, keys: Any) -> dict[str, int]:
    """The tallies summed over the player's results, kept in the shared cache until their next
    finished game: summing JSON keys reads every result row (thousands for a keen player),
    while the newest result is one step down an index."""
    keys = list(keys)
    if not keys:
        return {}
    latest = (
        SeatResult.objects.filter(user=user)
        .order_by("-finished_at", "-record_id")
        .values_list("record_id", flat=True)
        .first()
    )
    if latest is None:
        return dict.fromkeys(keys, 0)
    cache_key = f"profile-tallies:{user.pk}:{latest}:{','.join(keys)}"
    summed = cache.get(cache_key)
    if summed is None:
        sums = SeatResult.objects.filter(user=user).aggregate(
            **{name: Sum(Cast(KT(f"details__{name}"), IntegerField())) for name in keys}
        )
        summed = {name: sums[name] or 0 for name in keys}
        cache.set(cache_key, summed, TALLY_SECONDS)
    return summed


def first_game(user: Any) -> Any:
    """When the player's first game began: the first finished one (first off the results'
    index), or, before any has finished, the earliest game they sit in that has started."""
    first = (
        SeatResult.objects.filter(user=user)
        .order_by("finished_at", "record_id")
        .values_list("record__started_at", flat=True)[:1]
    )
    if first:
        return first[0]
    started = Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE)
    return started.aggregate(first=Min("joined"))["first"]


@dataclass
class Standing:
    rating: Rating | None
    rank: int | None

    @property
    def provisional(self) -> bool:
        return self.rating is None or self.rating.games < PROVISIONAL_GAMES


def standing(user: Any) -> Standing:
    rating = Rating.objects.filter(user=user).first()
    if rating is None or rating.games < PROVISIONAL_GAMES:
        return Standing(rating, None)
    ahead = Rating.objects.filter(games__gte=PROVISIONAL_GAMES, shown__gt=rating.shown).count()
    return Standing(rating, ahead + 1)


def rating_points(user: Any) -> list[tuple[Any, int]]:
    """(date, rating) after each of the player's last CHART_GAMES rated games, oldest first."""
    rows = (
        SeatResult.objects.filter(user=user, rating_shown__isnull=False)
        .order_by("-finished_at")
        .values_list("finished_at", "rating_shown")[:CHART_GAMES]
    )
    return [(when, shown) for when, shown in reversed(list(rows)) if shown is not None]


def games_in_progress(user: Any) -> list[Game]:
    """Public games the player sits in that are being played (nothing from their state)."""
    seats = Seat.objects.select_related("user").order_by("number")
    # Led by the games being played (few) rather than the player's seats (one per game ever).
    sits = Seat.objects.filter(game=OuterRef("pk"), user=user)
    return list(
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True)
        .filter(Exists(sits))
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-updated")[:IN_PROGRESS]
    )


def latest_finished(user: Any, viewer: Any) -> list[ListedGame]:
    """The player's last finished games that the viewer may see, as list rows."""
    results = SeatResult.objects.filter(user=user)
    if not (viewer is not None and viewer.is_authenticated and viewer.pk == user.pk):
        results = results.filter(visible_to(viewer, "record_id"))
    ids = list(
        results.order_by("-finished_at", "-record_id").values_list("record_id", flat=True)[:LATEST]
    )
    return listed_games(records_in_order(ids), highlight=user)


@dataclass
class HeadToHead:
    games: int
    ahead: int  # the viewer finished above the other player
    behind: int
    level: int


def head_to_head(viewer: Any, other: Any) -> HeadToHead:
    """The viewer's record against another player in the games both finished."""
    totals = (
        SeatResult.objects.filter(user=viewer)
        .annotate(
            them=FilteredRelation("record__results", condition=Q(record__results__user=other))
        )
        .filter(them__isnull=False)
        .aggregate(
            games=Count("pk"),
            ahead=Count("pk", filter=Q(place__lt=F("them__place"))),
            behind=Count("pk", filter=Q(place__gt=F("them__place"))),
            level=Count("pk", filter=Q(place=F("them__place"))),
        )
    )
    return HeadToHead(**totals)
