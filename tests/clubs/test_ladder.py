"""The ladder's rules on plain lists of ids (clubs.ladder: no database)."""

from __future__ import annotations

from clubs.ladder import after_game, challengeable, may_challenge, place_of

LADDER = [10, 20, 30, 40, 50, 60]  # 10 at the top


def test_it_lets_a_member_challenge_up_to_the_reach_and_no_further():
    assert may_challenge(LADDER, 60, 30, reach=3)
    assert may_challenge(LADDER, 60, 50, reach=3)
    assert not may_challenge(LADDER, 60, 20, reach=3)


def test_it_never_lets_a_member_challenge_below_or_themself_or_an_outsider():
    assert not may_challenge(LADDER, 30, 40, reach=3)
    assert not may_challenge(LADDER, 30, 30, reach=3)
    assert not may_challenge(LADDER, 99, 10, reach=3)
    assert not may_challenge(LADDER, 30, 99, reach=3)


def test_it_lists_whom_a_member_may_challenge_nearest_first():
    assert challengeable(LADDER, 50, reach=3) == [40, 30, 20]
    assert challengeable(LADDER, 20, reach=3) == [10]
    assert challengeable(LADDER, 10, reach=3) == []
    assert challengeable(LADDER, 99, reach=3) == []


def test_it_gives_the_lower_winner_the_higher_place_and_moves_the_rest_down_one():
    after = after_game(LADDER, winner=60, loser=30)

    assert after == [10, 20, 60, 30, 40, 50]
    assert place_of(after, 60) == 3
    assert place_of(after, 30) == 4


def test_it_moves_nobody_when_the_higher_player_wins_or_nobody_does():
    assert after_game(LADDER, winner=30, loser=60) == LADDER
    assert after_game(LADDER, winner=None, loser=30) == LADDER


def test_it_leaves_the_ladder_alone_when_a_player_is_no_longer_on_it():
    assert after_game(LADDER, winner=99, loser=30) == LADDER
    assert after_game(LADDER, winner=60, loser=99) == LADDER
