"""The crafted requests that used to answer 500, and the access holes: each is now refused with
a clear message, and nothing is stored. (tests/web/test_fuzz.py throws random ones.)"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import forms as game_forms
from games import lobby
from games.models import Absence, Game, Move
from tests.web.helpers import HTMX, signed_in, started_game

# The English wording (the messages are lazy: worded in the language of the request).
MOVE_NOT_READ = str(game_forms.MOVE_NOT_READ)
VERSION_MISSING = str(game_forms.VERSION_MISSING)
VERSION_NOT_READ = str(game_forms.VERSION_NOT_READ)

pytestmark = pytest.mark.django_db


def snapshot(game: Game):
    return (
        Game.objects.filter(pk=game.pk).values().get(),
        list(Move.objects.filter(game_id=game.pk).values()),
    )


@pytest.fixture
def game(anna, ben):
    return started_game(anna, ben)


@pytest.fixture
def acting(game):
    return signed_in(game.seats.get(number=game.acting_seat).user)


def legal(game: Game) -> str:
    from games.rules.firenze import rules

    return json.dumps(rules.legal_actions(game.load_state())[0])


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("²", VERSION_NOT_READ),
        ("9" * 5000, VERSION_NOT_READ),
        ("٣", VERSION_NOT_READ),
        ("-1", VERSION_NOT_READ),
        ("1e3", VERSION_NOT_READ),
        ("", VERSION_MISSING),
    ],
)
@pytest.mark.parametrize("view", ["move", "undo"])
def test_it_refuses_an_unreadable_version(game, acting, view, version, message):
    before = snapshot(game)

    response = acting.post(
        reverse(f"games:{view}", args=[game.pk]), {"action": legal(game), "version": version}
    )

    assert response.status_code == 400
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert snapshot(game) == before


def test_a_move_without_a_version_is_refused(game, acting):
    before = snapshot(game)

    response = acting.post(reverse("games:move", args=[game.pk]), {"action": legal(game)}, **HTMX)

    assert VERSION_MISSING.replace("'", "&#x27;") in response.content.decode()
    assert snapshot(game) == before


@pytest.mark.parametrize("pk_offset", [0, 10_000])
def test_it_refuses_an_action_nested_thousands_deep_even_for_no_such_game(game, acting, pk_offset):
    nested = "[" * 5000 + "]" * 5000
    deep_object = '{"type": ' * 3000 + "1" + "}" * 3000
    for action in (nested, deep_object, json.dumps({"type": "x", "pad": "y" * 5000})):
        response = acting.post(
            reverse("games:move", args=[game.pk + pk_offset]),
            {"action": action, "version": game.version},
        )
        assert response.status_code == (400 if pk_offset == 0 else 404)
        if pk_offset == 0:
            assert MOVE_NOT_READ in response.content.decode()


@pytest.mark.parametrize(
    "action",
    [
        {"type": "pay_brick", "color": []},
        {"type": "play_card", "card": {}},
        {"type": "build", "color": {"x": [1]}},
        {"type": "choose_card", "slot": 10**30},
    ],
)
def test_it_refuses_values_of_the_wrong_type_with_the_engines_reason(game, acting, action):
    before = snapshot(game)

    response = acting.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
    )

    assert response.status_code == 400
    assert snapshot(game) == before


@pytest.mark.parametrize("cancel", ["abc", "", "²", "9" * 5000, "-3", "1.5"])
def test_it_refuses_a_bad_absence_to_cancel(anna, cancel):
    response = signed_in(anna).post(reverse("games:away"), {"cancel": cancel})

    assert response.status_code == 400
    assert "absence to cancel" in response.content.decode()


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "2026-02-30", "+12345-01-01"])
def test_it_refuses_absences_at_impossible_or_far_dates(anna, day):
    today = timezone.localdate()

    response = signed_in(anna).post(
        reverse("games:away"), {"first_day": today.isoformat(), "last_day": day}
    )

    assert response.status_code == 400
    assert not Absence.objects.exists()


def test_an_absence_at_most_two_years_ahead_is_fine_and_further_is_refused(anna):
    far = timezone.localdate() + timedelta(days=2 * 365 + 1)
    response = signed_in(anna).post(
        reverse("games:away"), {"first_day": far.isoformat(), "last_day": far.isoformat()}
    )

    assert response.status_code == 400
    assert "two years ahead" in response.content.decode()


def test_the_version_poll_of_a_private_game_answers_only_those_who_may_see_it(anna, ben, carla):
    private = lobby.create_game(anna, num_players=2, is_public=False)
    lobby.join(private, ben, token=private.invite_token)
    url = reverse("games:version", args=[private.pk])

    for stranger in (Client(), signed_in(carla)):
        assert stranger.get(url).status_code == 404
        assert stranger.get(url, {"token": "wrong"}).status_code == 404
    assert signed_in(ben).get(url).json()["version"] == 1
    # The table is full: the invite link opens nothing any more, its poll neither (issue 20).
    assert Client().get(url, {"token": private.invite_token}).status_code == 404
    bens_browser = signed_in(ben)
    page = bens_browser.get(reverse("games:detail", args=[private.pk]))
    poll = re.search(r'hx-get="([^"]*/version/[^"]*)"', page.content.decode()).group(1)
    assert f"{url}?v=1&amp;c=0&amp;p=" in poll
    # The page's own poll token answers its viewer; bound to their session (issue 18), it
    # opens nothing in another browser, and a made-up one nothing anywhere.
    page_token = re.search(r"p=([\w.]+)", poll).group(1)
    assert bens_browser.get(url, {"p": page_token}).json()["version"] == 1
    assert Client().get(url, {"p": page_token}).status_code == 404
    for stranger in (Client(), signed_in(carla)):
        assert stranger.get(url, {"p": "0" * 32}).status_code == 404
        assert stranger.get(url, {"p": page_token[:-1]}).status_code == 404
    # A public game's poll stays open to spectators.
    public = started_game(anna, ben)
    assert Client().get(reverse("games:version", args=[public.pk])).status_code == 200


def test_taking_a_seat_back_is_refused_to_those_without_a_seat_or_a_bot(game, carla, anna):
    refused = signed_in(carla).post(reverse("games:reclaim", args=[game.pk]), follow=True)

    page = refused.content.decode()
    assert "You have no seat in this game to take back." in page
    assert "Your seat is yours again" not in page
    own = signed_in(anna).post(reverse("games:reclaim", args=[game.pk]), follow=True)
    assert "The bot is not playing for you" in own.content.decode()


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(value=st.text(max_size=300) | st.sampled_from(["²", "٣", "9" * 5000, "-0", "1e3", "\x00"]))
def test_it_answers_any_lobby_page_or_poll_token_without_a_server_error(anna, ben, value):
    game = started_game(anna, ben)
    Game.objects.filter(pk=game.pk).update(is_public=False)  # its poll needs the page's token
    lobby_page = Client().get(reverse("games:lobby"), {"page": value})
    assert lobby_page.status_code == 200
    poll = Client().get(reverse("games:version", args=[game.pk]), {"p": value, "v": value})
    assert poll.status_code in (204, 400, 404)


# --- bodies in another charset, ids beyond the database, HEAD ---------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/login/", "/games/new/", "/games/1/move/", "/language/",
        "/no-such-page/", "/email/play/1/%C2%AA/", "/accounts/confirm-email/%00/",
    ],
)  # fmt: skip
def test_a_form_in_utf16_that_is_not_utf16_gets_a_clear_400_before_sign_in(settings, path):
    """The CSRF check reads the body first; Django's own 400 page ran it again (a 500), and
    its 404 page ran it while answering a path that names nothing (a 500 too)."""
    settings.DEBUG = False
    browser = Client(enforce_csrf_checks=True)
    browser.cookies["csrftoken"] = "a" * 32

    response = browser.generic(
        "POST",
        path,
        b"\xff\xfe\x00\xd8a=b",
        content_type="application/x-www-form-urlencoded; charset=utf-16",
    )

    assert response.status_code == 400
    assert "forms must be sent encoded as UTF-8" in response.content.decode()


@pytest.mark.parametrize("number", [2**63, 10**23])
def test_an_id_beyond_the_database_is_no_page(anna, settings, number):
    settings.DEBUG = False
    browser = signed_in(anna)
    for path in (f"/games/{number}/", f"/games/{number}/log/", f"/games/{number}/chat/"):
        assert browser.get(path).status_code == 404, path
    assert (
        browser.post(f"/games/{number}/move/", {"action": "{}", "version": "1"}).status_code == 404
    )


def test_every_page_answers_head_as_it_answers_get(game, acting):
    for path in ("/games/mine/", "/games/", f"/games/{game.pk}/", "/rules/", "/healthz", "/sw.js"):
        got, head = acting.get(path), acting.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        assert head["Content-Length"] == str(len(got.content)), path
        assert head["Content-Type"] == got["Content-Type"], path
