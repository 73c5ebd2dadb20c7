"""'What if' after the game: from a finished game's replay, another line is tried in a sandbox
of the full state and compared with what was played; an unfinished game has none."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

from games.play import move
from tests.web.helpers import HTMX, board_actions, fast_forward, offered_actions, started_game
from tests.web.test_games_secrecy import hands_shown
from tests.web.test_plans_nim import nim_game, seated
from tests.web.test_plans_sandbox import MOVE_FORM

pytestmark = pytest.mark.django_db


def finished(nim, anna, ben):
    """Five stones: the first mover takes 2 and ends; the other takes the last 3 and wins."""
    game = nim_game(nim, anna, ben, stones=5)
    first, second = seated(game)
    move(game.pk, first, {"type": "take", "n": 2}, None)
    move(game.pk, first, {"type": "end_turn"}, None)
    move(game.pk, second, {"type": "take", "n": 3}, None)
    game.refresh_from_db()
    assert game.is_finished
    return game, first, second


def url(game) -> str:
    return reverse("plans:what_if", args=[game.pk])


def test_it_tries_another_line_and_compares_it_with_what_was_played(client, nim, anna, ben):
    game, first, _second = finished(nim, anna, ben)
    client.force_login(first)
    page = client.get(url(game), {"step": "0"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Take 2" in text and "End the turn" in text  # what was played, in the intent's words
    tried = client.post(
        url(game), {"step": "0", "steps": "[]", "add": json.dumps({"type": "take", "n": 3})}
    )
    text = tried.content.decode()
    assert tried.status_code == 200 and "Take 3" in text
    assert "after your line: 0; after what was played: 0" in text
    undone = client.post(url(game), {"step": "0", "steps": '[{"type":"take","n":3}]', "do": "undo"})
    assert "No step taken yet." in undone.content.decode()


def test_it_answers_htmx_with_the_sandbox_alone(client, nim, anna, ben):
    game, first, _second = finished(nim, anna, ben)
    page = client.get(url(game), {"step": "0"}, headers={"HX-Request": "true"})
    text = page.content.decode()
    assert page.status_code == 200 and text.lstrip().startswith('<div id="what-if">')


def test_it_refuses_a_step_the_sandbox_never_allowed(client, nim, anna, ben):
    game, _first, _second = finished(nim, anna, ben)
    bad = client.post(url(game), {"step": "0", "steps": '[{"type":"take","n":9}]'})
    assert bad.status_code == 400 and "Step 1 is not possible" in bad.content.decode()
    beyond = client.get(url(game), {"step": "99"})
    assert beyond.status_code == 400 and "There is no step 99" in beyond.content.decode()
    unread = client.get(url(game), {"step": "x"})
    assert unread.status_code == 400


@pytest.mark.parametrize("who", ["anonymous", "outsider", "seated"])
def test_it_opens_for_anyone_only_once_the_game_is_over(client, nim, anna, ben, carla, who):
    """A finished game's replay is public, so is its "what if"; an unfinished game has none,
    for anyone, with a message that says why (404)."""
    going = nim_game(nim, anna, ben, stones=9)
    acting, waiting = seated(going)
    users = {"anonymous": None, "outsider": carla, "seated": waiting}
    if users[who] is not None:
        client.force_login(users[who])
    refused = client.get(url(going), {"step": "0"})
    assert refused.status_code == 404 and "only once the game is over" in refused.content.decode()
    game, _first, _second = finished(nim, anna, ben)
    assert client.get(url(game), {"step": "0"}).status_code == 200


def test_it_refuses_the_acting_player_of_a_game_in_progress(client, nim, anna, ben):
    going = nim_game(nim, anna, ben, stones=9)
    acting, _waiting = seated(going)
    client.force_login(acting)
    refused = client.post(url(going), {"step": "0", "steps": "[]"})
    assert refused.status_code == 404
    for view in ("what_if_step", "what_if_undo"):  # the board's step and undo alike
        target = reverse(f"plans:{view}", args=[going.pk]) + "?step=0"
        action = json.dumps({"type": "take", "n": 1})
        refused = client.post(target, {"action": action, "version": going.version})
        assert refused.status_code == 404
        assert "only once the game is over" in refused.content.decode()
    assert going.moves.count() == 0  # nothing reached the game


def test_the_replay_links_to_what_if_from_its_step(client, nim, anna, ben):
    game, _first, _second = finished(nim, anna, ben)
    page = client.get(reverse("games:replay", args=[game.pk]), {"step": "1"})
    assert f"{url(game)}?step=1" in page.content.decode()


HOSTILE = ["", "x", "-1", "1e309", "9" * 5000, "[" * 3000, '{"a":' * 2000, "null", "[]",
           '[{"type":"take","n":3}]', '{"type":"take","n":1}', "\x00", "²"]  # fmt: skip


def test_it_never_answers_5xx_to_hostile_what_if_requests(client, nim, anna, ben):
    """The what-if of a finished game (the site-wide fuzz holds no finished game) and its
    board's step and undo, by hostile POSTs and GETs with hostile addresses, with and without
    htmx: never a 5xx, the game's log unchanged."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    game, _first, _second = finished(nim, anna, ben)
    moves = list(game.moves.order_by("seq").values_list("seq", "action"))
    value = st.sampled_from(HOSTILE) | st.text(max_size=30)
    names = ["step", "steps", "add", "do", "action", "version", "x"]
    fields = st.dictionaries(st.sampled_from(names), value)
    address = st.dictionaries(st.sampled_from(["step", "steps"]), value)
    views = st.sampled_from(["what_if", "what_if_step", "what_if_undo"])

    @settings(max_examples=90, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
    @given(view=views, query=address, data=fields, htmx=st.booleans(), post=st.booleans())
    def fuzz(view, query, data, htmx, post):
        headers = {"HX-Request": "true"} if htmx else {}
        send = client.post if post else client.get
        target = reverse(f"plans:{view}", args=[game.pk]) + "?" + urlencode(query)
        answer = send(target, data, headers=headers)
        assert answer.status_code < 500, (view, query, data)

    fuzz()
    assert list(game.moves.order_by("seq").values_list("seq", "action")) == moves


def both_holding(game) -> tuple[int, list[list[str]]]:
    """The finished Firenze game's first replay step where both players hold cards, with
    their hands then."""
    engine, state = game.engine, game.initial_state()
    for step, action in enumerate(game.moves.order_by("seq").values_list("action", flat=True)):
        hands = [sorted(p["hand"]) for p in engine.to_dict(state)["players"]]
        if all(hands):
            return step, hands
        state = engine.apply_action(state, action)
    raise AssertionError("no step where both hold cards")


def board_of(page: str) -> str:
    """The drawn board and players (their stores and building sites), whether in the page or
    swapped in beside the panel."""
    drawn = "".join(
        re.search(rf'<section id="{part}".*?</section>', page, re.S).group(0)
        for part in ("board", "players")
    )
    return " ".join(drawn.replace('hx-swap-oob="true"', "").split())


def test_it_draws_the_board_with_every_hand_at_the_chosen_step(client, anna, ben):
    """The game is over: the what-if draws the game's board at the replay's step, both hands
    face up, and its board and panel post to the what-if, never to the game."""
    game = started_game(anna, ben, seed=31)
    fast_forward(game)
    step, hands = both_holding(game)
    page = client.get(url(game), {"step": str(step)}).content.decode()
    assert 'id="board"' in page and 'class="skyline"' in page and 'id="panel"' in page
    assert len(hands) == 2 and hands_shown(page) == hands
    assert offered_actions(page) or board_actions(page)
    step_url = reverse("plans:what_if_step", args=[game.pk])
    assert html.unescape(MOVE_FORM.search(page).group(1)) == f"{step_url}?step={step}"
    assert reverse("games:move", args=[game.pk]) not in page


def test_a_step_on_the_board_redraws_it_and_the_game_is_unchanged(
    client, anna, ben, django_assert_max_num_queries
):
    game = started_game(anna, ben, seed=31)
    fast_forward(game)
    before = list(game.moves.order_by("seq").values_list("seq", "action"))
    version, stored = game.version, game.state
    with django_assert_max_num_queries(3):  # the page's cost budget
        page = client.get(url(game), {"step": "4"}).content.decode()
    action = board_actions(page)[0]  # a piece drawn on the board, clicked
    target = html.unescape(MOVE_FORM.search(page).group(1))
    with django_assert_max_num_queries(3):  # the step's cost budget
        answer = client.post(
            target, {"action": json.dumps(action), "version": game.version}, **HTMX
        )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert text.lstrip().startswith('<section id="panel"')
    assert 'id="board" class="board' in text and board_of(text) != board_of(page)
    assert 'id="what-if-lines"' in text and 'hx-swap-oob="true"' in text  # the lines beside
    address = parse_qs(urlsplit(answer["HX-Replace-Url"]).query)  # a reload keeps the line
    assert address["step"] == ["4"] and json.loads(address["steps"][0]) == [action]
    reloaded = client.get(answer["HX-Replace-Url"]).content.decode()
    assert board_of(reloaded) == board_of(text)
    undo = re.search(r'action="([^"]*/what-if/undo/[^"]*)"', text).group(1)
    back = client.post(html.unescape(undo), {"version": game.version})  # without scripts
    assert back.status_code == 302 and back["Location"] == f"{url(game)}?step=4"
    refused = client.post(target, {"action": json.dumps({"type": "nope"}), "version": 1})
    assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()
    game.refresh_from_db()
    assert game.version == version and game.state == stored
    assert list(game.moves.order_by("seq").values_list("seq", "action")) == before
