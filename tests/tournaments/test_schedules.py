"""Round robin groups and the knock-out bracket, as pure functions of the seeds."""

from __future__ import annotations

from collections import Counter

from tournaments.schedules import (
    bracket_order,
    first_round,
    group_count,
    group_tables,
    knockout_rounds,
    match_winner,
    next_round,
    snake_groups,
)


def test_it_deals_groups_like_cards_snaking_by_seed():
    assert snake_groups(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_groups(list(range(1, 8)), 3) == [[1, 6, 7], [2, 5], [3, 4]]


def test_it_never_makes_a_group_smaller_than_a_table():
    assert group_count(10, 4, 4) == 2  # 5 and 5, not 4, 4 and 2
    assert group_count(9, 4, 2) == 3
    assert group_count(3, 4, 4) == 1


def test_it_plays_every_pair_or_combination_of_a_group_once():
    pairs = group_tables([1, 2, 3, 4], 2)
    assert len(pairs) == 6 and len(set(map(frozenset, pairs))) == 6
    threes = group_tables([1, 2, 3, 4, 5], 3)
    assert len(threes) == 10
    assert Counter(p for t in threes for p in t) == dict.fromkeys(range(1, 6), 6)


def test_it_seeds_the_bracket_so_the_best_meet_last():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout_rounds(8) == 3 and knockout_rounds(9) == 4


def test_it_gives_the_top_seeds_byes_when_the_field_is_not_a_power_of_two():
    assert first_round([11, 12, 13, 14, 15, 16]) == [(11,), (14, 15), (12,), (13, 16)]
    assert next_round([11, 14, 12, 16]) == [(11, 14), (12, 16)]


def test_it_sends_the_better_place_through_and_the_higher_seed_on_a_draw():
    seeds = {5: 1, 9: 2}
    assert match_winner((5, 9), (2, 1), seeds, set()) == 9
    assert match_winner((9, 5), (1, 1), seeds, set()) == 5
    assert match_winner((5, 9), (2, 1), seeds, {9}) == 5
    assert match_winner((5,), None, seeds, set()) == 5
