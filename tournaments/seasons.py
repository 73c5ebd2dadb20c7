"""The standing ladder: players sign up once per table size and are paired every week, with
players near their rating, into new games; each calendar month is a season with its own table
of points (the tournaments' ranking points), and a season's first three are on their profiles.

A season is a tournament of the format "season" (one per month and table size, made when its
first week is dealt); its weekly rounds are dealt by the beat. Pairing reuses the Swiss pairing
with the rating as the score, so every table is a run of neighbours in the rating list and,
where the field allows, nobody meets the same player twice in a season. A member with two
season games still running sits the week out, and when the count does not fit the tables, the
members who have played most this season sit out first.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import RequestRefused
from games.models import Seat
from games.rules import registry
from games.timecontrol import TimeControl
from players.models import Rating
from players.ratings import NEW
from tournaments import news, pairing, results, rounds
from tournaments.models import Entry, LadderMember, Round, Tournament
from tournaments.signup import option_facets

WEEK = timedelta(days=7)
OPEN_GAMES_LIMIT = 2
MAX_PLAYERS = 1024


def sizes() -> list[int]:
    engine = registry.default()
    return [n for n in (2, 3, 4) if engine.min_players <= n <= engine.max_players]


def _check_size(size: int) -> None:
    if size not in sizes():
        raise RequestRefused(_("There is no ladder for tables of that size."))


def join(user: Any, size: int) -> LadderMember:
    _check_size(size)
    member, _created = LadderMember.objects.update_or_create(
        user=user, table_size=size, defaults={"active": True}
    )
    return member


def leave(user: Any, size: int) -> None:
    _check_size(size)
    LadderMember.objects.filter(user=user, table_size=size).update(active=False)


def month_start(day: date) -> date:
    return day.replace(day=1)


def season_for(size: int, day: date) -> Tournament:
    """The season of this month and table size (made the first time it is asked for)."""
    month = month_start(day)
    engine = registry.default()
    options = engine.normalise_options(size, None)
    now = timezone.now()
    found = Tournament.objects.filter(
        format=Tournament.Format.SEASON, table_size=size, season_month=month
    ).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():  # two beats at once: the unique constraint picks one
            return Tournament.objects.create(
                format=Tournament.Format.SEASON,
                table_size=size,
                season_month=month,
                name=f"Season {month:%Y-%m}, {size} players",
                engine_name=engine.name,
                options=options,
                clock=TimeControl().to_dict(),
                facets=option_facets(engine, size, options),
                signup_closes=now,
                max_players=MAX_PLAYERS,
                status=Tournament.Status.RUNNING,
                started_at=now,
            )
    except IntegrityError:
        return Tournament.objects.get(
            format=Tournament.Format.SEASON, table_size=size, season_month=month
        )


def weekly(now: datetime | None = None) -> list[int]:
    """Deal this week's games of every ladder whose last week began seven days ago or more."""
    now = now or timezone.now()
    return [size for size in sizes() if deal_week(size, now)]


def _busy(size: int, users: list[int]) -> set[int]:
    """Members with OPEN_GAMES_LIMIT season games of this size still being played."""
    rows = (
        Seat.objects.filter(
            user_id__in=users,
            game__status="active",
            game__tournament_table__tournament__format=Tournament.Format.SEASON,
            game__tournament_table__tournament__table_size=size,
        )
        .values("user_id")
        .annotate(games=Count("pk"))
    )
    return {row["user_id"] for row in rows if row["games"] >= OPEN_GAMES_LIMIT}


def deal_week(size: int, now: datetime) -> bool:
    with transaction.atomic():
        season = results.lock(season_for(size, timezone.localdate(now)).pk)
        last = season.round_set.order_by("-number").first()
        if last is not None and last.started_at > now - WEEK:
            return False
        members = list(
            LadderMember.objects.filter(table_size=size, active=True, user__is_active=True)
            .order_by("joined")
            .values_list("user_id", flat=True)
        )
        busy = _busy(size, members)
        free = [uid for uid in members if uid not in busy]
        if len(free) < season.smallest_table:
            return False
        entries = _entries(season, free)
        planned = _pairs(season, entries)
        if not any(len(table.players) > 1 for table in planned):
            return False
        number = (last.number if last else 0) + 1
        round_ = Round.objects.create(
            tournament=season, number=number, stage=Round.Stage.WEEK, started_at=now
        )
        tables = rounds.deal(season, round_, planned)
        season.current_round = number
        season.save(update_fields=["current_round"])
        results.refresh(season)
        news.round_started(season, round_, tables)
    return True


def _entries(season: Tournament, users: list[int]) -> list[Entry]:
    """The season's entries of these members (made on their first week), ratings as of now."""
    shown = dict(Rating.objects.filter(user_id__in=users).values_list("user_id", "shown"))
    existing = {e.user_id: e for e in season.entries.filter(user_id__in=users)}
    new = [
        Entry(tournament=season, user_id=uid, rating=shown.get(uid, NEW.shown))
        for uid in users
        if uid not in existing
    ]
    Entry.objects.bulk_create(new)
    entries = list(season.entries.filter(user_id__in=users))
    for entry in entries:
        entry.rating = shown.get(entry.user_id or 0, NEW.shown)
    entries.sort(key=lambda e: (-e.rating, e.joined, e.pk))
    for number, entry in enumerate(entries, start=1):
        entry.seed = number
    Entry.objects.bulk_update(entries, ["rating", "seed"])
    return entries


def _pairs(season: Tournament, entries: list[Entry]) -> list[rounds.PlannedTable]:
    """Neighbours in rating at a table (the rating is the pairing's score), no repeat of this
    season's meetings where avoidable; the members who played most sit out."""
    _players, tables = results.inputs(season)
    met: dict[int, set[int]] = {}
    played: dict[int, int] = {}
    for table in tables:
        for player in table.players:
            met.setdefault(player, set()).update(p for p in table.players if p != player)
            played[player] = played.get(player, 0) + 1
    entrants = [
        pairing.Entrant(
            id=e.pk, score=Fraction(e.rating), seed=e.seed or 0, byes=-played.get(e.pk, 0)
        )
        for e in entries
    ]
    found = pairing.pair_round(entrants, met, season.table_size, smallest=season.smallest_table)
    return [rounds.PlannedTable(players) for players in found.tables]


def close_finished(now: datetime | None = None) -> list[int]:
    """Seasons of past months whose games have all ended: final places, and everyone told."""
    now = now or timezone.now()
    current = month_start(timezone.localdate(now))
    due = Tournament.objects.filter(
        format=Tournament.Format.SEASON,
        status=Tournament.Status.RUNNING,
        season_month__lt=current,
    ).values_list("pk", flat=True)
    closed = []
    for pk in list(due):
        with transaction.atomic():
            season = results.lock(pk)
            if not season.is_running or season.tables.filter(finished_at=None).exists():
                continue
            rounds.finish(season)
            closed.append(pk)
    return closed
