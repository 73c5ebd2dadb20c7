"""Issue 30's last parts in a real browser: the log's "Hide passes and forced steps" hides
exactly the lines the engine calls minor (by CSS, without scripts too) and is remembered, and
the morning summary is chosen on the notification settings and reads well as an email.
Desktop and phone, English and German; screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from notifications import emails
from notifications.morning import waiting_games
from tests.browser.helpers import screenshot, started_game, user
from tests.browser.test_accessibility import blocking_violations
from tests.web.helpers import play_greedy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [("desktop", "en"), ("phone", "de")]
HIDE = {"en": "Hide passes and forced steps", "de": "Passen und erzwungene Schritte ausblenden"}
SUMMARY = {"en": "Morning summary", "de": "Morgen"}


@pytest.mark.parametrize(("screen", "language"), SCREENS)
def test_it_hides_passes_and_forced_steps_from_the_log_and_remembers_it(new_page, screen, language):
    anna, ben = user("anna"), user("ben")
    anna.language = language
    anna.save(update_fields=["language"])
    game = started_game(anna, ben, seed=11)
    play_greedy(game, 40)
    page = new_page(phone=screen == "phone", user=anna, language=language)
    page.goto(f"/games/{game.pk}/")
    minor = page.locator("#log li.minor").first
    expect(minor).to_be_visible()
    box = page.get_by_label(HIDE[language])
    box.focus()
    page.keyboard.press("Space")  # by keyboard

    expect(box).to_be_checked()
    expect(minor).to_be_hidden()
    expect(page.locator("#log li:not(.minor):not(.note)").first).to_be_visible()
    assert blocking_violations(page) == []
    screenshot(page, f"i30-log-brief-{screen}-{language}")
    page.reload()  # remembered for the next visit
    expect(page.get_by_label(HIDE[language])).to_be_checked()
    expect(page.locator("#log li.minor").first).to_be_hidden()


@pytest.mark.parametrize(("screen", "language"), SCREENS)
def test_it_chooses_the_morning_summary_and_the_email_lists_the_waiting_games(
    new_page, screen, language
):
    anna = user("anna")
    anna.language = language
    anna.save(update_fields=["language"])
    for other in ("ben", "carla"):
        game = started_game(anna, user(other), seed=11)
        if game.seats.get(number=game.acting_seat).user_id != anna.pk:
            play_greedy(game, 30, until=lambda state, g=game: _anna_acts(g, anna, state))
    page = new_page(phone=screen == "phone", user=anna, language=language)
    page.goto("/accounts/notifications/#summary")
    section = page.locator("#summary")
    expect(section).to_contain_text(SUMMARY[language])
    section.locator("select").select_option(index=8)
    section.locator("button[type=submit]").click()
    page.wait_for_load_state()
    anna.refresh_from_db()
    assert anna.summary_hour is not None
    assert blocking_violations(page) == []
    screenshot(page, f"i30-summary-settings-{screen}-{language}")

    message = emails.summary_message(anna, waiting_games(anna))
    body = message.alternatives[0][0] if message.alternatives else message.body
    page.set_content(str(body))
    screenshot(page, f"i30-summary-email-{screen}-{language}")
    assert page.locator("a").count() >= len(waiting_games(anna))


def _anna_acts(game, anna, state) -> bool:
    from games.rules.firenze import rules

    return game.seats.get(number=rules.acting_seat(state)).user_id == anna.pk
