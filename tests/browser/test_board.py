"""Playing by clicking the board (issue 9): a row card to take it, a storehouse brick to pay
with it or start a tower, a tower to add a brick, a commission square to fulfil it; on a
desktop and on a phone. Plus what the page shows while doing so: the card being paid for,
"1 of 2 paid", the cost of the next brick.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Move
from games.rules.firenze import rules
from tests.browser.helpers import (
    act,
    board_button,
    board_offers,
    click_board,
    first,
    low_contrast_buttons,
    overflow,
    play_greedily_until,
    screenshot,
    started_game,
    user,
    viewport_screenshot,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def offered_on_board(page, **match):
    return next(
        (a for a in board_offers(page) if all(a.get(k) == v for k, v in match.items())), None
    )


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_whole_turn_can_be_played_by_clicking_the_board(new_page, phone):
    anna = user("anna")
    game = started_game(anna, bots=1, seed=31)
    page = new_page(phone=phone, user=anna)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#status")).to_contain_text("Your turn")
    name = "phone" if phone else "desktop"
    viewport_screenshot(page, f"{name}-board-01-choose")

    # Choose: the second card costs one brick. Clicking it asks for the payment.
    second = page.locator("#board .card-row .row-slot").nth(1)
    card = second.locator(".card-name").inner_text()
    take = {"type": "choose_card", "slot": 1}
    board_button(page, take).scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    click_board(page, take)
    # The page stays where the player is looking (no jump to the log or to the panel after
    # the update). Read once the page has taken the update in: game.js gives the focus to the
    # panel (the pressed card is gone) a moment after the swap, and that focus must not scroll.
    expect(page.locator("#panel")).to_be_focused()
    assert abs(page.evaluate("window.scrollY") - scrolled) < 50
    expect(second).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator("#panel .payment")).to_contain_text(f"Pay for {card}")
    expect(page.locator("#panel .payment")).to_contain_text("0 of 1 paid")
    viewport_screenshot(page, f"{name}-board-02-paying")
    assert not low_contrast_buttons(page)  # the brick buttons' letters read on every colour
    # A storehouse brick is the payment.
    pay = offered_on_board(page, type="pay_brick")
    assert pay is not None, board_offers(page)
    click_board(page, pay)
    if first(page, type="resolve_event"):
        act(page, first(page, type="resolve_event"))
    expect(page.locator("#log")).to_contain_text(f"Anna takes {card} (2nd card)")

    # Exchange: skip it (the panel's button).
    act(page, first(page, type="end_phase"))

    # Build: a storehouse brick starts a tower, a click on the tower adds to it.
    start = offered_on_board(page, type="build")
    assert start is not None and "color" in start, board_offers(page)
    tower_button = board_button(page, start)
    assert "1st brick this turn: free" in tower_button.get_attribute("title")
    click_board(page, start)
    towers = page.locator("#players .player.me .site-tower")
    expect(towers).to_have_count(1)
    grow = offered_on_board(page, type="build", tower=0)
    if grow is not None:
        assert "2nd brick this turn: free" in board_button(page, grow).get_attribute("title")
        expect(page.locator("#panel .cost-table td.next")).to_have_count(2)
        viewport_screenshot(page, f"{name}-board-03-building")
        click_board(page, grow)
        expect(towers.first.locator(".brick")).to_have_count(2)
    width = overflow(page)
    assert width[0] <= width[1], f"horizontal overflow: {width}"

    act(page, first(page, type="end_phase"))
    while (pay := offered_on_board(page, type="pay_brick")) is not None:
        click_board(page, pay)
    while (end := first(page, type="end_turn")) is None:
        act(page, first(page, type="end_phase") or first(page, type="discard_card"))
    act(page, end)
    screenshot(page, f"{name}-board-04-turn-done")

    anna_seat = game.seats.get(user=anna).number
    mine = list(
        Move.objects.filter(game=game, seat=anna_seat)
        .order_by("seq")
        .values_list("action", flat=True)
    )
    assert take in mine and start in mine
    assert any(a["type"] == "pay_brick" for a in mine)


def test_a_commission_is_fulfilled_by_clicking_its_square(new_page):
    anna = user("anna")
    game = started_game(anna, bots=1, seed=5)

    def can_fulfil(state, seat):
        return any(a["type"] == "fulfil" for a in rules.legal_actions(state))

    game = play_greedily_until(game, anna, can_fulfil)
    fulfil = next(a for a in rules.legal_actions(game.load_state()) if a["type"] == "fulfil")
    page = new_page(user=anna)
    page.goto(f"/games/{game.pk}/")
    square = board_button(page, fulfil)
    expect(square).to_have_count(1)
    screenshot(page, "desktop-board-05-fulfil")

    click_board(page, fulfil)

    expect(page.locator("#log")).to_contain_text("Anna fulfils")
    # The new seal is highlighted as the last turn's change.
    expect(page.locator("#board .storey.changed .seal")).not_to_have_count(0)
