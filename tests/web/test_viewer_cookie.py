"""The signed viewer cookie that lets a signed-in page read its session and everything else in
one Redis round trip (firenze_site.viewer_cookie, firenze_site.prefetch): the session stays the
authority. A missing, stale, copied or forged cookie costs a second round trip and is put right;
it never shows one player another player's page; a session that is gone or no longer valid
gets a visitor's page and loses the cookie."""

from __future__ import annotations

import re

import pytest
from django.core import signing
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firenze_site import viewer_cookie
from firenze_site.sessions import SessionStore
from games import pagecache
from tests.factories import PASSWORD
from tests.web.helpers import HTMX, signed_in, started_game
from tests.web.test_page_round_trips import (  # noqa: F401 - fixtures
    costs,
    redis_url,
    shared_redis,
    warm,
)

# Counted against the round trip tests' real redis-server.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shared_redis")]

CSRF = re.compile(rb'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
NAME = viewer_cookie.NAME


@pytest.fixture
def game(anna, ben):
    return started_game(anna, ben, seed=11)


def page(response) -> bytes:
    """The page as every request of the same browser gets it (the CSRF token masked anew)."""
    assert response.status_code == 200
    return CSRF.sub(rb"\1", response.content)


def slot(game, user, partial: str | None) -> bytes:
    """The name of the user's page of the game in the cache, as sent to Redis."""
    return pagecache.slot(game.pk, user.pk, partial).encode()


def claimed_by(browser: Client) -> int | None:
    """The user id the browser's viewer cookie names (None once deleted)."""
    request = HttpRequest()
    morsel = browser.cookies.get(NAME)
    request.COOKIES = {NAME: morsel.value} if morsel is not None else {}
    return viewer_cookie.claimed(request)


def signed_cookie(user_id: object, salt: str = viewer_cookie.SALT) -> str:
    return signing.Signer(salt=salt).sign(str(user_id))


def test_it_sets_the_cookie_at_sign_in_and_deletes_it_at_sign_out(anna):
    browser = Client()
    assert claimed_by(browser) is None

    browser.post("/accounts/login/", {"login": anna.email, "password": PASSWORD})
    assert claimed_by(browser) == anna.pk

    browser.post("/accounts/logout/")
    assert claimed_by(browser) is None


def test_it_reads_the_session_and_the_page_together_once_the_cookie_is_set(game, anna):
    browser = signed_in(anna)
    url = reverse("games:detail", args=[game.pk])
    warm(browser, url)
    del browser.cookies[NAME]  # lost, or from before the cookie existed

    with costs() as (without, _):
        first = page(browser.get(url))
    with costs() as (with_it, _):
        again = page(browser.get(url))

    assert len(without) == 2 and b"firenze.session" in without[0] and b"game-page" in without[1]
    assert claimed_by(browser) == anna.pk
    assert len(with_it) == 1 and again == first


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx part"])
def test_it_never_serves_a_page_of_the_player_the_cookie_names_instead(game, anna, ben, headers):
    url = reverse("games:detail", args=[game.pk])
    bens = signed_in(ben)
    warm(bens, url, **headers)  # Ben's page is in the cache, and his cookie in his browser
    browser = signed_in(anna)
    warm(browser, url, **headers)
    own, etag = page(browser.get(url, **headers)), browser.get(url, **headers)["ETag"]
    assert own != page(bens.get(url, **headers))

    browser.cookies[NAME] = bens.cookies[NAME].value  # Ben's own cookie, copied
    with costs() as (sent, _):
        response = browser.get(url, **headers)

    assert page(response) == own and response["ETag"] == etag
    partial = "game" if headers else None
    assert b"firenze.session" in sent[0] and slot(game, ben, partial) in sent[0]
    assert len(sent) == 2 and slot(game, anna, partial) in sent[1]  # her own, read anew
    assert claimed_by(browser) == anna.pk


@pytest.mark.parametrize(
    "forged",
    [
        lambda ben: str(ben.pk),  # unsigned
        lambda ben: signed_cookie(ben.pk, salt="another purpose"),
        lambda ben: signed_cookie(ben.pk)[:-2] + "xx",  # tampered signature
        lambda ben: signed_cookie("not a number"),
    ],
    ids=["unsigned", "other salt", "tampered", "not an id"],
)
def test_it_ignores_a_forged_cookie(game, anna, ben, forged):
    url = reverse("games:detail", args=[game.pk])
    warm(signed_in(ben), url)
    browser = signed_in(anna)
    warm(browser, url)
    own = page(browser.get(url))

    browser.cookies[NAME] = forged(ben)
    with costs() as (sent, _):
        response = browser.get(url)

    assert page(response) == own
    assert slot(game, ben, None) not in b"".join(sent)
    assert claimed_by(browser) == anna.pk


def gone(browser: Client, anna) -> None:
    """The browser's session ends elsewhere (signed out on another device)."""
    SessionStore(browser.cookies["sessionid"].value).delete()


def password_changed(browser: Client, anna) -> None:
    """The password is changed on another device: this session's hash no longer holds."""
    anna.set_password("another-password-77")
    anna.save()


@pytest.mark.parametrize("ended", [gone, password_changed], ids=["session gone", "hash stale"])
def test_it_serves_a_visitor_page_and_deletes_the_cookie_once_the_session_is_over(
    game, anna, client, ended
):
    url = reverse("games:detail", args=[game.pk])
    browser = signed_in(anna)
    warm(browser, url)
    warm(client, url)
    visitors = page(client.get(url))
    assert claimed_by(browser) == anna.pk and page(browser.get(url)) != visitors

    ended(browser, anna)
    response = browser.get(url)

    assert page(response) == visitors
    assert claimed_by(browser) is None


def test_it_leaves_the_cookie_alone_on_a_request_that_never_reads_its_session(game, anna):
    browser = signed_in(anna)
    warm(browser, reverse("games:detail", args=[game.pk]))
    cookie = browser.cookies[NAME].value

    response = browser.get(reverse("games:version", args=[game.pk]), {"v": game.version})

    assert response.status_code == 204 and NAME not in response.cookies
    assert browser.cookies[NAME].value == cookie


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.text(max_size=300) | st.from_regex(r"\A[0-9]{1,40}:[\w-]{0,60}\Z"))
def test_it_reads_any_cookie_value_as_a_user_or_nobody_without_failing(value):
    request = HttpRequest()
    request.COOKIES[NAME] = value
    claimed = viewer_cookie.claimed(request)
    assert claimed is None or (isinstance(claimed, int) and signing.Signer(
        salt=viewer_cookie.SALT).unsign(value) == str(claimed))  # fmt: skip


def test_it_serves_the_page_to_a_hostile_viewer_cookie_without_a_500(anna, game):
    player = signed_in(anna)
    player.raise_request_exception = False
    for value in ("\x00", "é" * 5000, "1:" + "a" * 4000, "9" * 40 + ":x", '"; Path=/'):
        player.cookies[NAME] = value
        answer = player.get(reverse("games:detail", args=[game.pk]))
        assert answer.status_code == 200, value[:20]
