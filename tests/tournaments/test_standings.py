"""Standings as pure functions of the results: points by place, the tie-breaks of each format
worked out by hand, shared places, byes and withdrawals."""

from __future__ import annotations

from fractions import Fraction

from tournaments.standings import (
    Player,
    Table,
    group_stage,
    group_winners,
    groups,
    knockout,
    season,
    swiss,
)

A, B, C, D = 1, 2, 3, 4
HALF = Fraction(1, 2)


def players(*ids: int, withdrawn: dict[int, int] | None = None, group=None) -> list[Player]:
    withdrawn = withdrawn or {}
    return [Player(i, seed=i, withdrawn_round=withdrawn.get(i), group=group) for i in ids]


def game(round_: int, winner: int, loser: int, *, draw: bool = False, group=None) -> Table:
    places = (1, 1) if draw else (1, 2)
    return Table(round_, (winner, loser), places, (50, 50 if draw else 40), group=group)


def by_player(rows):
    return {row.player: row for row in rows}


def test_it_breaks_swiss_ties_by_buchholz_then_sonneborn_berger():
    """Four players, three rounds. R1: A beats B, C beats D. R2: A beats C, B and D draw.
    R3: A and D draw, B beats C. Points A 2½, B 1½, C 1, D 1. Buchholz (opponents' points
    summed): A 3½, B 4½, C 5, D 5. Sonneborn-Berger (points of those beaten, half of those
    drawn): A 3, B 1½, C 1, D 2. C and D are level on points and Buchholz: D is third on
    Sonneborn-Berger."""
    tables = [
        game(1, A, B), game(1, C, D),
        game(2, A, C), game(2, B, D, draw=True),
        game(3, A, D, draw=True), game(3, B, C),
    ]  # fmt: skip
    rows = swiss(players(A, B, C, D), tables, 2)
    assert [row.player for row in rows] == [A, B, D, C]
    row = by_player(rows)
    assert [row[p].points for p in (A, B, C, D)] == [Fraction(5, 2), Fraction(3, 2), 1, 1]
    assert [row[p].tiebreaks[0] for p in (A, B, C, D)] == [Fraction(7, 2), Fraction(9, 2), 5, 5]
    assert [row[p].tiebreaks[1] for p in (A, B, C, D)] == [3, Fraction(3, 2), 1, 2]
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_it_counts_a_bye_as_a_win_and_as_meeting_a_player_of_ones_own_score():
    """Three players: round one A beats B, C has the bye. C has 1 point, a Buchholz of its own
    1 (a bye is a virtual opponent of one's own score), no Sonneborn-Berger."""
    tables = [game(1, A, B), Table(1, (C,))]
    row = by_player(swiss(players(A, B, C), tables, 2))
    assert row[C].points == 1 and row[C].byes == 1 and row[C].played == 0
    assert row[C].tiebreaks[:2] == (1, 0)
    assert row[A].tiebreaks[:2] == (0, 0)  # B has no points


def test_it_shares_the_place_of_players_level_on_every_tie_break():
    tables = [game(1, A, B, draw=True), game(1, C, D, draw=True)]
    rows = swiss(players(A, B, C, D), tables, 2)
    assert [row.rank for row in rows] == [1, 1, 1, 1]
    assert all(row.tied for row in rows)


def test_it_averages_buchholz_over_a_multi_player_table():
    """A table of four, places 1, 2, 2, 4: points 3, 1½, 1½, 0. The winner's Buchholz is the
    average of the others' points, (1½ + 1½ + 0) / 3 = 1."""
    table = Table(1, (A, B, C, D), (1, 2, 2, 4), (60, 50, 50, 30))
    row = by_player(swiss(players(A, B, C, D), [table], 4))
    assert [row[p].points for p in (A, B, C, D)] == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert row[A].tiebreaks[0] == 1
    assert row[B].rank == row[C].rank == 2 and row[D].rank == 4
    # Sonneborn-Berger of B: A's 3 x 0 + C's 1½ x ½ + D's 0 x 1, over three table-mates.
    assert row[B].tiebreaks[1] == Fraction(1, 4)


def test_it_counts_only_finished_tables():
    tables = [game(1, A, B), Table(2, (A, B))]  # round two still being played
    row = by_player(swiss(players(A, B), tables, 2))
    assert row[A].points == 1 and row[A].played == 1


def test_it_keeps_withdrawn_players_in_the_standings_marked():
    tables = [game(1, A, B)]
    row = by_player(swiss(players(A, B, withdrawn={B: 1}), tables, 2))
    assert row[B].withdrawn and not row[A].withdrawn and row[B].rank == 2


def test_it_breaks_group_ties_head_to_head_before_the_score():
    """Group of four: A and B both win twice, but A beat B: A is first although B scored more
    over the group's games."""
    tables = [
        game(1, A, B, group=1),
        Table(1, (C, A), (1, 2), (70, 10), group=1),
        Table(1, (A, D), (1, 2), (41, 40), group=1),
        Table(1, (B, C), (1, 2), (90, 10), group=1),
        Table(1, (B, D), (1, 2), (90, 10), group=1),
        Table(1, (D, C), (1, 2), (50, 40), group=1),
    ]
    rows = group_stage(players(A, B, C, D, group=1), tables, 2)
    row = by_player(rows)
    assert row[A].points == row[B].points == 2
    assert row[B].score > row[A].score
    assert row[A].group_rank == 1 and row[B].group_rank == 2
    assert group_winners(rows) == [A]


def test_it_ranks_the_final_table_first_then_the_groups():
    """Two groups of two; the winners A and C meet at the final table, which C wins."""
    field = [
        Player(A, 1, group=1), Player(B, 4, group=1), Player(C, 2, group=2), Player(D, 3, group=2),
    ]  # fmt: skip
    tables = [
        game(1, A, B, group=1),
        game(1, C, D, group=2),
        Table(2, (A, C), (2, 1), (40, 50), final=True),
    ]
    rows = groups(field, tables, 2)
    assert [row.player for row in rows] == [C, A, D, B]  # B and D: second of their groups
    assert [row.rank for row in rows] == [1, 2, 3, 3]
    assert rows[0].finalist and rows[1].finalist and not rows[2].finalist


def test_it_places_a_knock_out_by_how_far_each_player_got():
    """Four players: semi-finals A-D (A wins) and B-C (C wins), final C beats A: C first, A
    second, B and D share third."""
    tables = [game(1, A, D), game(1, C, B), game(2, C, A)]
    rows = knockout(players(A, B, C, D), tables)
    row = by_player(rows)
    assert (row[C].rank, row[A].rank, row[B].rank, row[D].rank) == (1, 2, 3, 3)
    assert row[B].tied and row[D].tied


def test_it_sends_the_higher_seed_through_a_drawn_knock_out_game():
    tables = [Table(1, (B, A), (1, 1), (50, 50))]
    row = by_player(knockout(players(A, B), tables))
    assert row[A].rank == 1 and row[B].rank == 2


def test_it_sends_the_opponent_of_a_withdrawn_player_through():
    """B won the game (the bot played B's seat after B was withdrawn in round one): A goes
    through."""
    tables = [Table(1, (A, B), (2, 1), (40, 50))]
    row = by_player(knockout(players(A, B, withdrawn={B: 1}), tables))
    assert row[A].rank == 1


def test_it_keeps_a_knock_out_win_of_a_player_withdrawn_later():
    tables = [game(1, B, A), Table(2, (B, C))]
    row = by_player(knockout(players(A, B, C, withdrawn={B: 2}), tables))
    assert row[B].wins == 1 and row[A].wins == 0


def test_it_adds_season_points_and_breaks_ties_by_tables_won():
    tables = [
        Table(1, (A, B, C), (1, 2, 3), (50, 40, 30)),
        Table(2, (B, C, A), (1, 2, 3), (50, 45, 20)),
        Table(2, (C, D, B), (1, 2, 2), (60, 30, 30)),
    ]
    row = by_player(season(players(A, B, C, D), tables, 3))
    assert row[A].points == 2 and row[B].points == Fraction(7, 2)
    assert row[C].points == 3
    assert row[B].rank == 1 and row[C].rank == 2
