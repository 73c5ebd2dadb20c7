"""The issue's scenario in a real browser: sign up, create a game against a bot, take a card,
build, end the turn and see the board change; plus the phone layout and the poll that lets a
second player's page follow a move.

Screenshots of the key steps go to test-artifacts/screenshots/ (desktop 1280x900 and phone
390x844, full page).
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import (
    TIMEOUT_MS,
    act,
    first,
    offered,
    screenshot,
    started_game,
    user,
    user_of_seat,
    version,
)
from tests.browser.test_pages import cast  # noqa: F401 (the fixture)
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/\S+)")


def sign_up(page, email: str, display_name: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_email", email)
    page.fill("#id_display_name", display_name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/accounts/confirm-email/")
    assert [m.to for m in mail.outbox] == [[email]]
    path = CONFIRM_LINK.search(mail.outbox[0].body).group(1)
    page.goto(path)
    screenshot(page, "desktop-01-confirm-email")
    page.click("main form button[type=submit]")
    expect(page.locator(".site-account")).to_have_text(display_name)


def row_cards(page) -> list[str]:
    return page.locator("#board .card-row .card-name").all_inner_texts()


def pay_if_asked(page) -> None:
    """Answer a pending payment (card cost, construction cost) one brick at a time."""
    while (pay := first(page, type="pay_brick")) is not None:
        act(page, pay)


def test_sign_up_play_a_turn_against_a_bot_and_see_the_board_change(new_page):
    page = new_page()
    sign_up(page, "dario@example.com", "Dario")

    page.goto("/games/new/")
    page.select_option("#id_num_players", "2")
    screenshot(page, "desktop-02-create")
    page.click("main form button[type=submit]")
    screenshot(page, "desktop-03-forming")
    # Seating the bot fills the table, and the game starts by itself (the default).
    page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("#game")).to_be_visible()
    # If the bot drew the first turn it has played it already: it is the person's turn now.
    expect(page.locator("#status")).to_contain_text("Your turn")
    game = Game.objects.get()
    me = game.seats.get(bot="").number
    mine = page.locator("#players .player.me")
    towers_before = mine.locator(".site-tower").count()
    row_before = row_cards(page)
    screenshot(page, "desktop-04-game-start")

    # 1 choose: take the leftmost (free) card, answering whatever it brings.
    act(page, first(page, type="choose_card"))
    pay_if_asked(page)
    if (event := first(page, type="resolve_event")) is not None:
        act(page, event)
    expect(page.locator("#log")).to_contain_text(f"Dario takes {row_before[0]}")
    assert row_cards(page) != row_before, "the taken card leaves the row, a new one comes in"
    # 2 exchange: skip it.
    assert first(page, type="exchange") is not None or first(page, type="end_phase")
    act(page, first(page, type="end_phase"))
    # 3 build: start a tower in a colour we have, then finish building.
    build = first(page, type="build")
    assert build is not None and "color" in build, offered(page)
    colour = build["color"]
    act(page, build)
    expect(mine.locator(".site-tower")).to_have_count(towers_before + 1)
    screenshot(page, "desktop-05-built")
    act(page, first(page, type="end_phase"))
    pay_if_asked(page)
    # 5-6 fulfil and limits: nothing to fulfil with a tower of 1; end the turn.
    while (end := first(page, type="end_turn")) is None:
        act(page, first(page, type="end_phase") or first(page, type="discard_card"))
        pay_if_asked(page)
    act(page, end)

    # The bot has played its whole turn (Celery runs eagerly once the move is committed).
    expect(page.locator("#status")).to_contain_text("Your turn")
    game.refresh_from_db()
    assert game.acting_seat == me
    assert game.moves.filter(by_bot=True).exists()
    tower = mine.locator(f'.site-tower[title^="{colour} tower"]')
    expect(tower).to_have_count(1)
    expect(tower.locator(".brick")).to_have_text(colour[0].upper())
    log = page.locator("#log li")
    texts = log.all_inner_texts()
    assert any("Dario" in t for t in texts), texts
    bot_name = game.seats.exclude(bot="").get().name
    assert any(bot_name in t for t in texts), texts
    screenshot(page, "desktop-06-bot-played")


def test_the_game_page_fits_a_phone_and_its_buttons_can_be_tapped(new_page):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=7)
    player = user_of_seat(game, game.acting_seat)
    page = new_page(phone=True, user=player)
    page.goto(f"/games/{game.pk}/")

    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"horizontal overflow on a phone: {width}"
    panel, board = page.locator("#panel").bounding_box(), page.locator("#board").bounding_box()
    assert panel["y"] < board["y"], "the action panel comes first on a phone"
    buttons = page.locator('#panel button[name="action"]')
    assert buttons.count() > 0
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width[1], box
        assert box["height"] >= 40, f"tap target too small: {box}"
    screenshot(page, "phone-01-game-start")

    act(page, first(page, type="choose_card"))  # a real tap target: Playwright checks it
    assert first(page, type="end_phase") is not None, "on to the exchange phase"
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"horizontal overflow on a phone: {width}"
    screenshot(page, "phone-02-card-taken")


def test_the_other_players_page_follows_a_move_through_the_poll(new_page):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=11)
    actor = user_of_seat(game, game.acting_seat)
    watcher = user_of_seat(game, 1 - game.acting_seat)
    acting_page = new_page(user=actor)
    watching_page = new_page(user=watcher)
    acting_page.goto(f"/games/{game.pk}/")
    watching_page.goto(f"/games/{game.pk}/")
    seen = version(watching_page)
    row_before = row_cards(watching_page)
    expect(watching_page.locator("#panel button[name=action]")).to_have_count(0)

    act(acting_page, first(acting_page, type="choose_card"))

    watching_page.wait_for_function(
        "v => Number(document.querySelector('#poller').dataset.version) > v",
        arg=seen,
        timeout=TIMEOUT_MS,
    )
    expect(watching_page.locator("#log")).to_contain_text(f"{actor.display_name} takes")
    assert row_cards(watching_page) != row_before
    assert offered(watching_page) == []
    screenshot(watching_page, "desktop-07-other-player-followed")


def test_a_mid_game_board_reads_on_desktop_and_phone(new_page, cast):  # noqa: F811
    # Anna against three bots at turn 29: the page sweeps' game, built once per test process.
    anna, game = cast["anna"], cast["playing"]
    for phone in (False, True):
        page = new_page(phone=phone, user=anna)
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#status")).to_contain_text("Your turn")
        expect(page.locator("#board .seal").first).to_be_visible()
        # Four players, three of them bots: every seal still reads differently (B2, B3, B4).
        marks = page.locator("#players .player header .seat-mark").all_inner_texts()
        assert len(set(marks)) == 4, marks
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"horizontal overflow: {width}"
        screenshot(page, "phone-03-mid-game" if phone else "desktop-08-mid-game")
