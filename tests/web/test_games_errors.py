"""Refused moves and undos: illegal, malformed, out of turn, not in the game, no such game,
finished, not started, stale version.

Every refusal leaves the game row and its moves exactly as they were. An htmx client gets 200
with the fresh panel (message on top) and the out-of-band parts; a plain client gets the whole
page with the message and the status: 400 bad move, 403 not yours, 404 no game, 409 moved on.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import lobby
from games import play as play_module
from games.models import Game, Move
from games.rules.firenze import rules
from tests.web.helpers import (
    HTMX,
    fast_forward,
    offered_actions,
    page_version,
    signed_in,
)
from tests.web.helpers import started_game as start

STALE = str(play_module.STALE)  # the English wording (the message is lazy)

pytestmark = pytest.mark.django_db

NOT_READ = "The move could not be read; reload the page and try again."
NOT_AN_OBJECT = 'A move must be an object with a "type", for example {"type": "end_phase"}.'
NOT_YOUR_TURN = "It is not your turn."
NOT_PLAYING = "You are not playing in this game."
SIGN_IN = "Sign in to play."
OVER = "This game is over; no more moves can be made."
NOT_STARTED = "This game has not started yet."
NO_UNDO = "That step cannot be taken back: something hidden or random followed."


@pytest.fixture
def game(anna, ben):
    """A two-player game some way in, with moves on record."""
    game = start(anna, ben)
    fast_forward(game, 25)
    return game


def snapshot(game: Game) -> tuple[dict, list[dict]]:
    """Everything stored about a game: its row and its moves."""
    row = Game.objects.filter(pk=game.pk).values().get()
    moves = list(Move.objects.filter(game_id=game.pk).order_by("seq").values())
    return row, moves


def acting_user(game: Game):
    return game.seats.get(number=game.acting_seat).user


def waiting_user(game: Game):
    return game.seats.exclude(number=game.acting_seat).get().user


def post(browser, game_id: int, data: dict, *, htmx: bool, view: str = "move"):
    headers = HTMX if htmx else {}
    return browser.post(reverse(f"games:{view}", args=[game_id]), data, **headers)


def move_data(action, version: int) -> dict:
    return {"action": action if isinstance(action, str) else json.dumps(action), "version": version}


def assert_refused(response, message: str, *, htmx: bool, status: int) -> str:
    """The refusal as the player sees it; returns the response body."""
    body = response.content.decode()
    if htmx:
        assert response.status_code == 200
        assert re.match(r'\s*<title>[^<]+</title>\s*<section id="panel"', body)
        assert "<html" not in body
        for part in ("poller", "status", "board", "players", "log"):
            assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true"', body), part
    else:
        assert response.status_code == status
        assert "<html" in body
    panel = re.search(r'<section id="panel".*?</section>', body, re.S).group(0)
    assert f'<p class="error" role="alert">{escape(message)}</p>' in panel
    return body


HTMX_OR_NOT = pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])


# --- bad moves -------------------------------------------------------------------------------


ILLEGAL = [
    {"type": "choose_card", "slot": 99},  # no such slot
    {"type": "build", "color": "black"},  # no such colour
    {"type": "play_card", "card": "Pope"},  # no such card
    {"type": "end_turn", "extra": 1},  # an extra key
    {"type": "teleport"},  # no such action
]
MALFORMED = [
    ("{not json", NOT_READ),
    ("", NOT_READ),
    ("null", NOT_READ),
    ("[1, 2]", NOT_AN_OBJECT),
    ('"end_turn"', NOT_AN_OBJECT),
    ("{}", NOT_AN_OBJECT),
    ('{"type": 5}', NOT_AN_OBJECT),
]


@HTMX_OR_NOT
def test_it_refuses_an_illegal_move_with_the_engines_reason(game, htmx):
    before = snapshot(game)
    browser = signed_in(acting_user(game))

    for action in ILLEGAL:
        with pytest.raises(rules.IllegalAction) as reason:
            rules.apply_action(game.load_state(), action)

        response = post(browser, game.pk, move_data(action, game.version), htmx=htmx)

        body = assert_refused(response, str(reason.value), htmx=htmx, status=400)
        assert snapshot(game) == before, action
        assert offered_actions(body) == rules.legal_actions(game.load_state())  # try again
        assert page_version(body) == game.version


@HTMX_OR_NOT
def test_it_refuses_a_malformed_move(game, htmx):
    before = snapshot(game)
    browser = signed_in(acting_user(game))

    for raw, message in MALFORMED:
        response = post(browser, game.pk, move_data(raw, game.version), htmx=htmx)

        assert_refused(response, message, htmx=htmx, status=400)
        assert snapshot(game) == before, raw


@HTMX_OR_NOT
def test_it_refuses_a_move_without_an_action_field(game, htmx):
    before = snapshot(game)
    browser = signed_in(acting_user(game))

    response = post(browser, game.pk, {"version": game.version}, htmx=htmx)

    assert_refused(response, NOT_READ, htmx=htmx, status=400)
    assert snapshot(game) == before


@HTMX_OR_NOT
def test_it_refuses_a_move_out_of_turn(game, htmx):
    before = snapshot(game)
    action = rules.legal_actions(game.load_state())[0]  # legal, but for the other player
    browser = signed_in(waiting_user(game))

    response = post(browser, game.pk, move_data(action, game.version), htmx=htmx)

    body = assert_refused(response, NOT_YOUR_TURN, htmx=htmx, status=409)
    assert snapshot(game) == before
    assert offered_actions(body) == []


@HTMX_OR_NOT
@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_it_refuses_a_move_from_someone_not_in_the_game(game, client, carla, htmx, who):
    before = snapshot(game)
    action = rules.legal_actions(game.load_state())[0]
    browser = signed_in(carla) if who == "outsider" else client

    response = post(browser, game.pk, move_data(action, game.version), htmx=htmx)

    message = NOT_PLAYING if who == "outsider" else SIGN_IN
    body = assert_refused(response, message, htmx=htmx, status=403)
    assert snapshot(game) == before
    assert offered_actions(body) == []


@HTMX_OR_NOT
def test_it_answers_a_move_for_no_such_game_with_404(game, htmx):
    before = snapshot(game)
    browser = signed_in(acting_user(game))
    action = rules.legal_actions(game.load_state())[0]

    response = post(browser, game.pk + 1000, move_data(action, game.version), htmx=htmx)
    undo = post(browser, game.pk + 1000, {"version": game.version}, htmx=htmx, view="undo")

    assert response.status_code == 404
    assert undo.status_code == 404
    assert snapshot(game) == before


@HTMX_OR_NOT
def test_it_answers_a_move_in_an_invite_only_game_of_others_with_404(game, carla, htmx):
    Game.objects.filter(pk=game.pk).update(is_public=False)
    before = snapshot(game)
    action = rules.legal_actions(game.load_state())[0]

    response = post(signed_in(carla), game.pk, move_data(action, game.version), htmx=htmx)

    assert response.status_code == 404
    assert snapshot(game) == before


def test_it_refuses_moves_and_undo_in_a_finished_game(anna, ben):
    game = start(anna, ben)
    fast_forward(game)
    assert game.is_finished
    before = snapshot(game)
    last = game.moves.last()
    browser = signed_in(game.seats.get(number=last.seat).user)

    for htmx in (True, False):
        response = post(browser, game.pk, move_data({"type": "end_turn"}, game.version), htmx=htmx)
        body = assert_refused(response, OVER, htmx=htmx, status=409)
        assert "Game over" in body
        response = post(browser, game.pk, {"version": game.version}, htmx=htmx, view="undo")
        assert_refused(response, OVER, htmx=htmx, status=409)
    assert snapshot(game) == before


@HTMX_OR_NOT
def test_it_refuses_a_move_before_the_game_has_started(anna, ben, htmx):
    game = lobby.create_game(anna, num_players=2, auto_start=False)
    lobby.join(game, ben)
    before = snapshot(game)

    response = post(signed_in(anna), game.pk, move_data({"type": "end_turn"}, 0), htmx=htmx)

    assert response.status_code == (200 if htmx else 409)
    assert NOT_STARTED in response.content.decode()
    assert snapshot(game) == before


@HTMX_OR_NOT
def test_it_refuses_a_move_against_a_stale_version_and_shows_the_current_position(game, htmx):
    before = snapshot(game)
    browser = signed_in(acting_user(game))
    action = rules.legal_actions(game.load_state())[0]

    response = post(browser, game.pk, move_data(action, game.version - 1), htmx=htmx)

    body = assert_refused(response, STALE, htmx=htmx, status=409)
    assert snapshot(game) == before
    assert page_version(body) == game.version
    assert offered_actions(body) == rules.legal_actions(game.load_state())


def test_it_refuses_every_kind_of_bad_move_for_the_same_reasons_in_any_order(game, carla):
    """A sweep: each refusal is independent of the ones before it."""
    before = snapshot(game)
    acting, waiting = signed_in(acting_user(game)), signed_in(waiting_user(game))
    legal = rules.legal_actions(game.load_state())[0]
    cases = [
        (acting, move_data("{oops", game.version), 400),
        (waiting, move_data(legal, game.version), 409),
        (signed_in(carla), move_data(legal, game.version), 403),
        (acting, move_data(legal, game.version + 7), 409),
        (acting, move_data({"type": "choose_card", "slot": -1}, game.version), 400),
    ]
    for browser, data, status in cases * 2:
        assert post(browser, game.pk, data, htmx=False).status_code == status
    assert snapshot(game) == before


# --- bad undos -------------------------------------------------------------------------------


@pytest.fixture
def undoable(anna, ben):
    """A game where the acting player may take back their last step."""
    game = start(anna, ben)
    fast_forward(game, 300, until=lambda s: s.step > 0 and rules.can_undo(s))
    assert rules.can_undo(game.load_state())
    return game


@HTMX_OR_NOT
def test_it_refuses_undo_out_of_turn_from_outsiders_and_against_a_stale_version(
    undoable, client, carla, htmx
):
    game = undoable
    before = snapshot(game)
    cases = [
        (signed_in(waiting_user(game)), game.version, NOT_YOUR_TURN, 409),
        (signed_in(carla), game.version, NOT_PLAYING, 403),
        (client, game.version, SIGN_IN, 403),
        (signed_in(acting_user(game)), game.version - 1, STALE, 409),
    ]
    for browser, version, message, status in cases:
        response = post(browser, game.pk, {"version": version}, htmx=htmx, view="undo")
        assert_refused(response, message, htmx=htmx, status=status)
        assert snapshot(game) == before


@HTMX_OR_NOT
def test_it_refuses_undo_when_the_engine_does_not_allow_it(game, htmx):
    fast_forward(game, 300, until=lambda s: not rules.can_undo(s) and s.step > 25)
    before = snapshot(game)

    response = post(
        signed_in(acting_user(game)), game.pk, {"version": game.version}, htmx=htmx, view="undo"
    )

    assert_refused(response, NO_UNDO, htmx=htmx, status=409)
    assert snapshot(game) == before


def test_it_answers_get_requests_to_move_and_undo_with_405(game):
    browser = signed_in(acting_user(game))
    assert browser.get(reverse("games:move", args=[game.pk])).status_code == 405
    assert browser.get(reverse("games:undo", args=[game.pk])).status_code == 405


# --- the engine's reason in the player's language ----------------------------------------------


def _in_build_phase_without(state) -> bool:
    """The acting player builds, and lacks some colour in the storehouse."""
    view = rules.player_view(state, None)
    return (
        view["phase"] == "build"
        and not view["pending"]
        and any(
            not rules.to_dict(state)["players"][view["acting_seat"]]["store"][c] for c in range(6)
        )
    )


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "You have no %s brick in your storehouse."),
        ("de", "Du hast keinen Baustein (%s) in deinem Lager."),
    ],
)
def test_it_words_a_refused_move_in_the_players_language(anna, ben, language, reason):
    game = start(anna, ben)
    fast_forward(game, until=_in_build_phase_without)
    state = game.load_state()
    store = rules.to_dict(state)["players"][game.acting_seat]["store"]
    missing = next(c for c in range(6) if not store[c])
    colour = ("white", "yellow", "green", "red", "blue", "purple")[missing]
    player = acting_user(game)
    player.language = language
    player.save(update_fields=["language"])
    before = snapshot(game)

    response = post(
        signed_in(player),
        game.pk,
        move_data({"type": "build", "color": colour}, game.version),
        htmx=True,
    )

    german = {"white": "weiß", "yellow": "gelb", "green": "grün", "red": "rotbraun", "blue": "blau"}
    named = german.get(colour, "violett") if language == "de" else colour
    assert_refused(response, reason % named, htmx=True, status=400)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "You can only build in the build phase; this is the choose a card phase."),
        (
            "de",
            "Bauen kannst du nur in der Phase „Türme bauen“; jetzt ist die Phase „Karte wählen“.",
        ),
    ],
)
def test_it_names_the_phases_as_the_phase_strip_does(anna, ben, language, reason):
    game = start(anna, ben)  # the first player chooses a card
    player = acting_user(game)
    player.language = language
    player.save(update_fields=["language"])

    response = post(
        signed_in(player),
        game.pk,
        move_data({"type": "build", "color": "white"}, game.version),
        htmx=True,
    )

    assert_refused(response, reason, htmx=True, status=400)
