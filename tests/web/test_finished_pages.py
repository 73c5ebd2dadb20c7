"""A finished game looks finished (issue 20): whatever ended it (its last round, a resignation,
a timeout on autopilot), the page offers no move and none of the hints about the next turn."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games.resign import resign
from tests.web.helpers import (
    board_actions,
    fast_forward,
    game_page,
    offered_actions,
    play_greedy,
    post_move,
    signed_in,
    started_game,
)

pytestmark = pytest.mark.django_db

LIVE_HINTS = ["next balcony", "changed in", "costs 1 brick", "Your turn.", "↶ Undo"]


def test_it_offers_no_move_and_no_live_hint_after_a_resignation(anna, ben):
    game = started_game(anna, ben, seed=7)
    play_greedy(game, 30)
    game.refresh_from_db()
    acting = game.seats.get(number=game.acting_seat).user
    other = ben if acting == anna else anna
    before = game_page(signed_in(acting), game)
    # The hints exist mid-game.
    assert offered_actions(before) and "next balcony" in html.unescape(before)

    resign(game.pk, other)  # the acting player is left mid-turn: the game ends at once

    raw = game_page(signed_in(acting), game)
    page = html.unescape(raw)
    assert "Game over" in page
    assert offered_actions(raw) == [] and board_actions(raw) == []
    assert 'id="move-form"' not in page
    for hint in LIVE_HINTS:
        assert hint not in page, hint


def test_it_offers_no_move_after_the_last_round(anna, ben):
    game = started_game(anna, ben, seed=3)
    fast_forward(game)
    assert game.is_finished
    for browser in (signed_in(anna), signed_in(ben)):
        raw = game_page(browser, game)
        page = html.unescape(raw)
        assert offered_actions(raw) == [] and board_actions(raw) == []
        assert "next balcony" not in page and "all balconies taken" not in page


def test_a_move_posted_to_a_finished_game_is_refused_without_controls(anna, ben):
    game = started_game(anna, ben, seed=7)
    resign(game.pk, ben)
    response = signed_in(anna).post(
        reverse("games:move", args=[game.pk]),
        {"action": '{"type":"end_turn"}', "version": game.version + 1},
        HTTP_HX_REQUEST="true",
    )
    raw = response.content.decode()
    assert "This game is over" in html.unescape(raw) and offered_actions(raw) == []


def test_it_says_why_undo_is_gone_after_a_card_was_revealed(anna, ben):
    from games.rules.firenze import rules as firenze

    game = started_game(anna, ben, seed=7)
    acting = game.seats.get(number=game.acting_seat).user
    browser = signed_in(acting)
    page = game_page(browser, game)
    assert "No undo" not in html.unescape(page)  # nothing to take back yet
    state = game.load_state()
    for action in offered_actions(page):
        after = firenze.apply_action(state, action)
        if firenze.acting_seat(after) == game.acting_seat and not firenze.can_undo(after):
            break
    else:
        pytest.fail("no step that draws at random was offered")
    post_move(browser, game, action, game.version)
    page = html.unescape(game_page(browser, game))
    assert "↶ Undo" not in page
    assert "No undo: your last step revealed something new" in page
