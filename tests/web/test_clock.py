"""Time limits: deadlines, reminders, timeouts played by the bot, autopilot, and vacations."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import absences
from games.clock import counted_time
from games.errors import RequestRefused
from games.models import Game, Move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from games.timeouts import due_games, remind, time_out
from tests.web.helpers import post_move, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def test_it_counts_the_time_limit_only_outside_absences():
    assert counted_time(T0, 2 * DAY, []) == T0 + 2 * DAY
    away_one_day = [(T0 + DAY, T0 + 2 * DAY)]
    assert counted_time(T0, 2 * DAY, away_one_day) == T0 + 3 * DAY
    already_away = [(T0 - DAY, T0 + DAY)]
    assert counted_time(T0, 2 * DAY, already_away) == T0 + 3 * DAY
    after_the_deadline = [(T0 + 5 * DAY, T0 + 6 * DAY)]
    assert counted_time(T0, 2 * DAY, after_the_deadline) == T0 + 2 * DAY


def _acting_user(game: Game):
    return game.seats.get(number=game.acting_seat).user


def test_it_gives_each_turn_a_deadline_and_a_first_reminder_at_half_time(anna, ben):
    game = started_game(anna, ben)
    limit = game.time_limit
    assert game.deadline - game.turn_started_at == limit
    assert game.next_reminder_at - game.turn_started_at == limit / 2


def test_it_finds_due_games_with_two_queries_however_many_are_not_due(
    anna, ben, django_assert_num_queries
):
    due = started_game(anna, ben)
    for _ in range(5):
        started_game(anna, ben)
    Game.objects.filter(pk=due.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    with django_assert_num_queries(2):
        timeouts, reminders = due_games()
    assert timeouts == [due.pk]
    assert reminders == []


def test_it_has_the_bot_play_a_timed_out_turn_and_marks_it_in_the_log(
    anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    late = _acting_user(game)
    moves_before = game.moves.count()
    with django_capture_on_commit_callbacks(execute=True):
        assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert _acting_user(game) != late
    played = Move.objects.filter(game=game, seq__gt=moves_before)
    assert played.exists() and all(m.timeout and m.by_bot for m in played)
    first = played.order_by("seq").first()
    assert rules.format_line(first.log[0], [s.name for s in game.seats.order_by("number")]) == (
        f"{late.public_name} ran out of time: the bot plays this turn."
    )
    assert game.seats.get(user=late).timeouts_in_row == 1


def test_it_does_nothing_before_the_deadline_or_twice(anna, ben):
    game = started_game(anna, ben)
    assert not time_out(game.pk, now=game.deadline - timedelta(seconds=1))
    assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    version = game.version
    assert not time_out(game.pk, now=game.deadline - timedelta(seconds=1))
    game.refresh_from_db()
    assert game.version == version


def _play_own_turn(client, game: Game) -> None:
    """The acting player plays a whole turn in time, through the move view."""
    user = _acting_user(game)
    client.force_login(user)
    rng = random.Random(game.version)
    while game.is_active and _acting_user(game) == user:
        post_move(client, game, greedy(game.load_state(), rng), game.version)
        game.refresh_from_db()


def test_it_lets_the_bot_keep_the_seat_after_three_timeouts_until_taken_back(
    client, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    seat = game.seats.get(user=anna)
    while not seat.autopilot:
        if _acting_user(game) == ben:
            _play_own_turn(client, game)
        with django_capture_on_commit_callbacks(execute=True):
            assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
        game.refresh_from_db()
        seat.refresh_from_db()
    assert seat.timeouts_in_row == 3
    assert _acting_user(game) == ben  # from now on Anna's turns are played at once
    with django_capture_on_commit_callbacks(execute=True):
        _play_own_turn(client, game)
    game.refresh_from_db()
    assert _acting_user(game) == ben
    assert game.moves.filter(seat=seat.number, by_bot=True, timeout=False).exists()
    client.force_login(anna)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Take my seat back" in page
    client.post(reverse("games:reclaim", args=[game.pk]))
    seat.refresh_from_db()
    assert not seat.autopilot and seat.timeouts_in_row == 0


def test_it_forgets_timeouts_once_the_player_moves_in_time(client, anna, ben):
    game = started_game(anna, ben)
    late = _acting_user(game)
    time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    _play_own_turn(client, game)
    assert _acting_user(game) == late
    client.force_login(late)
    post_move(client, game, rules.legal_actions(game.load_state())[0], game.version)
    assert game.seats.get(user=late).timeouts_in_row == 0


def test_it_sends_reminders_at_half_time_and_with_ten_percent_left(anna, ben):
    from notifications.models import Notification

    game = started_game(anna, ben)
    acting = _acting_user(game)
    start, limit = game.turn_started_at, game.time_limit
    assert not remind(game.pk, now=start + limit * 0.4)
    assert remind(game.pk, now=start + limit * 0.5 + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.next_reminder_at == start + limit * 0.9
    assert remind(game.pk, now=start + limit * 0.9 + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.next_reminder_at is None
    reminders = Notification.objects.filter(kind="reminder", game=game)
    assert reminders.count() == 2
    assert {n.user for n in reminders} == {acting}


def test_it_pushes_deadlines_back_for_a_player_who_goes_away(anna, ben):
    game = started_game(anna, ben)
    acting = _acting_user(game)
    before = game.deadline
    today = timezone.localdate()
    absences.add_absence(acting, today + DAY, today + 3 * DAY)
    game.refresh_from_db()
    assert game.deadline == before + 3 * DAY


def test_it_limits_absences_to_thirty_days_a_year_and_refuses_bad_ones(anna):
    start = date(timezone.localdate().year + 1, 3, 1)
    absences.add_absence(anna, start, start + timedelta(days=19))
    with pytest.raises(RequestRefused, match="10 days of absence left"):
        absences.add_absence(anna, start + timedelta(days=30), start + timedelta(days=40))
    with pytest.raises(RequestRefused, match="overlaps"):
        absences.add_absence(anna, start + timedelta(days=5), start + timedelta(days=6))
    with pytest.raises(RequestRefused, match="past"):
        absences.add_absence(anna, timezone.localdate() - DAY, timezone.localdate())
    with pytest.raises(RequestRefused, match="before the first day"):
        absences.add_absence(anna, start + timedelta(days=60), start + timedelta(days=59))


def test_it_does_not_time_out_a_player_who_is_away(anna, ben):
    game = started_game(anna, ben)
    acting = _acting_user(game)
    now = game.deadline + timedelta(seconds=1)
    from games.models import Absence

    Absence.objects.create(user=acting, starts=now - DAY, ends=now + DAY)
    assert not time_out(game.pk, now=now)
    game.refresh_from_db()
    assert _acting_user(game) == acting
    assert game.deadline > now


def test_it_offers_the_away_page_with_days_left(client, anna):
    client.force_login(anna)
    page = client.get(reverse("games:away"))
    assert page.status_code == 200
    assert "you have used 0" in page.content.decode()
    first = timezone.localdate() + DAY
    response = client.post(reverse("games:away"), {"first_day": first, "last_day": first + 2 * DAY})
    assert response.status_code == 302
    assert anna.absences.count() == 1
    bad = client.post(reverse("games:away"), {"first_day": first, "last_day": first - 2 * DAY})
    assert bad.status_code == 400
    assert "before the first day" in bad.content.decode()


def test_it_requeues_a_bot_turn_that_was_never_played(anna, django_capture_on_commit_callbacks):
    """If the broker was down when the turn passed to a bot, the sweep has the bot play it."""
    from games.tasks import sweep_deadlines

    game = started_game(anna, bots=1)  # bots were not run: their task was never executed
    game.refresh_from_db()
    if game.seats.get(number=game.acting_seat).user == anna:
        _play_own_turn(Client(), game)  # no on-commit execution: the bot's task is lost
    game.refresh_from_db()
    assert game.seats.get(number=game.acting_seat).bot
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(minutes=5))
    result = sweep_deadlines()
    assert result["bots"] == 1
    game.refresh_from_db()
    assert _acting_user(game) == anna


def test_the_away_page_lists_the_days_as_the_player_entered_them(client, anna):
    client.force_login(anna)
    year = timezone.localdate().year + 1
    client.post(reverse("games:away"), {"first_day": f"{year}-12-20", "last_day": f"{year}-12-27"})
    page = client.get(reverse("games:away")).content.decode()
    first, last = date(year, 12, 20), date(year, 12, 27)
    assert f"{first:%a} 20 Dec {year} – {last:%a} 27 Dec {year}" in page
    assert "28 Dec" not in page and "back that morning" not in page
