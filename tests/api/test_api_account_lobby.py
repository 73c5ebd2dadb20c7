"""The API's account, table talk, lobby and player endpoints, and its safety rules."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from api import tokens
from chat import services as talk
from games import lobby
from games.models import Game
from tests.factories import UserFactory, finished_record
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db


def test_it_lists_my_games_with_whose_turn_and_unread_talk(api_as, anna, ben, carla):
    game = started_game(anna, ben)
    talk.post(game, ben, "Good luck!")
    forming = lobby.create_game(anna, num_players=3)
    invite = lobby.create_game(carla, num_players=2)
    lobby.invite(invite, carla, anna.display_name)
    data = api_as(anna, "read").get("/account/games").json()
    by_id = {row["id"]: row for row in data["games"]}
    assert set(by_id) == {game.pk, forming.pk}
    acting_user = game.seats.get(number=game.acting_seat).user
    assert by_id[game.pk]["my_turn"] == (acting_user == anna)
    assert by_id[game.pk]["acting_name"] == acting_user.public_name
    assert by_id[game.pk]["unread_talk"] == 1
    assert by_id[game.pk]["deadline"] is not None
    assert by_id[forming.pk]["status"] == "open" and by_id[forming.pk]["seats_taken"] == 1
    assert data["invitations"] == [{"game": invite.pk, "title": invite.title, "by": "Carla"}]


def test_the_account_needs_a_token(api_as, anna):
    assert api_as(None).get("/account").status_code == 401
    me = api_as(anna, "read").get("/account").json()
    assert me["name"] == "Anna" and me["token"]["scope"] == "read" and not me["bot_account"]


def test_it_ignores_the_session_cookie(anna):
    """A page open in the browser cannot act through the API: no token, no account."""
    client = Client()
    client.force_login(anna)
    assert client.get("/api/v1/account").status_code == 401


def test_table_talk_is_read_and_written_by_the_players(api_as, anna, ben, carla):
    game = started_game(anna, ben)
    posted = api_as(anna).post(f"/games/{game.pk}/talk", {"text": "Hello Ben"})
    assert posted.status_code == 201 and posted.json()["text"] == "Hello Ben"
    thread = api_as(ben, "read").get(f"/games/{game.pk}/talk").json()
    assert [m["text"] for m in thread["messages"]] == ["Hello Ben"]
    assert thread["messages"][0]["unread"] and thread["can_post"]
    refused = api_as(carla).post(f"/games/{game.pk}/talk", {"text": "Hi"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    tagged = api_as(ben).post(f"/games/{game.pk}/talk", {"text": "<b>hi</b>"})
    assert tagged.status_code == 400 and "HTML" in tagged.json()["message"]
    read_only = api_as(ben, "read").post(f"/games/{game.pk}/talk", {"text": "Hi"})
    assert read_only.json()["code"] == "scope"


def test_the_lobby_lists_creates_and_seats(api_as, anna, ben):
    made = api_as(anna).post(
        "/lobby", {"num_players": 2, "name": "API table", "options": {"campanile": True}}
    )
    assert made.status_code == 201, made.content
    game = Game.objects.get(pk=made.json()["id"])
    assert game.name == "API table" and game.options["campanile"] is True
    listed = api_as(None).get("/lobby").json()
    assert [g["id"] for g in listed["games"]] == [game.pk]
    joined = api_as(ben).post(f"/games/{game.pk}/join", {})
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    again = api_as(ben).post(f"/games/{game.pk}/join", {})
    assert again.status_code == 409 and again.json()["code"] == "conflict"


def test_creating_checks_every_value_as_the_page_does(api_as, anna):
    for bad in (
        {"num_players": 9},
        {"num_players": 2, "time_limit_seconds": 5},
        {"num_players": 2, "options": {"neutral_seals": 99}},
        {"num_players": "two"},
    ):
        response = api_as(anna).post("/lobby", bad)
        assert response.status_code == 400, bad
        assert response.json()["code"] in ("refused", "invalid")
    assert not Game.objects.exists()


def test_it_creates_with_a_time_bank_days_off_and_bots_as_the_page_does(api_as, anna):
    made = api_as(anna).post(
        "/lobby",
        {
            "num_players": 3,
            "clock_mode": "bank",
            "bank_seconds": 7 * 86400,
            "bonus_seconds": 6 * 3600,
            "days_off": [5, 6],
            "bots": ["", "beginner"],
        },
    )
    assert made.status_code == 201, made.content
    game = Game.objects.get(pk=made.json()["id"])
    control = game.time_control
    assert control.is_bank and control.bank.days == 7 and control.bonus.seconds == 6 * 3600
    assert control.days_off == (5, 6)
    assert [seat.bot for seat in game.seats.order_by("number")] == ["", "beginner"]
    assert game.is_open  # seat 3 waits for a person


def test_it_refuses_a_clock_or_bots_the_page_would_refuse_and_creates_nothing(api_as, anna):
    for bad in (
        {"num_players": 2, "clock_mode": "bank", "bank_seconds": 123},
        {"num_players": 2, "days_off": [0, 1, 2]},
        {"num_players": 2, "days_off": [9]},
        {"num_players": 2, "bots": ["grandmaster"]},
        {"num_players": 2, "bots": ["beginner", "beginner"]},
        {"num_players": 2, "clock_mode": "sundial"},
    ):
        response = api_as(anna).post("/lobby", bad)
        assert response.status_code == 400, (bad, response.content)
        assert response.json()["code"] in ("refused", "invalid")
    assert not Game.objects.exists()


def test_joining_a_private_game_needs_an_invitation_or_its_token(api_as, anna, ben, carla):
    game = lobby.create_game(anna, num_players=3, is_public=False)
    assert api_as(ben).post(f"/games/{game.pk}/join", {}).status_code == 404
    assert api_as(ben).post(f"/games/{game.pk}/join", {"token": "wrong"}).status_code == 404
    ok = api_as(ben).post(f"/games/{game.pk}/join", {"token": game.invite_token})
    assert ok.status_code == 200
    invited = api_as(anna).post(f"/games/{game.pk}/invite", {"name": "Carla"})
    assert invited.status_code == 200, invited.content
    assert api_as(carla).post(f"/games/{game.pk}/join", {}).json()["status"] == "active"


def test_an_emailed_invitees_own_link_seats_through_the_api_as_on_the_page(api_as, anna, ben):
    """The API checks a link's token as the page does (Game.admits, in constant time): the
    game's shared link or an emailed invitee's own; a hostile token is a 400, not a query."""
    game = lobby.create_game(anna, num_players=3, is_public=False)
    invitation = lobby.invite_by_email(game, anna, "someone@example.com")
    assert invitation is not None and invitation.token
    bad = api_as(ben).post(f"/games/{game.pk}/join", {"token": "a\u0000b"})
    assert bad.status_code == 400
    ok = api_as(ben).post(f"/games/{game.pk}/join", {"token": invitation.token})
    assert ok.status_code == 200, ok.content
    assert game.seats.filter(user=ben).exists()


def test_profiles_leaderboard_and_history(api_as, anna, ben):
    finished_record([anna, ben], [30, 20])
    profile = api_as(None).get("/players/anna").json()
    assert profile["name"] == "Anna" and profile["finished"] == 1 and profile["won"] == 1
    assert api_as(None).get("/players/nobody").json()["code"] == "not_found"
    board = api_as(None).get("/leaderboard").json()
    assert board["pool"] == "people" and board["rows"] == []  # fewer than 5 rated games
    history = api_as(None).get("/history", player="Ben").json()
    assert len(history["games"]) == 1
    assert [r["player"] for r in history["games"][0]["results"]] == ["Anna", "Ben"]
    assert api_as(None).get("/history", player="Nobody").json()["notes"]


def test_errors_are_json_with_a_code(api_as, anna):
    client = api_as(anna)
    assert client.get("/games/0").json()["code"] == "invalid"
    assert client.get(f"/games/{2**70}").json()["code"] == "invalid"
    assert client.get("/games/424242").json()["code"] == "not_found"
    assert client.post("/lobby", "{not json").json()["code"] == "invalid"
    assert client.post("/lobby", "[" * 5000).json()["code"] == "invalid"
    assert client.get("/no-such-endpoint").status_code == 404


@override_settings(API_RATE_LIMITS={"talk": (2, 60)})
def test_it_limits_each_token(api_as, anna, ben):
    game = started_game(anna, ben)
    client = api_as(anna)
    codes = [client.post(f"/games/{game.pk}/talk", {"text": f"m{i}"}).status_code for i in range(3)]
    assert codes == [201, 201, 429]
    limited = client.post(f"/games/{game.pk}/talk", {"text": "again"})
    assert limited.json()["code"] == "rate_limited" and int(limited["Retry-After"]) > 0
    assert api_as(anna).post(f"/games/{game.pk}/talk", {"text": "new token"}).status_code == 201


def test_limits_fail_closed_when_the_cache_is_down(api_as, anna, monkeypatch):
    import api.limits

    monkeypatch.setattr(api.limits, "is_down", lambda: True)
    response = api_as(anna).get("/account")
    assert response.status_code == 503 and response.json()["code"] == "limits_unavailable"


def test_cors_is_closed_by_default(api_as, anna):
    response = Client().get("/api/v1/lobby", HTTP_ORIGIN="https://elsewhere.example")
    assert response.status_code == 200 and "Access-Control-Allow-Origin" not in response
    preflight = Client().options(
        "/api/v1/lobby",
        HTTP_ORIGIN="https://elsewhere.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )
    assert "Access-Control-Allow-Origin" not in preflight


@override_settings(CORS_ALLOWED_ORIGINS=["https://client.example"])
def test_cors_opens_to_named_origins_only():
    allowed = Client().get("/api/v1/lobby", HTTP_ORIGIN="https://client.example")
    assert allowed["Access-Control-Allow-Origin"] == "https://client.example"
    other = Client().get("/api/v1/lobby", HTTP_ORIGIN="https://elsewhere.example")
    assert "Access-Control-Allow-Origin" not in other
    page = Client().get("/games/", HTTP_ORIGIN="https://client.example")
    assert "Access-Control-Allow-Origin" not in page


def test_the_schema_and_docs_are_served(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert "/api/v1/games/{pk}/move" in schema["paths"]
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200 and b"/static/ninja/swagger-ui-bundle.js" in docs.content
    assert b"cdn" not in docs.content.lower()


def test_a_token_works_until_its_account_is_closed(api_as):
    user = UserFactory(username="gone")
    secret = tokens.create(user, "t", "read").secret
    user.is_active = False
    user.save()
    response = Client().get("/api/v1/account", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 401
