"""The game page: what players, spectators and anonymous visitors see; the action panel; htmx
and plain-form moves; undo; the cheap version poll; bots moving right after a player.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.models import Game, Move
from games.rules.firenze import rules
from tests.web.helpers import (
    HTMX,
    fast_forward,
    game_page,
    offered_actions,
    page_version,
    play_greedy,
    post_move,
    signed_in,
    started_game,
)

pytestmark = pytest.mark.django_db

OOB_PARTS = ["poller", "status", "board", "players", "log"]


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", args=[game.pk])


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).number


def hand_section(page: str) -> str | None:
    match = re.search(r'<ul class="hand">(.*?)</ul>', page, re.S)
    return match.group(1) if match else None


def posts_moves(page: str, game: Game) -> bool:
    return f'action="{url("move", game)}"' in page or f'action="{url("undo", game)}"' in page


def three_player_game(anna, ben, carla, moves: int = 0) -> Game:
    game = started_game(anna, ben, carla)
    if moves:
        fast_forward(game, moves)
    return game


# --- who sees what ---------------------------------------------------------------------------


def test_it_shows_each_player_the_board_the_players_and_their_own_hand(anna, ben, carla):
    game = three_player_game(anna, ben, carla, moves=60)
    state = game.load_state()

    for user in (anna, ben, carla):
        page = game_page(signed_in(user), game)
        seat = seat_of(game, user)
        assert 'id="board"' in page and 'id="players"' in page and 'id="log"' in page
        assert "Your hand" in page
        mine = re.findall(r"<strong>(?:<(?:a|button) [^>]*>)?([^<]+)<", hand_section(page))
        assert mine == sorted(rules.player_view(state, seat)["players"][seat]["hand"])
        assert page.count("(you)") == 1
        for other in (anna, ben, carla):
            assert other.display_name in page
        is_acting = seat == game.acting_seat
        assert ("Your turn" in page) == is_acting
        assert posts_moves(page, game) == is_acting


@pytest.mark.parametrize("who", ["spectator", "anonymous"])
def test_it_shows_a_public_game_to_spectators_and_anonymous_visitors_without_hand_or_actions(
    client, anna, ben, carla, dario, who
):
    game = three_player_game(anna, ben, carla, moves=60)
    browser = signed_in(dario) if who == "spectator" else client

    page = game_page(browser, game)

    assert 'id="board"' in page and 'id="players"' in page and 'id="log"' in page
    assert "Your hand" not in page and hand_section(page) is None
    assert "(you)" not in page and "Your turn" not in page
    assert not posts_moves(page, game)
    assert offered_actions(page) == []
    acting = game.seats.get(number=game.acting_seat)
    assert f"<strong>{acting.name}</strong> is playing." in page


def test_it_hides_an_invite_only_game_in_progress_from_everyone_but_its_players(
    client, anna, ben, dario
):
    game = started_game(anna, ben)
    Game.objects.filter(pk=game.pk).update(is_public=False)

    assert client.get(url("detail", game)).status_code == 404
    assert signed_in(dario).get(url("detail", game)).status_code == 404
    assert signed_in(dario).get(url("detail", game), **HTMX).status_code == 404
    assert signed_in(ben).get(url("detail", game)).status_code == 200


def test_it_answers_an_htmx_refresh_with_the_game_partial_and_a_boosted_one_with_the_page(
    anna, ben
):
    game = started_game(anna, ben)
    browser = signed_in(anna)

    partial = browser.get(url("detail", game), **HTMX).content.decode()
    boosted = browser.get(url("detail", game), HTTP_HX_BOOSTED="true", **HTMX).content.decode()

    assert re.match(r'\s*<title>[^<]+</title>\s*<div id="game"', partial)
    assert "<html" not in partial and "<body" not in partial
    assert "<html" in boosted and 'id="game"' in boosted


# --- the action panel ------------------------------------------------------------------------


def test_it_offers_exactly_the_engines_legal_actions_to_the_acting_player_and_none_to_others(
    client, anna, ben, carla, dario
):
    """Checked at the first position of every phase and pending decision of a long game."""
    game = started_game(anna, ben, carla)
    browsers = {seat_of(game, u): signed_in(u) for u in (anna, ben, carla)}
    watchers = [signed_in(dario), client]
    seen: set[tuple] = set()

    def situation(state: rules.State) -> tuple:
        view = rules.player_view(state, None)
        return view["phase"], (view["pending"] or {}).get("kind")

    while True:  # to the first position of a new situation, or to the end
        fast_forward(game, until=lambda s: situation(s) not in seen)
        state = game.load_state()
        if rules.is_over(state):
            break
        seen.add(situation(state))
        legal = rules.legal_actions(state)
        page = game_page(browsers[game.acting_seat], game)
        assert offered_actions(page) == legal
        assert page_version(page) == game.version
        assert "<h2>Other</h2>" not in page  # every action has a proper label
        others = [b for seat, b in browsers.items() if seat != game.acting_seat] + watchers
        page = game_page(others[len(seen) % len(others)], game)  # each in turn
        assert offered_actions(page) == []
        assert not posts_moves(page, game)
    assert {"choose", "exchange", "build", "fulfil"} <= {phase for phase, _ in seen}
    assert {"card_cost", "build_cost", "event"} <= {pending for _, pending in seen}


def test_it_answers_an_htmx_move_with_the_panel_and_the_other_parts_out_of_band(anna, ben):
    game = started_game(anna, ben)
    acting = game.seats.get(number=game.acting_seat).user
    state = game.load_state()
    action = rules.legal_actions(state)[0]

    response = post_move(signed_in(acting), game, action, game.version)

    assert response.status_code == 200
    body = response.content.decode()
    assert re.match(r'\s*<title>[^<]+</title>\s*<section id="panel"', body)
    assert "<html" not in body and "<body" not in body
    for part in OOB_PARTS:
        assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true"', body), part
    assert 'id="panel" class="panel" hx-swap-oob' not in body  # the panel is the target itself
    game.refresh_from_db()
    assert game.version == 2
    assert game.state == rules.to_dict(rules.apply_action(state, action))
    assert list(game.moves.values_list("seq", "action")) == [(1, action)]
    assert f"?v={game.version}" in body  # the poller now waits for the next change
    if game.acting_seat == seat_of(game, acting):
        assert page_version(body) == game.version
        assert offered_actions(body) == rules.legal_actions(game.load_state())


def test_it_redirects_a_plain_form_move_to_the_game_page(anna, ben):
    game = started_game(anna, ben)
    browser = signed_in(game.seats.get(number=game.acting_seat).user)
    action = rules.legal_actions(game.load_state())[0]

    response = post_move(browser, game, action, game.version, htmx=False)

    assert response.status_code == 302
    assert response["Location"] == url("detail", game)
    assert game.moves.count() == 1
    game.refresh_from_db()
    assert page_version(game_page(browser, game)) == game.version == 2


# --- undo ------------------------------------------------------------------------------------


def test_it_does_not_offer_undo_when_the_engine_does_not_allow_it(anna, ben):
    game = started_game(anna, ben)
    browser = signed_in(game.seats.get(number=game.acting_seat).user)
    assert not rules.can_undo(game.load_state())

    page = game_page(browser, game)
    assert f'action="{url("undo", game)}"' not in page

    response = browser.post(url("undo", game), {"version": game.version})
    assert response.status_code == 409
    assert "That step cannot be taken back" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize("htmx", [True, False])
def test_it_offers_undo_while_the_engine_allows_it_and_restores_the_previous_position(
    anna, ben, htmx
):
    game = started_game(anna, ben)
    humans = {seat_of(game, anna): anna, seat_of(game, ben): ben}
    fast_forward(game, 300, until=lambda s: s.step > 0 and rules.can_undo(s))
    state = game.load_state()
    assert rules.can_undo(state)
    actions = list(game.moves.values_list("action", flat=True))
    before = game.replayed_state(actions[:-1])
    browser = signed_in(humans[game.acting_seat])
    page = game_page(browser, game)
    assert f'action="{url("undo", game)}"' in page
    others = signed_in(humans[1 - game.acting_seat])
    assert f'action="{url("undo", game)}"' not in game_page(others, game)

    headers = HTMX if htmx else {}
    response = browser.post(url("undo", game), {"version": game.version}, **headers)

    version = game.version
    game.refresh_from_db()
    assert game.state == rules.to_dict(before)
    assert game.version == version + 1
    assert list(game.moves.values_list("action", flat=True)) == actions[:-1]
    if htmx:
        assert response.status_code == 200
        body = response.content.decode()
        assert re.match(r'\s*<title>[^<]+</title>\s*<section id="panel"', body)
    else:
        assert response.status_code == 302
        assert response["Location"] == url("detail", game)
        body = game_page(browser, game)
    assert offered_actions(body) == rules.legal_actions(before)
    assert page_version(body) == game.version
    undo_offered = f'action="{url("undo", game)}"' in body
    assert undo_offered == rules.can_undo(before)


# --- the version poll ------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["player", "anonymous"])
def test_it_answers_the_version_poll_with_204_when_unchanged_in_one_query(
    client, anna, ben, django_assert_num_queries, monkeypatch, who
):
    game = started_game(anna, ben)
    browser = signed_in(anna) if who == "player" else client

    def no_state(*args, **kwargs):
        raise AssertionError("the poll must not load the game state")

    monkeypatch.setattr(Game, "load_state", no_state)
    monkeypatch.setattr(rules, "from_dict", no_state)
    with django_assert_num_queries(1) as queries:
        response = browser.get(url("version", game), {"v": game.version})

    assert response.status_code == 204
    assert response.content == b""
    assert "state" not in queries.captured_queries[0]["sql"].lower()
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("who", ["player", "anonymous"])
def test_it_answers_the_version_poll_with_json_and_an_htmx_trigger_when_changed(
    client, anna, ben, django_assert_num_queries, monkeypatch, who
):
    game = started_game(anna, ben)
    seen = game.version
    play_greedy(game, 3)
    browser = signed_in(ben) if who == "player" else client
    monkeypatch.setattr(Game, "load_state", lambda self: pytest.fail("state loaded"))

    with django_assert_num_queries(1) as queries:
        response = browser.get(url("version", game), {"v": seen})

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    answer = json.loads(response.content)
    assert answer == {"version": game.version, "chat": 0} and answer["version"] == seen + 3
    assert response["HX-Trigger"] == "game-changed"
    assert "state" not in queries.captured_queries[0]["sql"].lower()

    first = browser.get(url("version", game))  # no version yet: just the number
    assert json.loads(first.content) == {"version": game.version, "chat": 0}
    assert "HX-Trigger" not in first
    garbled = browser.get(url("version", game), {"v": "x"})
    assert garbled.status_code == 200 and garbled["HX-Trigger"] == "game-changed"


def test_it_answers_the_version_poll_of_a_missing_game_with_404(client):
    assert client.get(reverse("games:version", args=[999]), {"v": 1}).status_code == 404


def test_it_lets_other_players_pages_follow_the_game_by_polling_within_ten_seconds(anna, ben):
    game = started_game(anna, ben)
    mover = game.seats.get(number=game.acting_seat).user
    watcher = signed_in(ben if mover == anna else anna)
    page = game_page(watcher, game)
    poller = re.search(r'<div id="poller"[^>]*>', page).group(0)
    # The player's poll also says whose it is (o=, games.presence: no alarm while it polls).
    polled = f"{url('version', game)}?v={game.version}&amp;c={game.chat_version}&amp;o="
    assert f'hx-get="{polled}' in poller
    every = int(re.search(r'hx-trigger="every (\d+)s[,"]', poller).group(1))
    assert every <= 10
    assert re.search(r'<div id="game"[^>]*hx-trigger="game-changed from:body"', page)
    assert watcher.get(url("version", game), {"v": page_version_of(page)}).status_code == 204

    action = rules.legal_actions(game.load_state())[0]
    assert post_move(signed_in(mover), game, action, game.version).status_code == 200

    poll = watcher.get(url("version", game), {"v": page_version_of(page)})
    assert poll.status_code == 200 and poll["HX-Trigger"] == "game-changed"
    refreshed = watcher.get(url("detail", game), **HTMX).content.decode()
    assert page_version_of(refreshed) == page_version_of(page) + 1
    assert action_log_line_count(refreshed) > action_log_line_count(page)


def page_version_of(page: str) -> int:
    return int(re.search(r'data-version="(\d+)"', page).group(1))


def action_log_line_count(page: str) -> int:
    return page.count('<span class="log-text">')


def test_it_stops_polling_once_the_game_is_over(anna, ben):
    game = started_game(anna, ben)
    fast_forward(game)
    assert game.is_finished

    page = game_page(signed_in(anna), game)

    assert "Game over" in page and "winner-badge" in page
    poller = re.search(r'<div id="poller"[^>]*>', page).group(0)
    assert "hx-get" not in poller and "every" not in poller
    assert not posts_moves(page, game)


# --- bots ------------------------------------------------------------------------------------


def test_it_lets_a_bot_seat_play_right_after_the_previous_move_via_the_celery_task(
    anna, django_capture_on_commit_callbacks, monkeypatch
):
    import games.tasks

    runs = []
    real_run_bots = games.tasks.run_bots

    def spy(game_id, *args, **kwargs):
        runs.append(game_id)
        return real_run_bots(game_id, *args, **kwargs)

    monkeypatch.setattr(games.tasks, "run_bots", spy)
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(anna, bots=1)
    game.refresh_from_db()
    mine = seat_of(game, anna)
    assert game.acting_seat == mine  # a bot that starts has already moved
    runs.clear()
    browser = signed_in(anna)

    for _ in range(200):  # Anna plays her turn through the page until it passes
        game.refresh_from_db()
        before = game.moves.count()
        action = greedy_step(game)
        with django_capture_on_commit_callbacks(execute=True):
            response = post_move(browser, game, action, game.version)
        assert response.status_code == 200
        if game.moves.filter(seq__gt=before + 1).exists():
            break
        assert runs == []  # no bots' task while Anna still acts (executed callbacks run them)
    else:
        raise AssertionError("Anna's turn never passed")

    assert runs == [game.pk]  # the bots' task ran once, right after the move was committed
    game.refresh_from_db()
    bot_moves = game.moves.filter(seq__gt=before + 1)
    assert bot_moves.exists()
    assert set(bot_moves.values_list("by_bot", flat=True)) == {True}
    assert set(bot_moves.values_list("seat", flat=True)) == {1 - mine}
    assert game.acting_seat == mine or game.is_finished
    assert game.version == Move.objects.filter(game=game).count() + 1


def greedy_step(game: Game) -> dict:
    import random

    from games.rules.firenze.rules.bots import greedy

    return greedy(game.load_state(), random.Random(game.version))
