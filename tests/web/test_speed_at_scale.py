"""Speed at scale (issue 11), as players notice it: the poll answered from the shared cache, the
game page kept per game version and viewer (and never shown to another seat), 304 for a page
the browser has, a lobby read a page at a time from its index, a sweep that reads only due
games. The timings themselves are in `make bench` (bench/serve_bench.py), never in a test."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import lobby, pagecache, versions
from games.models import Game
from games.rules.firenze import rules
from tests.web.helpers import HTMX, play_greedy, post_move, signed_in, started_game

pytestmark = pytest.mark.django_db


def detail(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def poll(game: Game) -> str:
    return reverse("games:version", args=[game.pk])


def acting_user(game: Game):
    return game.seats.get(number=game.acting_seat).user


def hands_shown(body: str) -> list[list[str]]:
    """The card names in every "Your hand" list of a page."""
    return [
        re.findall(r"<strong>(?:<(?:a|button) [^>]*>)?([^<]+)<", section)
        for section in re.findall(r'<ul class="hand">(.*?)</ul>', body, re.S)
    ]


@pytest.fixture
def game(anna, ben):
    return started_game(anna, ben, seed=11)


@pytest.fixture
def full_hands(anna, ben, carla):
    """Three players each holding cards, a person to act."""
    game = started_game(anna, ben, carla, seed=5)

    def ready(state: rules.State) -> bool:
        hands = [len(p["hand"]) for p in rules.to_dict(state)["players"]]
        return min(hands) >= 1 and bool(rules.legal_actions(state))

    play_greedy(game, 1500, until=ready)
    game.refresh_from_db()
    assert ready(game.load_state())
    return game


def move_and_commit(game: Game, capture) -> None:
    """The acting player makes the first offered move; its commit callbacks run."""
    game.refresh_from_db()
    action = rules.legal_actions(game.load_state())[0]
    with capture(execute=True):
        answer = post_move(signed_in(acting_user(game)), game, action, game.version)
    assert answer.status_code == 200
    game.refresh_from_db()


# --- the version poll ---------------------------------------------------------------------


def test_it_answers_an_unchanged_poll_without_any_database_query(
    game, ben, django_assert_num_queries, django_capture_on_commit_callbacks
):
    move_and_commit(game, django_capture_on_commit_callbacks)
    seen = {"v": game.version, "c": game.chat_version}
    for browser in (Client(), signed_in(ben)):  # a session cookie is not even read
        with django_assert_num_queries(0):
            assert browser.get(poll(game), seen).status_code == 204


def test_it_tells_the_poll_about_a_move_as_soon_as_it_commits(
    game, django_assert_num_queries, django_capture_on_commit_callbacks
):
    before = game.version
    move_and_commit(game, django_capture_on_commit_callbacks)
    with django_assert_num_queries(0):
        answer = Client().get(poll(game), {"v": before, "c": 0})
    assert answer.status_code == 200 and answer["HX-Trigger"] == "game-changed"
    assert answer.json() == {"version": before + 1, "chat": 0}


def test_it_answers_a_private_games_poll_from_its_page_token_without_the_session(
    anna, ben, carla, django_assert_num_queries
):
    private = lobby.create_game(anna, num_players=2, is_public=False)
    lobby.join(private, ben, token=private.invite_token)
    private.refresh_from_db()
    player = signed_in(ben)
    page = player.get(detail(private)).content.decode()
    token = re.search(r"/version/\?[^\"]*p=([\w.]+)", page).group(1)
    assert versions.valid_poll_token(private.pk, player.cookies["sessionid"].value, token)
    player.get(poll(private), {"p": token})  # fills the cache
    with django_assert_num_queries(0):
        assert player.get(poll(private), {"v": private.version, "p": token}).status_code == 204
    assert signed_in(carla).get(poll(private), {"p": token}).status_code == 404


# --- the game page from the cache ---------------------------------------------------------


def test_it_never_shows_a_seats_cached_page_to_another_seat_or_a_watcher(
    full_hands, anna, ben, carla, dario, django_capture_on_commit_callbacks
):
    game = full_hands
    state = rules.to_dict(game.load_state())
    # The players' pages are drawn ahead (as after a move), then every viewer asks for theirs.
    assert pagecache.draw_players_pages(game.pk) == 3
    for user in (anna, ben, carla):
        seat = game.seats.get(user=user).number
        browser = signed_in(user)
        for headers in ({}, HTMX):
            for _ in range(2):  # drawn ahead (htmx) or now, then cached: the same hand
                body = browser.get(detail(game), **headers).content.decode()
                assert hands_shown(body) == [sorted(state["players"][seat]["hand"])]
    for watcher in (signed_in(dario), Client()):
        for headers in ({}, HTMX):
            assert hands_shown(watcher.get(detail(game), **headers).content.decode()) == []


def test_it_draws_a_page_once_per_version_and_viewer(game, anna, monkeypatch):
    from games import views

    drawn = []
    real = views.render_game_page

    def counting(request, game, seats, partial):
        drawn.append((request.user.pk, partial))
        return real(request, game, seats, partial)

    monkeypatch.setattr(views, "render_game_page", counting)
    browser = signed_in(anna)
    first = browser.get(detail(game)).content.decode()
    again = browser.get(detail(game)).content.decode()
    assert drawn == [(anna.pk, None)]
    # Same page, each with a working CSRF token of its own (no placeholder left over).
    assert pagecache.CSRF_PLACEHOLDER not in again
    assert re.search(r'name="csrfmiddlewaretoken" value="\w{64}"', again)
    assert first.count("csrfmiddlewaretoken") == again.count("csrfmiddlewaretoken")


def test_it_answers_304_to_a_browser_that_has_the_page(game, anna):
    browser = signed_in(anna)
    first = browser.get(detail(game))
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"] and "no-store" not in first["Cache-Control"]
    again = browser.get(detail(game), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert browser.get(detail(game), HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_it_gives_each_seat_and_watcher_its_own_etag(game, anna, ben, dario):
    tags = {
        name: browser.get(detail(game))["ETag"]
        for name, browser in {
            "anna": signed_in(anna),
            "ben": signed_in(ben),
            "watcher": signed_in(dario),
            "visitor": Client(),
        }.items()
    }
    assert len(set(tags.values())) == 4, tags
    # Anna's tag does not let Ben's browser skip his own page.
    assert signed_in(ben).get(detail(game), HTTP_IF_NONE_MATCH=tags["anna"]).status_code == 200


def test_it_changes_the_etag_with_a_move_and_with_table_talk(
    game, anna, ben, django_capture_on_commit_callbacks
):
    browser = signed_in(anna)
    etag = browser.get(detail(game))["ETag"]
    move_and_commit(game, django_capture_on_commit_callbacks)
    after_move = browser.get(detail(game), HTTP_IF_NONE_MATCH=etag)
    assert after_move.status_code == 200 and after_move["ETag"] != etag
    etag = after_move["ETag"]
    said = signed_in(ben).post(reverse("chat:post", args=[game.pk]), {"text": "Nice"}, **HTMX)
    assert said.status_code == 200
    after_talk = browser.get(detail(game), HTTP_IF_NONE_MATCH=etag)
    assert after_talk.status_code == 200 and after_talk["ETag"] != etag
    assert "Nice" in after_talk.content.decode()


def test_it_draws_the_table_talk_fresh_on_a_cached_page(game, anna, ben):
    signed_in(ben).post(reverse("chat:post", args=[game.pk]), {"text": "Hello Anna"}, **HTMX)
    browser = signed_in(anna)
    first = browser.get(detail(game)).content.decode()
    assert "1 unread" in first and "Hello Anna" in first
    again = browser.get(detail(game)).content.decode()  # the page itself is cached
    assert "unread" not in again and "Hello Anna" in again
    assert pagecache.CHAT_PLACEHOLDER not in again


def test_it_shows_flash_messages_on_the_page_even_when_it_is_cached(game, anna):
    browser = signed_in(anna)
    browser.get(detail(game))
    answer = browser.post(reverse("games:resign", args=[game.pk]), {"confirm": "on"}, follow=True)
    assert answer.status_code == 200
    assert "You resigned this game." in answer.content.decode()


# --- the lobby ----------------------------------------------------------------------------


def open_games(creator, count: int) -> list[Game]:
    """``count`` open public games, "Table 0" the newest."""
    now = timezone.now()
    games = Game.objects.bulk_create(
        Game(creator=creator, num_players=3, name=f"Table {i}") for i in range(count)
    )
    for i, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(created=now - timedelta(minutes=i))
    return games


def listed(page: str) -> list[str]:
    return re.findall(r">(Table \d+)</a>", page)


def test_it_shows_the_lobby_a_page_at_a_time_newest_first(anna, ben):
    open_games(anna, 30)
    hidden = lobby.create_game(anna, num_players=2, is_public=False, name="Table secret")
    started_game(anna, ben)
    lobby_url = reverse("games:lobby")

    first = Client().get(lobby_url).content.decode()
    assert listed(first) == [f"Table {i}" for i in range(25)]
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = Client().get(lobby_url, {"page": 2}).content.decode()
    assert listed(second) == [f"Table {i}" for i in range(25, 30)]
    assert 'href="?page=1"' in second and "page=3" not in second
    for wrong, shows in (("abc", first), ("99", second), ("-1", second)):
        answer = Client().get(lobby_url, {"page": wrong})
        assert answer.status_code == 200 and listed(answer.content.decode()) == listed(shows)
    assert hidden.title not in first + second


def _plan(queryset) -> str:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET enable_seqscan = off")  # a test table is tiny
    return queryset.explain()


def test_it_reads_the_lobby_from_its_index_in_order(anna):
    from games.listings import lobby_games

    open_games(anna, 30)
    plan = _plan(lobby_games()[:50])
    assert "game_lobby" in plan, plan
    assert "TEMP B-TREE" not in plan.upper() and "Sort" not in plan, plan


def test_it_finds_due_games_from_the_partial_indexes_without_sorting(anna, ben):
    started_game(anna, ben)
    now = timezone.now()
    games = Game.objects.order_by()
    for queryset, index in (
        (games.filter(deadline__lte=now), "game_deadline_running"),
        (games.filter(next_reminder_at__lte=now, deadline__gt=now), "game_reminder_pending"),
    ):
        plan = _plan(queryset.values_list("pk", flat=True))
        assert index in plan, plan
        assert "TEMP B-TREE" not in plan.upper() and "Sort" not in plan, plan


def test_it_serves_the_players_pages_drawn_after_a_move_without_drawing_them_again(
    game, anna, ben, monkeypatch, django_capture_on_commit_callbacks
):
    from games import views

    move_and_commit(game, django_capture_on_commit_callbacks)  # its commit draws the pages
    drawn = []
    real = views.render_game_page
    monkeypatch.setattr(
        views, "render_game_page", lambda *args: drawn.append(args[3]) or real(*args)
    )
    for user in (anna, ben):
        assert signed_in(user).get(detail(game), **HTMX).status_code == 200
    assert drawn == []  # both htmx parts came from the cache
    signed_in(anna).get(detail(game))
    assert drawn == [None]  # the whole page is drawn on its first view


def test_it_draws_a_german_players_page_ahead_in_german(
    game, anna, ben, monkeypatch, django_capture_on_commit_callbacks
):
    from games import views

    ben.language = "de"
    ben.save(update_fields=["language"])
    move_and_commit(game, django_capture_on_commit_callbacks)
    drawn = []
    real = views.render_game_page
    monkeypatch.setattr(
        views, "render_game_page", lambda *args: drawn.append(args[3]) or real(*args)
    )
    body = signed_in(ben).get(detail(game), **HTMX).content.decode()
    assert drawn == []  # drawn ahead, in the language Ben reads
    assert 'lang="de"' in signed_in(ben).get(detail(game)).content.decode()
    assert "Protokoll" in body or "Zug" in body


def test_it_draws_the_lobby_once_until_an_open_game_changes(
    anna, ben, django_assert_num_queries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = lobby.create_game(anna, num_players=3, name="Table first")
    lobby_url = reverse("games:lobby")
    assert "1 of 3 seats taken" in Client().get(lobby_url).content.decode()
    with django_assert_num_queries(0):  # every later visitor gets the drawn list
        assert "Table first" in Client().get(lobby_url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        lobby.join(first, ben)
    assert "2 of 3 seats taken" in Client().get(lobby_url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        lobby.create_game(ben, num_players=2, name="Table second")
    page = Client().get(lobby_url).content.decode()
    assert page.index("Table second") < page.index("Table first")
