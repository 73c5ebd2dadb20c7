"""Withdrawals: two timeouts in a row in a tournament's games withdraw a player, whose seats the
bot then plays so the others' games go on; a move in time between keeps them in; a player may
withdraw themselves. Withdrawn players are not paired again and stay, marked, in the standings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game, Seat
from games.play import submit_move
from games.rules.firenze import rules
from games.timeouts import time_out
from notifications.models import Notification
from tests.web.helpers import play_greedy, signed_in
from tests.web.tournament_helpers import end_round, field, started, table_users
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def first_table(found):
    return Table.objects.filter(tournament=found, round__number=1).order_by("number").first()


def until_turn_of(game: Game, seat: int) -> Game:
    """Others move (in time) until it is ``seat``'s turn."""
    game.refresh_from_db()
    play_greedy(game, until=lambda state: rules.acting_seat(state) == seat)
    game.refresh_from_db()
    assert game.acting_seat == seat
    return game


def run_out(game: Game, capture) -> None:
    game.refresh_from_db()
    with capture(execute=True):
        assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))


def test_two_timeouts_in_a_row_withdraw_a_player_and_the_bot_plays_their_seats(
    anna, django_capture_on_commit_callbacks
):
    players = field(4)
    found = started(anna, players, rounds=2)
    table = first_table(found)
    late = next(u for u in table_users(table) if u.username == "p03")
    seat = table.game.seats.get(user=late).number
    entry = found.entries.get(user=late)

    run_out(until_turn_of(table.game, seat), django_capture_on_commit_callbacks)
    entry.refresh_from_db()
    assert entry.last_timeout_at is not None and not entry.withdrawn

    run_out(until_turn_of(table.game, seat), django_capture_on_commit_callbacks)

    entry.refresh_from_db()
    assert entry.withdrawn and entry.withdrawal == "timeouts" and entry.withdrawn_round == 1
    assert Seat.objects.get(game=table.game, user=late).autopilot  # the bot keeps the seat
    game = Game.objects.get(pk=table.game_id)
    assert game.acting_seat != seat or not game.is_active  # and plays its turns at once
    told = Notification.objects.filter(user=late, kind="tournament", context__event="withdrawn")
    assert told.filter(channel="email").count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)
    round_two = Table.objects.filter(tournament=found, round__number=2)
    paired = {u.username for t in round_two for u in table_users(t)}
    assert paired == {"p01", "p02", "p04"}  # three left: two play, one has the bye
    page = signed_in(anna).get(reverse("tournaments:detail", args=[found.pk])).content.decode()
    assert "Withdrawn after two timeouts in a row" in page and "withdrawn" in page
    anna.language = "de"
    anna.save()
    page = signed_in(anna).get(reverse("tournaments:detail", args=[found.pk])).content.decode()
    assert "zurückgezogen</span>" in page  # the standings' badge, in the reader's language
    assert "ist am Zug" in page or "der Bot zieht für" in page  # round 2's table in play


def test_a_move_in_time_between_two_timeouts_keeps_the_player_in(
    anna, django_capture_on_commit_callbacks
):
    players = field(2)
    found = started(anna, players, rounds=1)
    table = first_table(found)
    late = players[1]
    seat = table.game.seats.get(user=late).number

    run_out(until_turn_of(table.game, seat), django_capture_on_commit_callbacks)
    game = until_turn_of(table.game, seat)
    submit_move(game.pk, late, rules.legal_actions(game.load_state())[0], game.version)
    game.refresh_from_db()
    if game.acting_seat != seat:
        game = until_turn_of(game, seat)
    run_out(game, django_capture_on_commit_callbacks)

    entry = found.entries.get(user=late)
    assert not entry.withdrawn and entry.last_timeout_at is not None


def test_a_player_can_withdraw_and_is_not_paired_again(anna, django_capture_on_commit_callbacks):
    players = field(4)
    found = started(anna, players, rounds=2)
    leaving = players[3]

    with django_capture_on_commit_callbacks(execute=True):
        answer = signed_in(leaving).post(reverse("tournaments:withdraw", args=[found.pk]))

    assert answer.status_code == 302
    entry = found.entries.get(user=leaving)
    assert entry.withdrawn and entry.withdrawal == "left"
    assert Seat.objects.filter(user=leaving, autopilot=True).count() == 1
    again = signed_in(leaving).post(reverse("tournaments:withdraw", args=[found.pk]), follow=True)
    assert "You have withdrawn already." in again.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        end_round(found)
    round_two = Table.objects.filter(tournament=found, round__number=2)
    assert "p04" not in {u.username for t in round_two for u in table_users(t)}
    row = next(r for r in found.standings if r["entry"] == entry.pk)
    assert row["withdrawn"] and row["played"] == 1
