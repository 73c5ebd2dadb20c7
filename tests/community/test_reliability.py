"""The reliability figures from plain log rows (community.reliability: no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from community.reliability import (
    Ending,
    LoggedMove,
    Turn,
    active_games_allowed,
    meets,
    seat_turns,
    summarise,
)

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def at(hours: float) -> datetime:
    return START + timedelta(hours=hours)


def turn(hours: float, *, on_time: bool = True, by_player: bool = True) -> Turn:
    return Turn(START, at(hours), on_time, by_player)


def test_it_counts_only_games_played_to_the_end_as_finished():
    endings = [
        Ending(),
        Ending(),
        Ending(resigned=True),
        Ending(left_to_bot=True),
        Ending(game_abandoned=True),
    ]

    figures = summarise(endings, [], new_below=5)

    assert (figures.games_started, figures.games_finished) == (5, 2)
    assert figures.finished_percent == 40
    assert not figures.new_player


def test_it_calls_a_player_with_too_few_ended_games_new():
    figures = summarise([Ending()] * 4, [], new_below=5)

    assert figures.new_player
    assert not meets(figures, 50)


def test_it_rounds_the_share_down_so_a_single_loss_never_shows_a_perfect_score():
    figures = summarise([Ending()] * 199 + [Ending(resigned=True)], [], new_below=5)

    assert figures.finished_percent == 99


def test_it_takes_the_median_time_of_the_turns_made_on_time():
    turns = [turn(1), turn(2), turn(30), turn(72, on_time=False), turn(0.5, by_player=False)]

    figures = summarise([Ending()] * 5, turns, new_below=5)

    assert (figures.turns, figures.turns_on_time) == (4, 3)
    assert figures.on_time_percent == 75
    assert figures.median_seconds == 2 * 3600


def test_it_reads_a_seats_turns_from_the_log_in_order():
    moves = [
        LoggedMove(seat=0, turn=1, created=at(1)),
        LoggedMove(seat=0, turn=1, created=at(1.1)),  # a second step of the same turn
        LoggedMove(seat=1, turn=2, created=at(5)),
        LoggedMove(seat=0, turn=3, created=at(29), by_bot=True, timeout=True),
        LoggedMove(seat=1, turn=4, created=at(30)),
        LoggedMove(seat=0, turn=5, created=at(31), by_bot=True),  # on autopilot: not theirs
    ]

    turns = seat_turns(moves, 0, started=START)

    assert [(t.seconds / 3600, t.on_time, t.by_player) for t in turns] == [
        (1.0, True, True),
        (24.0, False, True),
        (1.0, True, False),
    ]


def test_it_marks_a_turn_late_when_the_clock_ended_it_after_a_first_step():
    moves = [
        LoggedMove(seat=1, turn=1, created=at(1)),
        LoggedMove(seat=0, turn=2, created=at(2)),
        LoggedMove(seat=0, turn=2, created=at(50), by_bot=True, timeout=True),
    ]

    [only] = seat_turns(moves, 0, started=START)

    assert not only.on_time


def test_it_lets_a_player_into_tables_only_with_the_share_asked():
    regular = summarise([Ending()] * 9 + [Ending(resigned=True)], [], new_below=5)

    assert meets(regular, 90)
    assert not meets(regular, 91)
    assert meets(regular, None)


def test_it_allows_more_games_at_once_as_games_are_finished_up_to_a_ceiling():
    assert active_games_allowed(0, base=21, per_finished=1, most=200) == 21
    assert active_games_allowed(10, base=21, per_finished=1, most=200) == 31
    assert active_games_allowed(1000, base=21, per_finished=1, most=200) == 200
