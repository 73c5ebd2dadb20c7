"""The planning sandbox draws the game's own board and action panel, from the waiting seat's
view: its forms post to the sandbox, steps come back by htmx as a real move's do, refusals are
the real turn's, and nothing reaches the game; no other seat's hand or the deck order shows."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Game, Move
from games.rules.firenze import rules
from tests.web.helpers import (
    HTMX,
    board_actions,
    offered_actions,
    play_greedy,
    signed_in,
    started_game,
)
from tests.web.test_games_secrecy import hands_shown, normalised, scrambled

pytestmark = pytest.mark.django_db

MOVE_FORM = re.compile(r'<form id="move-form" method="post" action="([^"]+)"')


def waiting_game(*users):
    """A two-player game a few turns in (hands hold cards), a person waiting."""
    game = started_game(*users, seed=31)
    play_greedy(game, 400, until=lambda s: s.turn_no >= 5 and s._d["phase"] == "choose")
    game.refresh_from_db()
    acting = game.seats.get(number=game.acting_seat).user
    waiting = next(u for u in users if u != acting)
    return game, acting, waiting


def move_url(page: str) -> str:
    return html.unescape(MOVE_FORM.search(page).group(1))


def snapshot(game: Game) -> tuple:
    row = Game.objects.filter(pk=game.pk).values("version", "state", "acting_seat").get()
    return row, list(Move.objects.filter(game=game).values_list("seq", "action"))


def test_it_draws_the_games_board_and_panel_posting_to_the_sandbox(anna, ben):
    game, _acting, waiting = waiting_game(anna, ben)
    page = signed_in(waiting).get(reverse("plans:plan", args=[game.pk])).content.decode()
    assert 'id="board"' in page and 'class="skyline"' in page and 'id="panel"' in page
    assert offered_actions(page) and board_actions(page)  # the panel's and the board's choices
    assert move_url(page) == reverse("plans:sandbox", args=[game.pk])
    assert reverse("games:move", args=[game.pk]) not in page
    seat = game.seats.get(user=waiting).number
    assert hands_shown(page) == [sorted(game.state["players"][seat]["hand"])]


def test_it_takes_and_undoes_steps_by_htmx_and_nothing_reaches_the_game(
    anna, ben, django_assert_max_num_queries
):
    game, _acting, waiting = waiting_game(anna, ben)
    before = snapshot(game)
    browser = signed_in(waiting)
    page = browser.get(reverse("plans:plan", args=[game.pk])).content.decode()
    taken = []
    for _ in range(3):
        offers = offered_actions(page)
        if not offers:
            break
        with django_assert_max_num_queries(9):  # the step's cost budget
            answer = browser.post(
                move_url(page), {"action": json.dumps(offers[0]), "version": game.version}, **HTMX
            )
        assert answer.status_code == 200
        page = answer.content.decode()
        assert page.lstrip().startswith('<section id="panel"')
        assert 'id="board"' in page and 'hx-swap-oob="true"' in page  # board swapped beside
        taken.append(offers[0])
        address = parse_qs(urlsplit(answer["HX-Replace-Url"]).query)  # a reload keeps it
        assert json.loads(address["steps"][0]) == taken
    assert len(taken) >= 2 and page.count("<li>") >= len(taken)
    undo = re.search(r'action="([^"]*/plan/sandbox/undo/[^"]*)"', page).group(1)
    answer = browser.post(html.unescape(undo), {"version": game.version}, **HTMX)
    assert answer.status_code == 200
    assert snapshot(game) == before  # the game's version, state and move log are untouched


def test_it_refuses_as_a_real_turn_would_and_starts_again_when_the_game_moved(anna, ben):
    game, acting, waiting = waiting_game(anna, ben)
    browser = signed_in(waiting)
    url = reverse("plans:sandbox", args=[game.pk])
    bad = {"type": "build", "color": "red", "tower": 7}
    refused = browser.post(url, {"action": json.dumps(bad), "version": game.version})
    assert refused.status_code == 400
    with pytest.raises(rules.IllegalAction) as real:  # what the real turn would say
        rules.apply_action(game.load_state(), bad)
    assert html.escape(game.engine.refusal_text(real.value)) in refused.content.decode()
    action = json.dumps(rules.legal_actions(game.load_state())[0])
    stale = browser.post(url, {"action": action, "version": game.version - 1})
    assert stale.status_code == 409 and "The game moved on" in stale.content.decode()
    unread = browser.post(url + "?steps=%5B%5B%5B", {"action": action, "version": game.version})
    assert unread.status_code == 400
    assert browser.get(reverse("plans:plan", args=[game.pk]), {"steps": "nope"}).status_code == 400
    mine = signed_in(acting).post(url, {"action": action, "version": game.version})
    assert mine.status_code == 409


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_it_keeps_the_sandbox_from_anyone_but_a_seated_player(client, anna, ben, carla, who):
    game, _acting, _waiting = waiting_game(anna, ben)
    if who == "outsider":
        client.force_login(carla)
    steps = "?steps=" + json.dumps([rules.legal_actions(game.load_state())[0]])
    for name in ("plans:sandbox", "plans:sandbox_undo"):
        for headers in ({}, HTMX):
            answer = client.post(
                reverse(name, args=[game.pk]) + steps, {"version": game.version}, **headers
            )
            if who == "anonymous":
                assert answer.status_code == 302
            elif headers:  # htmx: sent to the planning page, which says there is no such game
                assert answer.status_code == 200 and "HX-Redirect" in answer
            else:
                assert answer.status_code == 404


def test_it_shows_no_other_hand_and_no_deck_order_in_the_sandbox(anna, ben):
    """Scrambling what the waiting seat cannot see (the other hand, the deck) leaves every
    sandbox page the same: it is drawn from the seat's view alone."""
    game, _acting, waiting = waiting_game(anna, ben)
    seat = game.seats.get(user=waiting).number
    browser = signed_in(waiting)
    plan = reverse("plans:plan", args=[game.pk])

    def pages() -> list[str]:
        cache.clear()  # the board fragment is cached per version
        page = browser.get(plan).content.decode()
        seen = [normalised(page)]
        for _ in range(3):
            offers = offered_actions(page)
            if not offers:
                break
            answer = browser.post(
                move_url(page), {"action": json.dumps(offers[0]), "version": game.version}
            )
            page = browser.get(answer["Location"]).content.decode()
            seen.append(normalised(page))
        return seen

    truth = game.state
    shown = pages()
    assert len(shown) >= 3
    hidden = scrambled(truth, seat, random.Random(5))
    Game.objects.filter(pk=game.pk).update(state=hidden, seed=hidden["seed"])
    assert pages() == shown


def test_it_shows_a_card_the_sandbox_would_draw_as_unknown_and_offers_nothing_on_it(anna, ben):
    """Taking a card refills the row from the deck, which the seat cannot see: the sandbox
    shows the new card face down and offers no step on it, so a plan stops before it."""
    game, _acting, waiting = waiting_game(anna, ben)
    browser = signed_in(waiting)
    page = browser.get(reverse("plans:plan", args=[game.pk])).content.decode()
    assert "A card you cannot know yet" not in page
    take = next(a for a in offered_actions(page) if a["type"] == "choose_card")
    answer = browser.post(move_url(page), {"action": json.dumps(take), "version": game.version})
    page = browser.get(answer["Location"]).content.decode()
    assert page.count("A card you cannot know yet") == 1
    last = len(game.state["row"]) - 1  # the refill comes in at the end of the row
    offered = offered_actions(page) + board_actions(page)
    assert offered and not [a for a in offered if a.get("slot") == last]
