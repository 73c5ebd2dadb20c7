"""Resigning a started game (issue 9): a confirmation first; with nobody left to play against
the game ends and the others win; otherwise a bot plays the seat to the end and the game goes
on. The resigned player is ranked last, and the log and the seat record it."""

from __future__ import annotations

import html
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import lobby
from games.models import Game, Seat
from games.rules.firenze import rules
from games.standings import standings
from tests.web.helpers import fast_forward, game_page, play_greedy, signed_in, started_game

pytestmark = pytest.mark.django_db


def resign_url(game: Game) -> str:
    return reverse("games:resign", args=[game.pk])


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def test_it_asks_for_confirmation_and_explains_what_happens(anna, ben):
    game = started_game(anna, ben)
    browser = signed_in(anna)

    page = text_of(browser.get(resign_url(game)))
    assert "the game ends now" in page and "ranked last" in page
    assert "Nobody else is left to play against" in page and "Ben wins" in page

    refused = browser.post(resign_url(game), {})
    assert refused.status_code == 400
    assert "Tick the box to resign." in text_of(refused)
    game.refresh_from_db()
    assert game.is_active and not game.seats.filter(resigned_at__isnull=False).exists()


def test_in_a_two_player_game_the_other_player_wins_at_once(
    anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    play_greedy(game, 40)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in(anna).post(resign_url(game), {"confirm": "on"})

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_finished and game.deadline is None
    seat = game.seats.get(user=anna)
    assert seat.resigned_at is not None and seat.resigned_step == game.load_state().step
    ranking = standings(game.load_state(), list(game.seats.all()))
    assert [(row.name, row.winner, row.resigned) for row in ranking] == [
        ("Ben", True, False),
        ("Anna", False, True),
    ]
    page = game_page(signed_in(ben), game)
    assert "The game ended when Anna resigned; Ben wins." in html.unescape(page)
    assert "Anna resigned, which ends the game." in html.unescape(page)
    assert sorted(m.to[0] for m in mail.outbox) == [anna.email, ben.email]
    assert all("Anna resigned" in m.body for m in mail.outbox)


def test_with_others_left_a_bot_takes_the_seat_and_plays_on(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, carla)
    resigner = game.seats.get(number=game.acting_seat).user  # resigning on their own turn
    page = text_of(signed_in(resigner).get(resign_url(game)))
    assert "A bot takes your seat" in page

    with django_capture_on_commit_callbacks(execute=True):
        signed_in(resigner).post(resign_url(game), {"confirm": "on"})

    game.refresh_from_db()
    seat = game.seats.get(user=resigner)
    assert game.is_active and seat.autopilot and seat.has_resigned
    assert game.acting_seat != seat.number, "the bot played the rest of the turn at once"
    assert game.moves.filter(seat=seat.number, by_bot=True).exists()
    other = game.seats.exclude(user=resigner).first().user
    page = html.unescape(game_page(signed_in(other), game))
    assert f"{resigner.public_name} resigned; a bot plays the seat from here on." in page
    assert re.search(rf">{resigner.public_name}</a></strong>.*?resigned</span>", page, re.S)

    # The seat cannot be taken back, and a second resignation is refused.
    signed_in(resigner).post(reverse("games:reclaim", args=[game.pk]))
    assert Seat.objects.get(pk=seat.pk).autopilot
    again = signed_in(resigner).post(resign_url(game), {"confirm": "on"})
    assert again.status_code == 302
    assert Seat.objects.get(pk=seat.pk).resigned_at == seat.resigned_at

    # Nor can the resigned player move any more, even when their seat is to act.
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(acting_seat=seat.number)
    move = signed_in(resigner).post(
        reverse("games:move", args=[game.pk]),
        {"action": '{"type": "end_phase"}', "version": game.version},
    )
    assert move.status_code == 409
    assert "You resigned this game" in html.unescape(move.content.decode())


def test_a_resigned_player_is_ranked_last_whatever_the_bot_scored(anna, ben, carla):
    game = started_game(anna, ben, carla)
    fast_forward(game)
    seats = list(game.seats.all())
    best = max(range(3), key=lambda s: rules.scores(game.load_state())[s])
    Seat.objects.filter(game=game, number=best).update(resigned_at="2026-01-01T00:00Z")
    seats = list(game.seats.all())

    ranking = standings(game.load_state(), seats)

    assert ranking[-1].seat == best and ranking[-1].resigned and not ranking[-1].winner
    assert ranking[0].winner and ranking[0].place == 1
    assert ranking[-1].place == 3


def test_against_bots_only_resigning_ends_the_game(anna, django_capture_on_commit_callbacks):
    game = lobby.create_game(anna, num_players=3)
    lobby.add_bot(game, anna)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.add_bot(game, anna)
    game.refresh_from_db()
    assert game.is_active

    with django_capture_on_commit_callbacks(execute=True):
        signed_in(anna).post(resign_url(game), {"confirm": "on"})

    game.refresh_from_db()
    assert game.is_finished


def test_only_players_of_a_game_in_progress_may_resign(client, anna, ben, carla):
    game = started_game(anna, ben)
    assert signed_in(carla).post(resign_url(game), {"confirm": "on"}).status_code == 403
    response = client.post(resign_url(game), {"confirm": "on"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    fast_forward(game)
    response = signed_in(anna).post(resign_url(game), {"confirm": "on"})
    assert response.status_code == 302
    assert not game.seats.filter(resigned_at__isnull=False).exists()


@pytest.mark.parametrize("value", ["", "no", "x" * 5000, "\x00", ["a", "b"]])
def test_odd_confirmations_never_answer_500(anna, ben, value):
    game = started_game(anna, ben)
    response = signed_in(anna).post(resign_url(game), {"confirm": value})
    assert response.status_code in (302, 400)


def test_a_resignation_is_recorded_in_the_history_as_a_rated_loss(
    anna, ben, django_capture_on_commit_callbacks
):
    from players.models import GameRecord, Rating, SeatResult

    game = started_game(anna, ben)
    play_greedy(game, 30)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(ben).post(resign_url(game), {"confirm": "on"})

    record = GameRecord.objects.get(game=game)
    assert record.rated
    results = {r.user: r for r in SeatResult.objects.filter(record=record)}
    assert (results[anna].place, results[anna].won, results[anna].resigned) == (1, True, False)
    assert (results[ben].place, results[ben].won, results[ben].resigned) == (2, False, True)
    assert not results[ben].abandoned  # resigned, not lost to timeouts
    assert Rating.objects.get(user=anna).shown > Rating.objects.get(user=ben).shown
    history = html.unescape(signed_in(anna).get(reverse("games:history")).content.decode())
    assert re.search(r">Ben</a> .*?resigned</span>", history, re.S)


def test_the_bot_playing_a_resigned_seat_to_the_end_leaves_the_game_rated(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    from players.models import GameRecord, SeatResult

    game = started_game(anna, ben, carla)
    play_greedy(game, 10)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(carla).post(resign_url(game), {"confirm": "on"})
    game.refresh_from_db()
    assert game.is_active
    play_greedy(game)  # everyone (and the bot for Carla) to the end

    record = GameRecord.objects.get(game=game)
    carla_result = SeatResult.objects.get(record=record, user=carla)
    assert carla_result.resigned and carla_result.place == 3 and not carla_result.won
    assert 2 * carla_result.bot_steps > carla_result.steps
    assert record.rated
