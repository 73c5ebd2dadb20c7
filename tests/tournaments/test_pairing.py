"""Swiss pairing against worked examples of the Swiss rules (FIDE's Dutch system for 2-player
tables, its generalisation to tables of three and four), plus property tests: nobody meets a
player twice when any pairing of the round avoids it, everybody sits at most once a round.

Players are numbered by seed (1 = the strongest); ``met`` says who has met whom.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import Entrant, pair_round, repeats, table_sizes
from tournaments.points import table_points

HALF = Fraction(1, 2)


def field(scores: dict[int, Fraction | int], byes: dict[int, int] | None = None) -> list[Entrant]:
    byes = byes or {}
    return [Entrant(i, Fraction(s), seed=i, byes=byes.get(i, 0)) for i, s in scores.items()]


def met_of(*tables: tuple[int, ...]) -> dict[int, set[int]]:
    met: dict[int, set[int]] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    return met


# --- worked examples --------------------------------------------------------------------------


def test_it_pairs_round_one_top_half_against_bottom_half():
    """Dutch system, round one of eight: 1-5, 2-6, 3-7, 4-8."""
    found = pair_round(field(dict.fromkeys(range(1, 9), 0)), {}, 2)
    assert found.tables == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert found.byes == [] and found.repeats == 0


def test_it_gives_the_bye_of_an_odd_field_to_the_lowest_seed():
    found = pair_round(field(dict.fromkeys(range(1, 8), 0)), {}, 2)
    assert found.byes == [7]
    assert found.tables == [(1, 4), (2, 5), (3, 6)]


def test_it_pairs_each_score_group_top_half_against_bottom_half():
    """After 1-5, 2-6, 3-7 won by the higher seed and 8 beating 4: the winners' group
    {1, 2, 3, 8} plays 1-3, 2-8; the others' {4, 5, 6, 7} plays 4-6, 5-7."""
    scores = {1: 1, 2: 1, 3: 1, 8: 1, 4: 0, 5: 0, 6: 0, 7: 0}
    met = met_of((1, 5), (2, 6), (3, 7), (4, 8))
    found = pair_round(field(scores), met, 2)
    assert found.tables == [(1, 3), (2, 8), (4, 6), (5, 7)]


def test_it_transposes_the_bottom_half_to_avoid_a_repeat():
    """Four players, all draws in round one (1-3, 2-4): 1-3 again is out, so the bottom half is
    transposed: 1-4, 2-3."""
    met = met_of((1, 3), (2, 4))
    found = pair_round(field(dict.fromkeys(range(1, 5), HALF)), met, 2)
    assert found.tables == [(1, 4), (2, 3)]
    assert found.repeats == 0


def test_it_floats_the_odd_player_of_a_score_group_down_to_the_next_ones_best():
    """Winners {1, 2, 3}: 1-2, and 3 floats down to meet 4, the best of the losers; 5-6."""
    scores = {1: 1, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0}
    met = met_of((1, 4), (2, 5), (3, 6))
    found = pair_round(field(scores), met, 2)
    assert found.tables == [(1, 2), (3, 4), (5, 6)]


def test_it_never_gives_a_second_bye_while_someone_has_had_none():
    """Five players; 5 had the bye of round one and is still last: the bye goes to 4."""
    scores = {1: 1, 2: 1, 3: 0, 4: 0, 5: 1}
    ranked = {1: 1, 2: 1, 5: 1, 3: 0, 4: 0}
    found = pair_round(field(ranked, byes={5: 1}), met_of((1, 3), (2, 4)), 2)
    assert found.byes == [4]
    assert sorted(p for t in found.tables for p in t) == sorted(set(scores) - {4})


def test_it_seats_four_player_tables_by_slices_of_the_ranking():
    """Colour-free tables of four: with t = 12 // 4 = 3 tables, table j takes j, j+3, j+6, j+9
    (the Dutch top half / bottom half, in four slices); seat order is the game's own draw."""
    found = pair_round(field(dict.fromkeys(range(1, 13), 0)), {}, 4)
    assert found.tables == [(1, 4, 7, 10), (2, 5, 8, 11), (3, 6, 9, 12)]


def test_it_moves_four_player_tables_around_earlier_meetings():
    """Sixteen players, round one 1-5-9-13, 2-6-10-14, ...: round two has a table for each
    mix of one player from each of those tables, so nobody meets anyone again."""
    met = met_of((1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16))
    found = pair_round(field(dict.fromkeys(range(1, 17), 0)), met, 4)
    assert found.repeats == 0
    assert sorted(p for t in found.tables for p in t) == list(range(1, 17))


def test_it_takes_the_fewest_repeats_when_none_can_be_avoided():
    """Twelve players who met in three tables of four: any three tables of four must put two
    of the same earlier table together; one such pair per table is the least."""
    met = met_of((1, 4, 7, 10), (2, 5, 8, 11), (3, 6, 9, 12))
    found = pair_round(field(dict.fromkeys(range(1, 13), 0)), met, 4)
    assert found.repeats == 3
    assert sorted(p for t in found.tables for p in t) == list(range(1, 13))


def test_it_makes_tables_one_seat_short_rather_than_byes():
    assert table_sizes(10, 4) == ([4, 3, 3], 0)
    assert table_sizes(9, 3) == ([3, 3, 3], 0)
    assert table_sizes(7, 3) == ([3, 2, 2], 0)
    assert table_sizes(6, 4) == ([3, 3], 0)


def test_it_gives_byes_only_when_short_tables_cannot_seat_everyone():
    assert table_sizes(7, 2) == ([2, 2, 2], 1)
    assert table_sizes(5, 4) == ([4], 1)
    assert table_sizes(7, 3, smallest=3) == ([3, 3], 1)  # a game of at least three
    assert table_sizes(1, 2) == ([], 1)


def test_it_repeats_a_pairing_only_when_nothing_else_is_possible():
    met = met_of((1, 2))
    found = pair_round(field({1: 1, 2: 0}), met, 2)
    assert found.tables == [(1, 2)] and found.repeats == 1


def test_it_scores_a_bye_as_a_win_and_shares_the_points_of_a_tie():
    assert table_points([1, 2, 2, 4], 4) == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert table_points([1, 2, 3], 4) == [3, Fraction(3, 2), 0]  # one seat short: scaled
    assert table_points([1, 1], 2) == [HALF, HALF]
    assert table_points([7], 4) == [3]


# --- properties -------------------------------------------------------------------------------


def repeat_free_exists(
    players: list[int], sizes: list[int], byes: int, met: dict[int, set[int]]
) -> bool:
    """Brute force: can these players sit at tables of these sizes (plus byes) with no two
    table-mates who have met?"""
    if not players:
        return not sizes and byes == 0
    first, rest = players[0], players[1:]
    if byes and repeat_free_exists(rest, sizes, byes - 1, met):
        return True
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            table = (first, *mates)
            if any(b in met.get(a, ()) for a, b in combinations(table, 2)):
                continue
            if repeat_free_exists([p for p in rest if p not in mates], left, byes, met):
                return True
    return False


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Entrant], dict[int, set[int]], int]:
    """A field and its earlier rounds: random results of rounds the pairing itself dealt."""
    size = draw(st.sampled_from([2, 3, 4]))
    count = draw(st.integers(min_value=size, max_value={2: 9, 3: 9, 4: 10}[size]))
    rounds = draw(st.integers(min_value=0, max_value=5))
    scores = {p: Fraction(0) for p in range(1, count + 1)}
    byes = {p: 0 for p in scores}
    met: dict[int, set[int]] = {p: set() for p in scores}
    for _ in range(rounds):
        entrants = [Entrant(p, scores[p], p, byes[p]) for p in scores]
        found = pair_round(entrants, met, size)
        for table in found.tables:
            places = draw(st.permutations(range(1, len(table) + 1)))
            for player, points in zip(table, table_points(list(places), size), strict=True):
                scores[player] += points
                met[player].update(p for p in table if p != player)
        for player in found.byes:
            scores[player] += size - 1
            byes[player] += 1
    return [Entrant(p, scores[p], p, byes[p]) for p in scores], met, size


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_it_seats_everyone_once_and_repeats_no_pairing_that_could_be_avoided(case):
    entrants, met, size = case
    found = pair_round(entrants, met, size)
    seated = [p for table in found.tables for p in table] + found.byes
    assert sorted(seated) == sorted(e.id for e in entrants)  # everybody, once
    sizes, bye_count = table_sizes(len(entrants), size)
    assert sorted(map(len, found.tables)) == sorted(sizes)
    assert len(found.byes) == bye_count
    assert found.repeats == repeats(found.tables, met)
    if found.repeats:
        ids = [e.id for e in entrants]
        assert not repeat_free_exists(ids, sizes, bye_count, met)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_it_gives_a_second_bye_only_when_nobody_without_one_can_take_it(case):
    """The bye goes to someone with the fewest byes, unless every such choice would force a
    repeat pairing that another choice avoids."""
    entrants, met, size = case
    found = pair_round(entrants, met, size)
    if len(found.byes) != 1 or found.repeats:
        return
    byes = {e.id: e.byes for e in entrants}
    (given_to,) = found.byes
    sizes, _count = table_sizes(len(entrants), size)
    for other in byes:
        if byes[other] < byes[given_to]:
            rest = [p for p in byes if p != other]
            assert not repeat_free_exists(rest, sizes, 0, met), (given_to, other)
