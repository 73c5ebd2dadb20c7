"""Bot accounts: made from a fresh account only, refused on the pages, marked as bots, invited
like anyone and rated apart from people."""

from __future__ import annotations

import pytest
from django.test import Client

from api import bots
from games import lobby
from games.errors import Conflict
from games.models import Game
from games.play import record_move
from games.rules.firenze import rules
from players.models import BotPoolRating, Rating
from tests.factories import UserFactory
from tests.web.helpers import post_move, started_game
from tests.web.tournament_helpers import tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def rook(db):
    user = UserFactory(username="rook")
    bots.make_bot_account(user)
    return user


def test_only_an_account_that_never_sat_becomes_a_bot(anna, ben):
    started_game(anna, ben)
    with pytest.raises(Conflict):
        bots.make_bot_account(anna)
    fresh = UserFactory(username="fresh")
    bots.make_bot_account(fresh)
    fresh.refresh_from_db()
    assert fresh.bot_account
    with pytest.raises(Conflict):
        bots.make_bot_account(fresh)


def test_the_tokens_page_turns_an_account_into_a_bot(client):
    from tests.factories import PASSWORD

    user = UserFactory(username="knight")
    client.force_login(user)
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    assert client.post("/accounts/api/bot/", {}).status_code == 400  # the box not ticked
    assert client.post("/accounts/api/bot/", {"confirm": "on"}).status_code == 302
    user.refresh_from_db()
    assert user.bot_account


def test_a_bot_account_cannot_play_through_the_pages(anna, rook, api_as):
    game = lobby.create_game(anna, num_players=2)
    lobby.invite(game, anna, "Rook")
    browser = Client()
    browser.force_login(rook)
    refused = browser.post(f"/games/{game.pk}/join/")
    assert refused.status_code == 403 and "bot account" in refused.content.decode()
    assert api_as(rook).post(f"/games/{game.pk}/join", {}).status_code == 200
    game.refresh_from_db()
    assert game.is_active
    if game.seats.get(user=rook).number == game.acting_seat:
        action = rules.legal_actions(game.load_state())[0]
        assert post_move(browser, game, action, game.version).status_code == 403
    assert browser.get(f"/games/{game.pk}/").status_code == 200  # it may look


def test_a_bot_account_cannot_sign_up_for_a_tournament_through_the_page(anna, rook):
    cup = tournament(anna)
    browser = Client()
    browser.force_login(rook)
    refused = browser.post(f"/tournaments/{cup.pk}/join/")
    assert refused.status_code == 403 and "bot account" in refused.content.decode()
    assert not cup.entries.filter(user=rook).exists()


def test_a_bot_account_is_marked_wherever_its_name_is_shown(anna, rook, api_as):
    game = lobby.create_game(anna, num_players=2)
    lobby.invite(game, anna, "Rook")
    lobby.join(game, rook)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert (
        'href="/players/Rook/">Rook</a> <span class="badge badge-quiet bot-mark">bot</span>' in page
    )
    assert "Bot account" in Client().get("/players/Rook/").content.decode()
    seats = api_as(None).get(f"/games/{game.pk}").json()["seats"]
    assert {s["player"]: s["bot_account"] for s in seats} == {"Anna": False, "Rook": True}
    assert api_as(None).get("/players/rook").json()["bot_account"]


def play_out(game: Game) -> None:
    """Every step by the engine's bot (as if each seat chose it), through the move service."""
    import random

    from games.rules.firenze.rules.bots import greedy

    rng = random.Random(1)
    while True:
        game.refresh_from_db()
        if not game.is_active:
            return
        state = game.load_state()
        action = greedy(state, rng)
        record_move(game, game.acting_seat, action, rules.apply_action(state, action), before=state)


def test_games_with_a_bot_account_are_rated_in_the_bot_pool(anna, ben, rook):
    people = started_game(anna, ben)
    play_out(people)
    assert people.record.rated and not people.record.bot_pool
    against_bot = lobby.create_game(anna, num_players=2)
    lobby.invite(against_bot, anna, "Rook")
    lobby.join(against_bot, rook)
    play_out(against_bot)
    record = Game.objects.get(pk=against_bot.pk).record
    assert record.bot_pool and not record.rated
    assert Rating.objects.get(user=anna).games == 1  # the people's game only
    assert not Rating.objects.filter(user=rook).exists()
    assert BotPoolRating.objects.get(user=anna).games == 1
    assert BotPoolRating.objects.get(user=rook).games == 1
    assert all(r.rating_change is None for r in record.results.all())
