"""Layout a newcomer tripped over (issue 30): the create form shows the seats of the player
count chosen, the Notes label sits above its box with Save under it, and a forming game's
"Cancel game" stands on a line of its own, apart from seating a bot."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import lobby
from tests.browser.helpers import started_game, user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_create_form_shows_the_seats_of_the_player_count(new_page):
    page = new_page(user=user("anna"))
    page.goto("/games/new/")
    seats = {n: page.locator(f"#id_bot_seat_{n}") for n in (2, 3, 4)}
    for count, shown in (("2", [2]), ("3", [2, 3]), ("4", [2, 3, 4])):
        page.select_option("#id_num_players", count)
        for number, field in seats.items():
            if number in shown:
                expect(field).to_be_visible()
            else:
                expect(field).to_be_hidden()


def test_the_notes_label_is_above_its_box_and_save_below(new_page):
    anna = user("anna")
    game = started_game(anna, user("ben"))
    page = new_page(user=anna)
    page.goto(f"/games/{game.pk}/")
    label = page.locator("#notes label").bounding_box()
    box = page.locator("#note_text").bounding_box()
    save = page.locator("#notes button[type=submit]").bounding_box()
    assert label and box and save
    assert label["y"] + label["height"] <= box["y"] + 1  # above, not beside its bottom
    assert abs(label["x"] - box["x"]) < 2  # aligned with the box
    assert save["y"] >= box["y"] + box["height"] and save["x"] < box["x"] + 40  # under it, left


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_cancel_game_stands_apart_from_the_bot_level(new_page, phone):
    anna = user("anna")
    game = lobby.create_game(anna, num_players=3)
    page = new_page(user=anna, phone=phone)
    page.goto(f"/games/{game.pk}/")
    cancel = page.get_by_role("button", name="Cancel game").bounding_box()
    seat_bot = page.locator("form.seat-bot").bounding_box()
    assert cancel and seat_bot
    assert cancel["y"] >= seat_bot["y"] + seat_bot["height"]  # below the bot's form, not beside
