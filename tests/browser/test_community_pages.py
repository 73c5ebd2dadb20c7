"""A profile's reliability and a table refusing a player, in Chromium: desktop and phone,
English and German (community/)."""

from __future__ import annotations

import pytest

from community import standing
from community.models import TableRequirement
from games import lobby
from players.models import SeatResult
from tests.browser.helpers import screenshot
from tests.factories import UserFactory, finished_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWS = [(False, "en"), (True, "en"), (False, "de"), (True, "de")]


@pytest.mark.parametrize(("phone", "language"), VIEWS)
def test_it_shows_reliability_and_why_a_table_refuses(new_page, phone, language):
    anna, ben = UserFactory(username="anna"), UserFactory(username="ben")
    for _ in range(6):
        finished_record([ben, anna], [10, 5])
    for _ in range(2):  # Ben resigned these two, and Anna won them
        record = finished_record([ben, anna], [3, 9])
        SeatResult.objects.filter(record=record, user=ben).update(resigned=True)
    standing.refresh(ben.pk)
    standing.refresh(anna.pk)
    game = lobby.create_game(anna, num_players=3, name="Reliable players only")
    TableRequirement.objects.create(game=game, min_finished=90, min_rating=1000)

    page = new_page(phone=phone, user=ben, language=language)
    page.goto("/players/Ben/")
    box = page.locator(".reliability-box")
    assert "75%" in box.inner_text()
    screenshot(page, f"i33-profile-{'phone' if phone else 'desktop'}-{language}")

    page.goto(f"/games/{game.pk}/")
    refusal = page.locator("#cannot-join").inner_text()
    assert "90" in refusal and "75" in refusal
    screenshot(page, f"i33-refused-{'phone' if phone else 'desktop'}-{language}")


def test_it_sets_the_app_badge_to_the_games_waiting(new_page):
    from tests.web.helpers import started_game

    anna, ben = UserFactory(username="anna"), UserFactory(username="ben")
    game = started_game(anna, ben)
    waiting = anna if game.seats.get(number=game.acting_seat).user_id == anna.pk else ben

    page = new_page(user=waiting)
    page.add_init_script(
        "window.__badges = [];"
        "navigator.setAppBadge = (n) => { window.__badges.push(n); return Promise.resolve(); };"
        "navigator.clearAppBadge = () => { window.__badges.push(0); return Promise.resolve(); };"
    )
    page.goto("/games/mine/")
    page.wait_for_function("window.__badges.length > 0")

    assert page.evaluate("window.__badges") == [1]
    screenshot(page, "i33-badge-desktop-en")


def test_it_shows_the_players_games_offline_marked_and_unplayable(new_page):
    from tests.web.helpers import started_game

    anna, ben = UserFactory(username="anna"), UserFactory(username="ben")
    game = started_game(anna, ben)
    game.name = "Offline table"
    game.save(update_fields=["name"])

    page = new_page(user=anna)
    page.goto("/games/mine/")
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
    )
    page.reload()  # now under the worker's control: this load is kept
    page.wait_for_function("caches.has('firenze-pages-v1')")
    page.context.set_offline(True)
    page.reload()

    assert page.locator(".offline-banner").is_visible()
    assert "Offline table" in page.locator("main").inner_text()
    assert (
        page.locator("main form button").count() == 0
        or not page.locator("main form button").first.is_visible()
    )
    screenshot(page, "i33-offline-desktop-en")
    page.context.set_offline(False)
