"""A player downloads everything the site holds about them and deletes their account: the games
they played go on (a bot takes an active seat, finished seats read "Former player"), and nothing
of theirs remains: no name, no address, no email to come."""

from __future__ import annotations

import json

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from games.models import Game, Seat
from games.rules.firenze import rules
from notifications.models import LoginToken, Notification
from tests.web.helpers import fast_forward, game_page, reauthenticated, signed_in
from tests.web.test_notifications import new_game
from tests.web.test_notifications_links import email_to
from tests.web.test_signin_links import signed_in_by_link

pytestmark = pytest.mark.django_db

User = get_user_model()


def test_it_asks_for_the_password_before_the_download_or_the_deletion(anna):
    browser = signed_in(anna)

    for path in ("/accounts/data/", "/accounts/delete/"):
        response = (
            browser.get(path)
            if path.endswith("data/")
            else browser.post(path, {"confirm": "delete"})
        )
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/reauthenticate/")
    assert User.objects.filter(pk=anna.pk).exists()


def test_a_session_from_an_email_link_cannot_download_or_delete(anna, ben):
    game = new_game(anna, ben)
    player = game.seats.get(number=game.acting_seat).user
    browser = signed_in_by_link(player, game)

    assert browser.get("/accounts/data/")["Location"].startswith("/accounts/reauthenticate/")
    browser.post("/accounts/delete/", {"confirm": "delete"})
    assert User.objects.filter(pk=player.pk).exists()


def test_it_downloads_the_account_seats_moves_and_emails_as_json(anna, ben):
    game = new_game(anna, ben)
    fast_forward(game, 40)
    email_to(anna, game, "game_started")

    response = reauthenticated(anna).get("/accounts/data/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["account"]["display_name"] == "Anna"
    assert data["account"]["email"] == "anna@example.com"
    assert data["email_addresses"] == [
        {"email": "anna@example.com", "verified": True, "primary": True}
    ]
    assert [s["game"] for s in data["seats"]] == [game.pk]
    seat = Seat.objects.get(game=game, user=anna).number
    own = [m for m in game.moves.filter(seat=seat).order_by("seq")]
    assert [m["seq"] for m in data["moves"]] == [m.seq for m in own]
    assert [e["kind"] for e in data["emails"]] == ["game_started"]
    # Only what is Anna's: nothing of Ben's hand, nothing of the deck.
    state = rules.to_dict(game.load_state())
    text = response.content.decode()
    ben_seat = Seat.objects.get(game=game, user=ben).number
    assert "Ben" not in text and "ben@example.com" not in text
    for card in state["players"][ben_seat]["hand"]:
        assert json.dumps(card) not in json.dumps([m["action"] for m in data["moves"]]) or (
            card in state["players"][seat]["hand"]
        )
    assert "deck" not in text and "seed" not in text


def test_deleting_hands_active_seats_to_a_bot_and_keeps_finished_games(
    anna, ben, carla, django_capture_on_commit_callbacks
):
    finished = new_game(anna, ben)
    fast_forward(finished)
    assert Game.objects.get(pk=finished.pk).is_finished
    active = new_game(anna, carla)
    email_to(anna, active, "your_turn")
    anna_seat = Seat.objects.get(game=active, user=anna).number
    moves_before = active.moves.count()

    browser = reauthenticated(anna)
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post("/accounts/delete/", {"confirm": "delete"})

    assert response.status_code == 302
    assert not User.objects.filter(pk=anna.pk).exists()
    assert not EmailAddress.objects.filter(email="anna@example.com").exists()
    assert not Notification.objects.filter(user_id=anna.pk).exists()
    assert not LoginToken.objects.filter(user_id=anna.pk).exists()
    # The finished game is still there, with Anna's seat as "Former player".
    page = game_page(signed_in(ben), finished)
    assert "Former player" in page and "Anna" not in page
    # The active game goes on: the bot plays Anna's seat whenever it is her turn.
    active.refresh_from_db()
    seat = Seat.objects.get(game=active, number=anna_seat)
    assert seat.former_player and seat.bot_plays and seat.user is None
    assert active.acting_seat != anna_seat or active.is_finished
    assert active.moves.count() >= moves_before
    page = game_page(signed_in(carla), active)
    assert "Former player" in page and "Anna" not in page


def test_deleting_cancels_forming_games_one_created_and_frees_seats_in_others(anna, ben):
    from games import lobby

    own = lobby.create_game(anna, num_players=3)
    lobby.join(own, ben)
    joined = lobby.create_game(ben, num_players=3)
    lobby.join(joined, anna)

    reauthenticated(anna).post("/accounts/delete/", {"confirm": "delete"})

    assert Game.objects.get(pk=own.pk).status == Game.Status.CANCELLED
    assert list(Seat.objects.filter(game=joined).values_list("user_id", flat=True)) == [ben.pk]


def test_deleting_needs_the_word_typed(anna):
    browser = reauthenticated(anna)

    response = browser.post("/accounts/delete/", {"confirm": "yes"})

    assert response.status_code == 400
    assert User.objects.filter(pk=anna.pk).exists()


def test_deleting_blanks_the_players_table_talk_and_the_download_has_it(anna, ben):
    from chat.models import Message

    game = new_game(anna, ben)
    Message.objects.create(game=game, author=anna, seat=0, text="Good luck, Ben!")
    Message.objects.create(game=game, author=ben, seat=1, text="Thanks!")
    browser = reauthenticated(anna)
    data = json.loads(browser.get("/accounts/data/").content)
    assert [m["text"] for m in data["chat_messages"]] == ["Good luck, Ben!"]

    browser.post("/accounts/delete/", {"confirm": "delete"})

    texts = list(Message.objects.filter(game=game).order_by("pk").values_list("text", "author"))
    assert texts == [("", None), ("Thanks!", ben.pk)]
    assert "Good luck" not in game_page(signed_in(ben), game)
