"""Standings: pure functions of the players and their tables' results, one per format.

Points come from places alone (tournaments.points). Tie-breaks, in the order they apply, as the
tournament page states them:

- Swiss: Buchholz (per round, the average points of the table-mates; a bye counts as meeting
  a player of one's own score, as FIDE's rules for unplayed rounds), then Sonneborn-Berger (per
  round, each table-mate's points times the result against them, averaged over the table),
  then the number of tables won.
- Round robin in groups: head-to-head (the points scored against the players level on points
  only), then the game's own score summed over the group's games. The group winners' final
  table, when there is one, decides the top places.
- Knock-out: how far a player got (matches won); in a drawn game the higher seed goes through.
- Seasons: points, then tables won, then the game's score summed.

Players level on every tie-break share the place. Only finished tables count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.points import UNIT, against, bye_units, table_units
from tournaments.schedules import match_winner


@dataclass(frozen=True)
class Player:
    id: int
    seed: int
    withdrawn_round: int | None = None  # the round during which they were withdrawn
    group: int | None = None

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_round is not None


@dataclass(frozen=True)
class Table:
    """One table of one round: its players and, once its game has ended, their places and the
    game's scores (same order). A table of one player is a bye."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None
    group: int | None = None
    final: bool = False

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    @property
    def finished(self) -> bool:
        return self.is_bye or self.places is not None


@dataclass
class Row:
    player: int
    seed: int
    points: Fraction = Fraction(0)
    played: int = 0
    wins: int = 0
    byes: int = 0
    score: int = 0
    withdrawn: bool = False
    group: int | None = None
    group_rank: int | None = None
    finalist: bool = False
    tiebreaks: tuple[Fraction, ...] = ()
    units: int = 0  # points in twelfths, while they are added up
    order: tuple[int, ...] = ()  # the sort key in integers, when a format has one
    rank: int = 0
    tied: bool = False
    opponents: list[int] = field(default_factory=list)

    def key(self) -> tuple[Fraction, ...]:
        return (self.points, *self.tiebreaks)


# Tie-break columns per format, as the page heads them (translated there).
TIEBREAKS = {
    "swiss": ("buchholz", "sonneborn_berger", "wins"),
    "groups": ("head_to_head", "score"),
    "knockout": (),
    "season": ("wins", "score"),
}


def _rows(players: Iterable[Player]) -> dict[int, Row]:
    return {
        p.id: Row(player=p.id, seed=p.seed, withdrawn=p.withdrawn, group=p.group) for p in players
    }


def _tally(rows: dict[int, Row], tables: Iterable[Table], size: int) -> list[Table]:
    """Points, games, wins, byes and scores of the finished tables; returns those tables."""
    done = []
    for table in tables:
        if not table.finished:
            continue
        done.append(table)
        if table.is_bye:
            row = rows.get(table.players[0])
            if row is not None:
                row.units += bye_units(size)
                row.byes += 1
            continue
        assert table.places is not None
        earned = table_units(table.places, size)
        for index, player in enumerate(table.players):
            row = rows.get(player)
            if row is None:
                continue
            row.units += earned[index]
            row.played += 1
            row.wins += table.places[index] == 1
            row.score += table.scores[index] if table.scores else 0
            row.opponents.extend(p for p in table.players if p != player)
    for row in rows.values():
        row.points = Fraction(row.units, UNIT)
    return done


def _place(rows: list[Row], start: int = 1) -> list[Row]:
    """Sort by key (best first; seed last) and give ranks: level keys share one. The integer
    key (Row.order) is used when the format made one."""

    def key(row: Row) -> tuple:
        return row.order or row.key()

    rows.sort(key=lambda r: (tuple(-value for value in key(r)), r.seed))
    for index, row in enumerate(rows):
        if index and key(row) == key(rows[index - 1]):
            row.rank = rows[index - 1].rank
            rows[index - 1].tied = row.tied = True
        else:
            row.rank = start + index
    return rows


def swiss(players: Sequence[Player], tables: Sequence[Table], size: int) -> list[Row]:
    """Buchholz and Sonneborn-Berger per table are averaged over the table-mates (1 to 3 of
    them), so they are added up in integers scaled by 6 (Buchholz) and 12 (Sonneborn-Berger,
    whose results are halves) on top of the points' twelfths."""
    rows = _rows(players)
    done = _tally(rows, tables, size)
    units = {player: row.units for player, row in rows.items()}
    buchholz: dict[int, int] = defaultdict(int)
    berger: dict[int, int] = defaultdict(int)
    for table in done:
        if table.is_bye:
            player = table.players[0]
            buchholz[player] += units.get(player, 0) * 6
            continue
        places = table.places
        assert places is not None
        seats = table.players
        share = 6 // (len(seats) - 1)
        points = [units.get(player, 0) for player in seats]
        total = sum(points)
        for index, player in enumerate(seats):
            mine = places[index]
            buchholz[player] += (total - points[index]) * share
            results = 0  # each table-mate's points times the result against them, in halves
            for other, theirs in enumerate(places):
                if other != index:
                    results += points[other] * (2 if mine < theirs else mine == theirs)
            berger[player] += results * share
    for player, row in rows.items():
        row.tiebreaks = (
            Fraction(buchholz[player], UNIT * 6),
            Fraction(berger[player], UNIT * 12),
            Fraction(row.wins),
        )
        row.order = (row.units, buchholz[player], berger[player], row.wins)
    return _place(list(rows.values()))


def _head_to_head(level: list[Row], tables: Sequence[Table]) -> dict[int, Fraction]:
    """Points each of ``level`` scored against the others of ``level`` only."""
    ids = {row.player for row in level}
    scored: dict[int, Fraction] = defaultdict(Fraction)
    for table in tables:
        if table.is_bye or table.places is None:
            continue
        at = [i for i, p in enumerate(table.players) if p in ids]
        for i in at:
            for j in at:
                if i != j:
                    scored[table.players[i]] += against(table.places[i], table.places[j])
    return scored


def group_stage(players: Sequence[Player], tables: Sequence[Table], size: int) -> list[Row]:
    """Each group's table, ranked within the group (Row.group_rank), groups in order."""
    stage = [t for t in tables if not t.final]
    rows = _rows(players)
    done = _tally(rows, stage, size)
    ranked: list[Row] = []
    for group in sorted({r.group for r in rows.values()}, key=lambda g: (g is None, g or 0)):
        members = [r for r in rows.values() if r.group == group]
        games = [t for t in done if t.group == group]
        by_points: dict[Fraction, list[Row]] = defaultdict(list)
        for row in members:
            by_points[row.points].append(row)
        for level in by_points.values():
            scored = _head_to_head(level, games) if len(level) > 1 else {}
            for row in level:
                row.tiebreaks = (scored.get(row.player, Fraction(0)), Fraction(row.score))
        for row in _place(members):
            row.group_rank = row.rank
        ranked.extend(members)
    return ranked


def group_winners(rows: Sequence[Row]) -> list[int]:
    """One per group: first in the group (level on everything: the better seed)."""
    best: dict[int | None, Row] = {}
    for row in rows:
        current = best.get(row.group)
        if current is None or (row.group_rank or 0, row.seed) < (
            current.group_rank or 0,
            current.seed,
        ):
            best[row.group] = row
    return [best[g].player for g in sorted(best, key=lambda g: (g is None, g or 0))]


def groups(players: Sequence[Player], tables: Sequence[Table], size: int) -> list[Row]:
    """The whole field: the final table's players by their place there, then everyone else
    by their place in their group, points and score."""
    rows = group_stage(players, tables, size)
    final = next((t for t in tables if t.final), None)
    finalists: list[Row] = []
    if final is not None:
        by_id = {row.player: row for row in rows}
        finalists = [by_id[p] for p in final.players if p in by_id]
        places = dict(zip(final.players, final.places or [1] * len(final.players), strict=True))
        for row in finalists:
            row.finalist = True
        finalists.sort(key=lambda r: (places[r.player], r.seed))
        for index, row in enumerate(finalists):
            earlier = finalists[index - 1] if index else None
            if earlier is not None and places[earlier.player] == places[row.player]:
                row.rank = earlier.rank
                row.tied = earlier.tied = True
            else:
                row.rank = index + 1
    others = [row for row in rows if not row.finalist]
    saved = {row.player: row.tiebreaks for row in others}
    for row in others:
        row.tiebreaks = (-Fraction(row.group_rank or 0), Fraction(row.score))
    _place(others, start=len(finalists) + 1)
    for row in others:  # the page shows each row's tie-breaks within its group
        row.tiebreaks = saved[row.player]
    return finalists + others


def knockout(players: Sequence[Player], tables: Sequence[Table]) -> list[Row]:
    """Ranked by matches won; still in before knocked out at the same stage."""
    rows = _rows(players)
    seeds = {p.id: p.seed for p in players}
    out: set[int] = set()
    for table in tables:
        if not table.finished:
            continue
        withdrawn = {
            p.id
            for p in players
            if p.withdrawn_round is not None and p.withdrawn_round <= table.round
        }
        winner = match_winner(table.players, table.places, seeds, withdrawn)
        for index, player in enumerate(table.players):
            row = rows.get(player)
            if row is None:
                continue
            if table.is_bye:
                row.byes += 1
            else:
                row.played += 1
                row.score += table.scores[index] if table.scores else 0
                row.opponents.extend(p for p in table.players if p != player)
            if player == winner:
                row.wins += 1
                row.points += 1
            else:
                out.add(player)
    for row in rows.values():
        row.tiebreaks = (Fraction(row.player not in out),)
    return _place(list(rows.values()))


def season(players: Sequence[Player], tables: Sequence[Table], size: int) -> list[Row]:
    rows = _rows(players)
    _tally(rows, tables, size)
    for row in rows.values():
        row.tiebreaks = (Fraction(row.wins), Fraction(row.score))
        row.order = (row.units, row.wins, row.score)
    return _place(list(rows.values()))


def standings(fmt: str, players: Sequence[Player], tables: Sequence[Table], size: int) -> list[Row]:
    """The standings of a tournament of format ``fmt`` (Tournament.Format's values)."""
    if fmt == "swiss":
        return swiss(players, tables, size)
    if fmt == "groups":
        return groups(players, tables, size)
    if fmt == "knockout":
        return knockout(players, tables)
    return season(players, tables, size)
