"""What a waiting player's browser shows (issue 9): the tab title follows the game after a live
refresh, and Back never shows a stale position whose buttons would be refused."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import play
from games.rules.firenze import rules
from tests.browser.helpers import started_game, user, user_of_seat, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finish_turn(game, person) -> None:
    """``person`` plays the rest of their turn with the simplest moves."""
    seat = game.acting_seat
    while True:
        game.refresh_from_db()
        if game.acting_seat != seat:
            return
        state = game.load_state()
        legal = rules.legal_actions(state)
        action = next(
            (a for a in legal if a["type"] in ("end_turn", "end_phase", "resolve_event")),
            next((a for a in legal if a["type"] == "choose_card"), legal[0]),
        )
        play.submit_move(game.pk, person, action, game.version)


def test_a_waiting_players_tab_says_your_turn_when_it_comes(new_page):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=3)
    mover = user_of_seat(game, game.acting_seat)
    waiter = user_of_seat(game, 1 - game.acting_seat)
    page = new_page(user=waiter)
    page.goto(f"/games/{game.pk}/")
    expect(page).to_have_title(f"Game {game.pk}: {mover.display_name} to play · Firenze")

    finish_turn(game, mover)

    # The poll (every 5 s) notices, the page refreshes itself, the title follows.
    expect(page).to_have_title(re.compile(r"^\(Your turn\) "))
    expect(page.locator("#status")).to_contain_text("Your turn")


def test_back_shows_the_current_position_not_a_stale_one(new_page):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=4)
    mover = user_of_seat(game, game.acting_seat)
    page = new_page(user=mover)
    page.goto(f"/games/{game.pk}/")
    seen = version(page)
    page.click("text=Rules")
    page.wait_for_url("**/rules/")

    action = next(a for a in rules.legal_actions(game.load_state()) if a["type"] == "choose_card")
    play.submit_move(game.pk, mover, action, game.version)  # from another tab, say
    game.refresh_from_db()

    page.go_back()
    page.wait_for_url(f"**/games/{game.pk}/")
    page.wait_for_load_state()
    # At once, not after the next poll: the page came from the server, not the cache.
    assert version(page) == game.version > seen


def test_a_page_restored_from_the_back_forward_cache_reloads_itself(new_page):
    """Chromium under Playwright never restores from its back/forward cache, so the restore
    is simulated: the event a restored page gets must bring the current position."""
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=4)
    mover = user_of_seat(game, game.acting_seat)
    page = new_page(user=mover)
    page.goto(f"/games/{game.pk}/")
    seen = version(page)
    action = next(a for a in rules.legal_actions(game.load_state()) if a["type"] == "choose_card")
    play.submit_move(game.pk, mover, action, game.version)
    game.refresh_from_db()

    with page.expect_navigation():
        page.evaluate(
            "() => window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"
        )

    assert version(page) == game.version > seen
