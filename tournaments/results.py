"""A tournament's results as the pure modules read them, and what happens when a table's game
ends: its places copied from the game's record, the standings computed again and stored, the
next round queued when this was the round's last table.

Everything here runs under the tournament's row lock (``lock``): two games of one round ending
at the same moment on two workers are taken one after the other, so the second sees the first's
result, the standings miss neither, and exactly one of them finds the round complete.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from players.models import SeatResult
from tournaments import standings
from tournaments.models import Round, Table, TableSeat, Tournament

ADVANCE_TASK = "tournaments.tasks.advance"


def lock(tournament_id: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def inputs(tournament: Tournament) -> tuple[list[standings.Player], list[standings.Table]]:
    """The players and every table (finished or not) in the pure modules' terms: three queries
    of plain integers and short strings (a 512-player Swiss after nine rounds: 4,608 seats). A
    table is finished once its places are in (a bye, at once)."""
    players = [
        standings.Player(id=pk, seed=seed or 10**6 + pk, withdrawn_round=withdrawn, group=group)
        for pk, seed, withdrawn, group in tournament.entries.values_list(
            "pk", "seed", "withdrawn_round", "group"
        )
    ]
    about = {
        pk: (number, group, stage == Round.Stage.FINAL)
        for pk, number, group, stage in Table.objects.filter(tournament=tournament)
        .order_by()
        .values_list("pk", "round__number", "group", "round__stage")
    }
    seats: dict[int, list[tuple[int, int | None, int | None]]] = defaultdict(list)
    for table_id, entry_id, place, score in (
        TableSeat.objects.filter(table__tournament_id=tournament.pk)
        .order_by("table_id", "pk")
        .values_list("table_id", "entry_id", "place", "score")
    ):
        seats[table_id].append((entry_id, place, score))
    tables = []
    for table_id, rows_of_table in seats.items():
        number, group, final = about[table_id]
        finished = all(place is not None for _entry, place, _score in rows_of_table)
        tables.append(
            standings.Table(
                round=number,
                players=tuple(entry for entry, _place, _score in rows_of_table),
                places=tuple(place or 0 for _e, place, _s in rows_of_table) if finished else None,
                scores=tuple(score or 0 for _e, _p, score in rows_of_table) if finished else None,
                group=group,
                final=final,
            )
        )
    return players, tables


def compute(tournament: Tournament) -> list[standings.Row]:
    players, tables = inputs(tournament)
    return standings.standings(tournament.format, players, tables, tournament.table_size)


def row_data(row: standings.Row) -> dict[str, Any]:
    """A row as the pages read it back from Tournament.standings (JSON)."""
    return {
        "entry": row.player,
        "rank": row.rank,
        "tied": row.tied,
        "points": round(float(row.points), 4),
        "played": row.played,
        "wins": row.wins,
        "byes": row.byes,
        "score": row.score,
        "tiebreaks": [round(float(value), 4) for value in row.tiebreaks],
        "withdrawn": row.withdrawn,
        "group": row.group,
        "group_rank": row.group_rank,
        "finalist": row.finalist,
    }


def refresh(tournament: Tournament) -> list[standings.Row]:
    """Compute and store the standings (the caller holds the lock); raises the version the
    page's poll compares."""
    rows = compute(tournament)
    tournament.standings = [row_data(row) for row in rows]
    tournament.version += 1
    Tournament.objects.filter(pk=tournament.pk).update(
        standings=tournament.standings, version=F("version") + 1
    )
    return rows


def record_table(table_id: int, game: Any) -> None:
    """The table's game has ended (inside the transaction that ended it, after its record was
    written): copy the places, refresh the standings, queue the next round if due."""
    tournament_id = Table.objects.filter(pk=table_id).values_list("tournament_id", flat=True)[0]
    tournament = lock(tournament_id)
    table = Table.objects.select_related("round").get(pk=table_id)
    if table.finished_at is not None:
        return  # recorded already (a replayed end)
    results = {
        user_id: (place, score)
        for user_id, place, score in SeatResult.objects.filter(record_id=game.pk).values_list(
            "user_id", "place", "score"
        )
    }
    seats = list(table.seats.select_related("entry"))
    for seat in seats:
        seat.place, seat.score = results.get(seat.entry.user_id or 0, (len(seats), 0))
    TableSeat.objects.bulk_update(seats, ["place", "score"])
    Table.objects.filter(pk=table.pk, finished_at=None).update(finished_at=timezone.now())
    refresh(tournament)
    if tournament.is_running and not tournament.is_season and round_complete(table.round):
        transaction.on_commit(lambda: queue_advance(tournament_id))


def round_complete(round_: Round) -> bool:
    return not round_.tables.filter(finished_at=None).exists()


def queue_advance(tournament_id: int) -> None:
    """Hand the next round to a worker; the beat's sweep catches it if the broker is down."""
    import logging

    from celery import current_app

    try:
        current_app.tasks[ADVANCE_TASK].delay(tournament_id)
    except Exception:
        logging.getLogger(__name__).warning(
            "tournament %s: next round not queued; the sweep will start it", tournament_id
        )
