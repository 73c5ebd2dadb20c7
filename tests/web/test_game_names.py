"""A game's name is shown wherever the game is listed (issue 20): My games (every list), the
history, profiles, the replay and the table talk's own page; unnamed games keep "Game 12"."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games import lobby
from games.models import Game
from tests.web.helpers import fast_forward, signed_in, started_game

pytestmark = pytest.mark.django_db


def text(browser, url: str) -> str:
    response = browser.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def named(game: Game, name: str) -> Game:
    Game.objects.filter(pk=game.pk).update(name=name)
    game.refresh_from_db()
    return game


def test_my_games_shows_the_names_of_games_in_every_list(anna, ben, carla):
    playing = named(started_game(anna, ben), "Quick one")
    forming = lobby.create_game(anna, num_players=3, name="Friday towers")
    invited = lobby.create_game(carla, num_players=2, name="Carla's table")
    lobby.invite(invited, carla, "Anna")
    page = text(signed_in(anna), reverse("games:mine"))
    for title in ("Quick one", "Friday towers", "Carla's table"):
        assert title in page
    assert f"Game {playing.pk}<" not in page and f"Game {forming.pk}<" not in page


def test_finished_lists_profiles_and_history_show_the_name(anna, ben):
    game = named(started_game(anna, ben, seed=3), "Quick one")
    fast_forward(game)
    unnamed = started_game(anna, ben, seed=4)
    fast_forward(unnamed)
    browser = signed_in(anna)
    for url in (
        reverse("games:mine"),
        reverse("games:history"),
        reverse("players:profile", args=[anna.display_name]),
    ):
        page = text(browser, url)
        assert "Quick one" in page and f"Game {unnamed.pk}" in page, url
    assert "Replay: Quick one" in text(browser, reverse("games:replay", args=[game.pk]))


def test_profiles_list_named_games_in_progress(anna, ben):
    named(started_game(anna, ben), "Long evening")
    page = text(signed_in(ben), reverse("players:profile", args=[anna.display_name]))
    assert "Long evening" in page
