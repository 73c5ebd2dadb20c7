"""Private notes (issue 20): a notepad per player per game, saved as they type, shown to that
player only (never to other players, watchers, the API or exports), kept after the game ends."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from games.resign import resign
from inbox.models import Note
from tests.web.helpers import HTMX, fast_forward, game_page, signed_in, started_game

pytestmark = pytest.mark.django_db

SECRET = "Plan: blue 6 next turn, keep the Architect"


def notes_url(game) -> str:
    return reverse("inbox:notes", args=[game.pk])


def notepad(browser, game) -> str:
    """What the game page loads into its notepad (hx-get on load)."""
    response = browser.get(notes_url(game), **HTMX)
    return html.unescape(response.content.decode()) if response.status_code == 200 else ""


def test_a_player_saves_notes_as_they_type_and_only_they_see_them(anna, ben, carla):
    game = started_game(anna, ben)
    mine = signed_in(anna)
    assert f'hx-get="{notes_url(game)}"' in game_page(mine, game)
    saved = mine.post(notes_url(game), {"text": SECRET}, **HTMX)
    assert saved.status_code == 200 and saved.content.decode() == "Saved."
    assert SECRET in notepad(mine, game)
    for other in (signed_in(ben), signed_in(carla), Client()):
        assert SECRET not in html.unescape(game_page(other, game))
        assert SECRET not in notepad(other, game)
    assert notes_url(game) not in game_page(signed_in(carla), game)  # watchers have none
    assert signed_in(carla).get(notes_url(game)).status_code == 404
    assert Client().get(notes_url(game)).status_code == 302
    # Ben's own notepad is his, empty.
    assert 'id="notes"' in notepad(signed_in(ben), game) and "Plan" not in notepad(
        signed_in(ben), game
    )
    for path in (
        reverse("games:export", args=[game.pk]),
        reverse("games:log", args=[game.pk]),
        reverse("games:version", args=[game.pk]) + "?v=0",
    ):
        for who in (mine, signed_in(ben)):
            response = who.get(path)
            assert SECRET not in response.content.decode(errors="replace"), path


def test_notes_are_kept_after_the_game_ends(anna, ben):
    game = started_game(anna, ben, seed=3)
    signed_in(anna).post(notes_url(game), {"text": SECRET})
    fast_forward(game)
    assert SECRET in notepad(signed_in(anna), game)
    assert SECRET not in notepad(signed_in(ben), game)
    resigned = started_game(anna, ben)
    signed_in(ben).post(notes_url(resigned), {"text": "ben's plan"})
    resign(resigned.pk, ben)
    assert "ben's plan" in notepad(signed_in(ben), resigned)


def test_only_seated_players_can_write_notes(anna, ben, carla, client):
    game = started_game(anna, ben)
    assert signed_in(carla).post(notes_url(game), {"text": "x"}).status_code == 404
    anonymous = client.post(notes_url(game), {"text": "x"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not Note.objects.exists()


@pytest.mark.parametrize("bad", ["\x00", "a\x07b", "x" * 10_001])
def test_it_refuses_notes_it_cannot_keep_and_keeps_the_old_ones(anna, ben, bad):
    game = started_game(anna, ben)
    browser = signed_in(anna)
    browser.post(notes_url(game), {"text": "keep"}, **HTMX)
    answer = browser.post(notes_url(game), {"text": bad}, **HTMX)
    assert answer.status_code == 200 and answer.content.decode() != "Saved."
    assert Note.objects.get().text == "keep"
    plain = browser.post(notes_url(game), {"text": bad})
    assert plain.status_code == 302 and plain["Location"].endswith("#notes")
