"""The API's game endpoints: the caller's view, legal actions, log, moves and undo."""

from __future__ import annotations

import pytest

from games.models import Game, Move
from games.rules.firenze import rules
from tests.factories import UserFactory
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db


def acting_and_waiting(game: Game, *users):
    acting = next(u for u in users if game.seats.get(user=u).number == game.acting_seat)
    waiting = next(u for u in users if u is not acting)
    return acting, waiting


def test_it_shows_each_seat_only_its_own_hand(api_as, anna, ben, carla):
    game = started_game(anna, ben)
    state = game.load_state()
    for user in (anna, ben):
        seat = game.seats.get(user=user).number
        data = api_as(user, "read").get(f"/games/{game.pk}").json()
        assert data["my_seat"] == seat
        assert data["view"] == rules.player_view(state, seat)
    watcher = api_as(carla, "read").get(f"/games/{game.pk}").json()
    assert watcher["my_seat"] is None and watcher["view"] == rules.player_view(state, None)
    assert api_as(None).get(f"/games/{game.pk}").json()["view"] == rules.player_view(state, None)


def test_it_lists_legal_actions_to_the_acting_player_only(api_as, anna, ben):
    game = started_game(anna, ben)
    acting, waiting = acting_and_waiting(game, anna, ben)
    mine = api_as(acting).get(f"/games/{game.pk}/actions").json()
    assert mine["my_turn"] and mine["actions"] == rules.legal_actions(game.load_state())
    theirs = api_as(waiting).get(f"/games/{game.pk}/actions").json()
    assert theirs == {"version": game.version, "my_turn": False, "actions": []}


def test_it_plays_a_move_and_the_log_tells_it(api_as, anna, ben):
    game = started_game(anna, ben)
    acting, _ = acting_and_waiting(game, anna, ben)
    client = api_as(acting)
    action = client.get(f"/games/{game.pk}/actions").json()["actions"][0]
    response = client.post(f"/games/{game.pk}/move", {"action": action, "version": game.version})
    assert response.status_code == 200, response.content
    assert response.json()["version"] == game.version + 1
    assert Move.objects.filter(game=game).count() == 1
    log = client.get(f"/games/{game.pk}/log").json()
    assert [m["step"] for m in log["moves"]] == [1] and log["moves"][0]["lines"]


def test_it_refuses_a_stale_version_with_its_code_in_a_clients_words(api_as, anna, ben):
    game = started_game(anna, ben)
    acting, _ = acting_and_waiting(game, anna, ben)
    client = api_as(acting)
    action = client.get(f"/games/{game.pk}/actions").json()["actions"][0]
    response = client.post(
        f"/games/{game.pk}/move", {"action": action, "version": game.version + 5}
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale"
    message = response.json()["message"]
    assert "moved on" in message and "current version" in message
    assert "board" not in message  # the pages' wording: a program has no board to look at
    german = api_as(acting, language="de").post(
        f"/games/{game.pk}/move", {"action": action, "version": game.version + 5}
    )
    assert "Spielplan" not in german.json()["message"]
    assert "Version" in german.json()["message"]


def test_it_words_an_illegal_move_in_the_callers_language(api_as, anna, ben):
    game = started_game(anna, ben)
    acting, _ = acting_and_waiting(game, anna, ben)
    bad = {"action": {"type": "fulfil", "tower": 7, "level": 9}, "version": game.version}
    english = api_as(acting, language="en").post(f"/games/{game.pk}/move", bad)
    german = api_as(acting, language="de").post(f"/games/{game.pk}/move", bad)
    assert english.status_code == german.status_code == 400
    assert english.json()["code"] == german.json()["code"] == "refused"
    assert english.json()["message"] != german.json()["message"]
    acting.language = "de"
    acting.save(update_fields=["language"])
    no_header = api_as(acting).post(f"/games/{game.pk}/move", bad)
    assert no_header.json()["message"] == german.json()["message"]


def test_it_refuses_moves_out_of_turn_and_from_outsiders(api_as, anna, ben, carla):
    game = started_game(anna, ben)
    acting, waiting = acting_and_waiting(game, anna, ben)
    action = rules.legal_actions(game.load_state())[0]
    payload = {"action": action, "version": game.version}
    assert api_as(waiting).post(f"/games/{game.pk}/move", payload).json()["code"] == "conflict"
    outsider = api_as(carla).post(f"/games/{game.pk}/move", payload)
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_in_game"
    assert not Move.objects.filter(game=game).exists()


def test_a_read_only_token_cannot_move(api_as, anna, ben):
    game = started_game(anna, ben)
    acting, _ = acting_and_waiting(game, anna, ben)
    action = rules.legal_actions(game.load_state())[0]
    response = api_as(acting, "read").post(
        f"/games/{game.pk}/move", {"action": action, "version": game.version}
    )
    assert response.status_code == 403 and response.json()["code"] == "scope"
    assert not Move.objects.filter(game=game).exists()


def test_it_undoes_a_step(api_as, anna, ben):
    game = started_game(anna, ben, seed=7)
    acting, _ = acting_and_waiting(game, anna, ben)
    client = api_as(acting)
    state = game.load_state()
    undoable = next(
        a for a in rules.legal_actions(state) if rules.can_undo(rules.apply_action(state, a))
    )
    moved = client.post(f"/games/{game.pk}/move", {"action": undoable, "version": game.version})
    assert moved.status_code == 200
    assert client.get(f"/games/{game.pk}").json()["can_undo"]
    undone = client.post(f"/games/{game.pk}/undo", {"version": moved.json()["version"]})
    assert undone.status_code == 200, undone.content
    assert not Move.objects.filter(game=game).exists()


def test_a_private_game_is_not_found_by_outsiders(api_as, anna, ben, carla):
    from games import lobby

    game = lobby.create_game(anna, num_players=3, is_public=False)
    lobby.join(game, ben, token=game.invite_token)
    for client in (api_as(carla), api_as(None)):
        for path in ("", "/actions", "/log", "/talk", "/export"):
            response = client.get(f"/games/{game.pk}{path}")
            assert response.status_code == 404 and response.json()["code"] == "not_found", path
    assert api_as(ben).get(f"/games/{game.pk}").status_code == 200
    game.refresh_from_db()  # the link that seated Ben was used up; the creator shares a new one
    holder = api_as(carla).get(f"/games/{game.pk}", token=game.invite_token)
    assert holder.status_code == 200
    lobby.join(game, UserFactory(), token=game.invite_token)  # the table is full: it opens nothing
    assert api_as(carla).get(f"/games/{game.pk}", token=game.invite_token).status_code == 404


def test_a_revoked_token_is_refused_everywhere(api_as, anna, ben):
    from api import tokens

    game = started_game(anna, ben)
    made = tokens.create(anna, "old", "play")
    tokens.revoke(anna, made.token.pk)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {made.secret}"}
    from django.test import Client

    for path in ("/account", f"/games/{game.pk}", "/lobby"):
        response = Client().get(f"/api/v1{path}", **headers)
        assert response.status_code == 401 and response.json()["code"] == "unauthenticated"


def test_it_exports_only_finished_games(api_as, anna, ben):
    game = started_game(anna, ben)
    response = api_as(anna).get(f"/games/{game.pk}/export")
    assert response.status_code == 403 and response.json()["code"] == "not_over"
