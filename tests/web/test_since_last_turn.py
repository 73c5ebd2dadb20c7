"""What happened since my last turn (issue 30): the game page sums up the others' moves since
the player last acted, what affected them first, marks the changes on the board until they
act, and links to the log from there; from the seat's own views only, for Firenze and Nim."""

from __future__ import annotations

import random
import re

import pytest

from games import lobby
from games.models import Game
from games.rules.firenze.rules.bots import greedy
from tests.web.helpers import game_page, post_move, signed_in, started_game
from tests.web.test_games_of_the_site import nim_beside_firenze  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def play_turn(django_capture_on_commit_callbacks):
    """play_turn(game): the acting player plays a whole turn through the move view (what
    each move leaves for after its commit runs too)."""

    def play(game: Game) -> None:
        seat = game.seats.select_related("user").get(number=game.acting_seat)
        browser = signed_in(seat.user)
        rng = random.Random(game.version)
        while game.is_active and game.acting_seat == seat.number:
            with django_capture_on_commit_callbacks(execute=True):
                post_move(browser, game, greedy(game.load_state(), rng), game.version)
            game.refresh_from_db()

    return play


def since_box(page: str) -> str:
    found = re.search(r'<div class="since".*?</div>', page, re.S)
    return found.group(0) if found else ""


def test_it_sums_up_the_others_turns_since_the_players_last_one(
    anna, ben, carla, play_turn, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben, carla, seed=7)
    first = game.seats.select_related("user").get(number=game.acting_seat).user
    play_turn(game)  # the first player acts ...
    assert since_box(game_page(signed_in(first), game)) == ""  # ... and nobody moved since
    play_turn(game)
    play_turn(game)  # both others have played
    page = game_page(signed_in(first), game)
    box = since_box(page)
    assert "Since your last turn" in box
    others = [s.user.display_name for s in game.seats.select_related("user") if s.user != first]
    lines = re.findall(r"<li[^>]*>(.*?)</li>", box, re.S)
    assert any(others[0] in line for line in lines) and any(others[1] in line for line in lines)
    assert f'/games/{game.pk}/log/#turn-2"' in box  # the log from the turn after theirs

    # What affected the player is said first.
    mine = [i for i, line in enumerate(lines) if "<strong>" in line]
    assert mine == list(range(len(mine)))
    # The changes stay marked on the board until the player acts.
    assert "changed" in page.split('id="board"')[1] or "changed" in page.split('id="players"')[1]
    # A watcher has no last turn: no summary.
    from django.test import Client

    assert since_box(game_page(Client(), game)) == ""
    # One step of the player's own ends the summary: they have acted.
    with django_capture_on_commit_callbacks(execute=True):
        post_move(signed_in(first), game, greedy(game.load_state(), random.Random(1)), game.version)
    game.refresh_from_db()
    assert since_box(game_page(signed_in(first), game)) == ""


def test_it_tells_only_what_the_seat_could_see(anna, ben, play_turn):
    """The summary compares two player_views of the seat: the others' hands stay unnamed."""
    game = started_game(anna, ben, seed=11)
    first = game.seats.select_related("user").get(number=game.acting_seat)
    play_turn(game)
    play_turn(game)
    other = 1 - first.number
    hand = game.load_state()._d["players"][other]["hand"]
    box = since_box(game_page(signed_in(first.user), game))
    assert "Since your last turn" in box
    public = {b for p in game.engine.player_view(game.load_state(), None)["players"]
              for b in p["buildings"]}  # fmt: skip
    for card in set(hand) - public:
        assert card not in box, card


def test_nim_words_the_changes_too(
    nim_beside_firenze,  # noqa: F811
    anna,
    ben,
    django_capture_on_commit_callbacks,
):
    game = lobby.create_game(anna, num_players=2, options={"stones": 9}, engine_name="nim")
    lobby.join(game, ben)
    game.refresh_from_db()
    first = None
    for _ in range(2):  # a take and the end of the turn, by each player in turn
        seat = game.seats.select_related("user").get(number=game.acting_seat)
        first = first or seat.user
        browser = signed_in(seat.user)
        for action in ({"type": "take", "n": 2}, {"type": "end_turn"}):
            with django_capture_on_commit_callbacks(execute=True):
                post_move(browser, game, action, game.version)
            game.refresh_from_db()
    box = since_box(game_page(signed_in(first), game))
    assert "The others took 2 stones: 7 → 5." in box, box
