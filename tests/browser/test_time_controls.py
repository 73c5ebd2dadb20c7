"""Time controls in the browser (issue 22): the create form's clock options, chosen with the
keyboard, and everyone's clock on the game page's strip and in My games, on a desktop and a
phone, in English and German; axe finds nothing, and nothing scrolls sideways. Screenshots go to
test-artifacts/screenshots/clock-*.jpg."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import lobby
from games.models import Game
from games.timecontrol import BANK, TimeControl
from tests.browser.helpers import overflow, screenshot, user
from tests.browser.test_accessibility import blocking_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"bank": "Time bank", "strip": "left", "pace": "The game at this pace"},
    "de": {"bank": "Zeitkonto", "strip": "noch", "pace": "Die Partie in diesem Tempo"},
}


@pytest.fixture
def bank_game():
    anna, ben, carla = user("anna"), user("ben"), user("carla")
    control = TimeControl(mode=BANK, bank=5 * timedelta(days=1), days_off=(5, 6))
    game = lobby.create_game(anna, num_players=3, time_control=control, name="Slow towers")
    # The seed of the accessibility test's game: the same row of cards is drawn.
    Game.objects.filter(pk=game.pk).update(seed=2024)
    game.refresh_from_db()
    lobby.join(game, ben)
    lobby.join(game, carla)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(
        started_at=timezone.now() - timedelta(days=6), progress=0.3
    )
    return {"anna": anna, "ben": ben, "carla": carla, "game": game}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_it_shows_the_clock_options_and_everyones_clock(new_page, bank_game, phone, language):
    anna = bank_game["anna"]
    anna.language = language
    anna.save(update_fields=["language"])
    words = WORDS[language]
    where = f"{'phone' if phone else 'desktop'}-{language}"

    page = new_page(phone=phone, language=language, user=anna)
    page.goto("/games/new/")
    bank_field = page.locator("select[name=bank]")
    assert not bank_field.is_visible()  # per turn is chosen: the bank's settings are hidden
    page.locator("input[name=clock_mode][value=turn]").focus()
    page.keyboard.press("ArrowDown")  # the keyboard moves the choice to the time bank
    assert page.locator("input[name=clock_mode][value=bank]").is_checked()
    assert bank_field.is_visible() and not page.locator("select[name=time_limit]").is_visible()
    page.locator("input[name=days_off][value='5']").check()
    page.locator("input[name=days_off][value='6']").check()
    screenshot(page, f"clock-create-{where}")
    assert blocking_violations(page) == []
    assert overflow(page)[0] <= overflow(page)[1]

    # Seen by a player waiting for their turn (the acting player's board is checked by the
    # accessibility test).
    game = bank_game["game"]
    waiting = next(s.user for s in game.seats.all() if s.number != game.acting_seat)
    waiting.language = language
    waiting.save(update_fields=["language"])
    page = new_page(phone=phone, language=language, user=waiting)
    page.goto(f"/games/{game.pk}/")
    strip = page.locator("#players")
    clocks = strip.locator(".seat-clock")
    assert clocks.count() == 3
    assert words["strip"] in clocks.first.inner_text() or words["strip"] in strip.inner_text()
    assert words["pace"] in page.locator(".game-pace").inner_text()
    screenshot(page, f"clock-game-{where}")
    assert blocking_violations(page) == []
    assert overflow(page)[0] <= overflow(page)[1]

    page = new_page(phone=phone, language=language, user=anna)
    page.goto("/games/mine/")
    assert page.locator(".seat-clock").count() >= 1
    screenshot(page, f"clock-mine-{where}")
    assert blocking_violations(page) == []
    assert overflow(page)[0] <= overflow(page)[1]
