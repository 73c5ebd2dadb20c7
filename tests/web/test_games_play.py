"""Whole games played through the HTTP views, as players in browsers would."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command

from games.models import Game
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from tests.web.helpers import game_page, offered_actions, page_version, post_move, started_game

pytestmark = pytest.mark.django_db


def _play_through_pages(game: Game, clients: dict[int, object], max_moves: int = 4000) -> int:
    """Every move is read off the acting player's page and posted like a click."""
    moves = 0
    rng = random.Random(game.seed)
    while moves < max_moves:
        game.refresh_from_db()
        if game.is_finished:
            return moves
        client = clients[game.acting_seat]
        state = game.load_state()
        if moves % 10 == 0:  # read the buttons off the page now and then: they are the rules'
            page = game_page(client, game)
            assert offered_actions(page) == rules.legal_actions(state)
            assert page_version(page) == game.version
        choice = greedy(state, rng)
        response = post_move(client, game, choice, game.version, htmx=moves % 2 == 0)
        assert response.status_code in (200, 302), response.content[:500]
        moves += 1
    raise AssertionError("the game did not finish")


def test_it_plays_a_whole_two_player_game_from_first_move_to_final_scores(
    client, anna, ben, django_capture_on_commit_callbacks
):
    from django.test import Client

    game = started_game(anna, ben)
    clients = {}
    for user in (anna, ben):
        c = Client()
        c.force_login(user)
        clients[game.seats.get(user=user).number] = c
    _play_through_pages(game, clients)
    game.refresh_from_db()
    assert game.is_finished and game.acting_seat is None
    page = game_page(clients[0], game)
    assert "Game over" in page
    assert "winner-badge" in page
    call_command("replay_games")  # the log rebuilds exactly the stored state


def test_it_plays_a_game_against_a_bot_which_moves_right_after_the_player(
    anna, django_capture_on_commit_callbacks
):
    from django.test import Client

    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(anna, bots=1)
    game.refresh_from_db()
    assert game.seats.get(number=game.acting_seat).user == anna  # a bot that starts has moved
    client = Client()
    client.force_login(anna)
    rng = random.Random(1)
    for _ in range(4000):
        game.refresh_from_db()
        if game.is_finished:
            break
        assert game.seats.get(number=game.acting_seat).user == anna
        choice = greedy(game.load_state(), rng)
        with django_capture_on_commit_callbacks(execute=True):
            post_move(client, game, choice, game.version)
    game.refresh_from_db()
    assert game.is_finished
    assert game.moves.filter(by_bot=True).exists()
    call_command("replay_games")
