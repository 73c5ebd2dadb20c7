"""A tournament runs itself: the first round when sign-up closes, each next round when the
previous one has ended (round robin: every group game at once, then the final table), the end.

Each step takes the tournament's row lock and checks the state it finds, so a double click, the
beat and a page view, or two workers, cannot deal a round twice: whoever comes second sees the
round there already and does nothing. The unique (tournament, number) constraint on rounds is
the last line of defence. A round's tables are the platform's games (games.lobby.create_table),
dealt in the same transaction, and its players told through the outbox (tournaments.news).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.lobby import create_table
from players.models import Rating
from players.ratings import NEW
from tournaments import news, pairing, results, schedules, standings
from tournaments.models import Entry, Round, Table, TableSeat, Tournament


@dataclass(frozen=True)
class PlannedTable:
    players: tuple[int, ...]  # entry ids; one is a bye
    group: int | None = None


def clock_options(tournament: Tournament) -> dict[str, Any]:
    """The games' clock as create_table takes it: the tournament's time control (the
    create-game form's clock fields)."""
    return {"time_control": tournament.time_control}


# --- the first round ------------------------------------------------------------------------


def start_due(now: datetime | None = None) -> list[int]:
    """Start every tournament whose sign-up has closed (the beat, and a page view)."""
    now = now or timezone.now()
    return [pk for pk in Tournament.objects.signup_closed(now) if start(pk, now=now)]


def start(tournament_id: int, *, now: datetime | None = None) -> bool:
    """Close sign-up: seed the players and deal the first round, or cancel the tournament if
    too few signed up. True if it started."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = results.lock(tournament_id)
        if not tournament.is_signup or tournament.signup_closes > now:
            return False
        entries = list(tournament.entries.select_related("user"))
        if len(entries) < tournament.min_players:
            tournament.status = Tournament.Status.CANCELLED
            tournament.version += 1
            tournament.save(update_fields=["status", "version"])
            news.cancelled(tournament, entries)
            return False
        _seed(entries)
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        if tournament.format == Tournament.Format.KNOCKOUT:
            tournament.rounds = schedules.knockout_rounds(len(entries))
        if tournament.format == Tournament.Format.GROUPS:
            count = _deal_groups(tournament, entries)
            tournament.rounds = 2 if tournament.final_table and count > 1 else 1
        tournament.save(update_fields=["status", "started_at", "rounds"])
        _open_round(tournament, 1)
    return True


def _seed(entries: list[Entry]) -> None:
    """Seeds by rating now (a newcomer's for the unrated), then by who signed up first."""
    shown = dict(
        Rating.objects.filter(user_id__in=[e.user_id for e in entries]).values_list(
            "user_id", "shown"
        )
    )
    for entry in entries:
        entry.rating = shown.get(entry.user_id or 0, NEW.shown)
    entries.sort(key=lambda e: (-e.rating, e.joined, e.pk))
    for number, entry in enumerate(entries, start=1):
        entry.seed = number
    Entry.objects.bulk_update(entries, ["rating", "seed"])


def _deal_groups(tournament: Tournament, entries: list[Entry]) -> int:
    size = tournament.group_size or schedules.MAX_GROUP[tournament.table_size]
    count = schedules.group_count(len(entries), size, tournament.table_size)
    groups = schedules.snake_groups([e.pk for e in entries], count)
    group_of = {pk: number for number, group in enumerate(groups, start=1) for pk in group}
    for entry in entries:
        entry.group = group_of[entry.pk]
    Entry.objects.bulk_update(entries, ["group"])
    return count


# --- the next round -------------------------------------------------------------------------


def advance(tournament_id: int) -> bool:
    """The current round has ended: deal the next one, or end the tournament. True if either
    happened; False if the round is still being played (or it was done already)."""
    with transaction.atomic():
        tournament = results.lock(tournament_id)
        if not tournament.is_running or tournament.is_season:
            return False
        current = tournament.round_set.filter(number=tournament.current_round).first()
        if current is None or not results.round_complete(current):
            return False
        if current.finished_at is None:
            current.finished_at = timezone.now()
            current.save(update_fields=["finished_at"])
        if tournament.current_round >= tournament.rounds or not _open_round(
            tournament, tournament.current_round + 1
        ):
            finish(tournament)
    return True


def stalled(now: datetime | None = None) -> list[int]:
    """Running tournaments whose current round has ended but whose next has not been dealt
    (its task was lost): the beat's sweep advances them."""
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING).exclude(
        format=Tournament.Format.SEASON
    )
    ids = []
    for pk, number in running.values_list("pk", "current_round"):
        unfinished = Table.objects.filter(
            tournament_id=pk, round__number=number, finished_at=None
        ).exists()
        if not unfinished:
            ids.append(pk)
    return ids


def finish(tournament: Tournament) -> None:
    """The last round has ended: final places from the standings, and everyone told."""
    rows = results.refresh(tournament)
    place = {row.player: row.rank for row in rows}
    entries = list(tournament.entries.select_related("user"))
    for entry in entries:
        entry.final_place = place.get(entry.pk)
    Entry.objects.bulk_update(entries, ["final_place"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.version += 1
    tournament.save(update_fields=["status", "finished_at", "version"])
    news.finished(tournament, entries)


# --- dealing a round ------------------------------------------------------------------------


def _open_round(tournament: Tournament, number: int) -> bool:
    """Plan round ``number``, create its tables as games, tell the players. False if there is
    nothing left to play (too few players left, a knock-out won)."""
    stage, planned = plan(tournament, number)
    knockout = tournament.format == Tournament.Format.KNOCKOUT
    if not planned or (not knockout and all(len(table.players) == 1 for table in planned)):
        return False
    round_ = Round.objects.create(tournament=tournament, number=number, stage=stage)
    tables = deal(tournament, round_, planned)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    results.refresh(tournament)
    news.round_started(tournament, round_, tables)
    if all(table.game_id is None for table in tables):  # walkovers only: nothing to wait for
        transaction.on_commit(lambda: results.queue_advance(tournament.pk))
    return True


def deal(tournament: Tournament, round_: Round, planned: list[PlannedTable]) -> list[Table]:
    """The round's tables: a game per table of two or more (seats drawn by the game), a bye
    (finished at once) for a table of one."""
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    now = timezone.now()
    tables = []
    for number, plan_ in enumerate(planned, start=1):
        players = [entries[pk] for pk in plan_.players]
        game = None
        if len(players) > 1:
            game = create_table(
                [entry.user for entry in players],
                options=tournament.options,
                is_public=tournament.is_public,
                name=game_name(tournament, round_.number, number),
                engine_name=tournament.engine_name,
                **clock_options(tournament),
            )
        table = Table.objects.create(
            round=round_,
            tournament=tournament,
            number=number,
            group=plan_.group,
            game=game,
            finished_at=None if game is not None else now,
        )
        TableSeat.objects.bulk_create([TableSeat(table=table, entry=entry) for entry in players])
        tables.append(table)
    return tables


def game_name(tournament: Tournament, round_number: int, table_number: int) -> str:
    """ "Spring Cup · 2.3": round 2, table 3 (the game page says it in words)."""
    suffix = f" · {round_number}.{table_number}"
    from games.models import GAME_NAME_MAX_LENGTH

    return tournament.name[: GAME_NAME_MAX_LENGTH - len(suffix)] + suffix


def plan(tournament: Tournament, number: int) -> tuple[str, list[PlannedTable]]:
    """Who sits with whom in round ``number``, by format."""
    players, tables = results.inputs(tournament)
    active = [p for p in players if not p.withdrawn]
    if tournament.format == Tournament.Format.GROUPS:
        return _plan_groups(tournament, number, players, tables)
    if tournament.format == Tournament.Format.KNOCKOUT:
        return Round.Stage.KNOCKOUT, _plan_knockout(number, players, tables)
    rows = standings.swiss(players, tables, tournament.table_size)
    return Round.Stage.SWISS, swiss_tables(active, rows, tables, tournament)


def swiss_tables(
    active: list[standings.Player],
    rows: list[standings.Row],
    tables: list[standings.Table],
    tournament: Tournament,
) -> list[PlannedTable]:
    by_id = {row.player: row for row in rows}
    met: dict[int, set[int]] = {}
    for table in tables:
        for player in table.players:
            met.setdefault(player, set()).update(p for p in table.players if p != player)
    entrants = [
        pairing.Entrant(
            id=p.id,
            score=by_id[p.id].points if p.id in by_id else Fraction(0),
            seed=p.seed,
            byes=by_id[p.id].byes if p.id in by_id else 0,
        )
        for p in active
    ]
    if len(entrants) < tournament.smallest_table:
        return []
    found = pairing.pair_round(
        entrants, met, tournament.table_size, smallest=tournament.smallest_table
    )
    planned = [PlannedTable(players) for players in found.tables]
    return planned + [PlannedTable((bye,)) for bye in found.byes]


def _plan_groups(
    tournament: Tournament,
    number: int,
    players: list[standings.Player],
    tables: list[standings.Table],
) -> tuple[str, list[PlannedTable]]:
    if number == 1:
        by_group: dict[int, list[standings.Player]] = {}
        for player in sorted(players, key=lambda p: p.seed):
            by_group.setdefault(player.group or 1, []).append(player)
        planned = []
        for group, members in sorted(by_group.items()):
            ids = [p.id for p in members]
            for combo in schedules.group_tables(ids, tournament.table_size):
                planned.append(PlannedTable(combo, group))
        return Round.Stage.GROUPS, planned
    rows = standings.group_stage(players, tables, tournament.table_size)
    winners = standings.group_winners(rows)
    return Round.Stage.FINAL, [PlannedTable(tuple(winners))] if len(winners) > 1 else []


def _plan_knockout(
    number: int, players: list[standings.Player], tables: list[standings.Table]
) -> list[PlannedTable]:
    seeds = {p.id: p.seed for p in players}
    if number == 1:
        seeded = [p.id for p in sorted(players, key=lambda p: p.seed)]
        pairs = schedules.first_round(seeded)
    else:
        previous = [t for t in tables if t.round == number - 1]
        withdrawn = {
            p.id for p in players if p.withdrawn_round is not None and p.withdrawn_round < number
        }
        winners = [schedules.match_winner(t.players, t.places, seeds, withdrawn) for t in previous]
        if len(winners) < 2:
            return []
        pairs = schedules.next_round(winners)
    gone = {p.id for p in players if p.withdrawn}
    planned = []
    for pair in pairs:
        playing = tuple(p for p in pair if p not in gone) or pair[:1]
        planned.append(PlannedTable(playing if len(playing) > 1 else playing[:1]))
    return planned
