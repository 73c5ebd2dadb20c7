"""Planning in a real browser: the waiting player takes steps by keyboard on the game's own
board and action panel in the sandbox (nothing reaches the game), keeps the plan, and after
the opponent's turn the planning page says what the plan played and why it stopped, on desktop
and phone, in English and German; the "what if" shows the Strong bot's estimate."""

from __future__ import annotations

import random

import pytest

from games.play import store_step
from games.rules import moves
from plans.models import PlanOutcome
from tests.browser.helpers import screenshot, started_game, user
from tests.browser.test_accessibility import blocking_violations

pytestmark = pytest.mark.django_db(transaction=True)

KEEP = {"en": "Keep as my plan", "de": "Als meinen Plan speichern"}
DID = {"en": "What your last plan did", "de": "Was dein letzter Plan getan hat"}


def bot_turn(game) -> None:
    game.refresh_from_db()
    seat, rng = game.acting_seat, random.Random(3)
    while game.acting_seat == seat and not game.is_finished:
        store_step(game, seat, moves.bot_step(game.engine, game.load_state(), "standard", rng))


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_it_plans_a_turn_and_tells_what_the_plan_did(new_page, language, phone):
    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=31)
    waiting = anna if game.seats.get(user=anna).number != game.acting_seat else ben
    version = game.version
    page = new_page(phone=phone, user=waiting, language=language)
    page.goto(f"/games/{game.pk}/plan/")
    assert page.locator("#board .skyline").is_visible()  # the game's own board
    for taken in range(3):
        offers = page.locator('#panel form.choice-group button[name="action"]')
        # The panel as the last answer left it: offers, or the note that the plan stops here.
        page.locator(
            '#panel form.choice-group button[name="action"], #panel .plan-stop'
        ).first.wait_for()
        if not offers.count():
            break
        offers.first.focus()
        page.keyboard.press("Enter")  # swapped in by htmx, as a real move's answer
        page.locator("#panel .plan-steps li").nth(taken).wait_for()
    assert page.locator("#panel .plan-steps li").count() >= 2
    assert not blocking_violations(page)
    game.refresh_from_db()
    assert game.version == version  # nothing reached the game
    name = f"plans-{language}-{'phone' if phone else 'desktop'}"
    screenshot(page, f"{name}-planning")
    page.get_by_role("button", name=KEEP[language]).click()
    page.wait_for_load_state()
    screenshot(page, f"{name}-kept")
    bot_turn(game)
    outcome = PlanOutcome.objects.get(game=game)
    page.goto(f"/games/{game.pk}/plan/")
    assert page.get_by_role("heading", name=DID[language]).is_visible()
    for line in outcome.played:
        assert page.get_by_text(line).first.is_visible()
    screenshot(page, f"{name}-{'played' if outcome.in_full else 'stopped'}")


WHAT_IF = {
    "en": "What if? Try another line from here",
    "de": "Was wäre, wenn? Von hier aus anders spielen",
}
PLAYED = {"en": "What was played", "de": "Was gespielt wurde"}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_it_tries_another_line_from_a_finished_games_replay(new_page, settings, language, phone):
    """From the replay's step, the what-if sandbox opens by keyboard on the game's board with
    every hand shown, takes a step on its action panel by htmx and shows what was played
    beside it, then the Strong bot's estimate of both lines (eager Celery here: the poll finds
    the figures); the page is axe-clean."""
    from tests.web.helpers import fast_forward

    settings.BOTS_REVIEW_SECONDS = 0.2

    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=31)
    fast_forward(game)
    page = new_page(phone=phone, user=anna, language=language)
    page.goto(f"/games/{game.pk}/replay/?step=4")
    link = page.get_by_role("link", name=WHAT_IF[language])
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/replay/what-if/**")
    assert page.get_by_role("heading", name=PLAYED[language]).is_visible()
    assert page.locator("#board .skyline").is_visible()  # the game's board, every hand shown
    assert page.locator("#what-if-hands .replay-hand").count() == 2
    offer = page.locator('#panel button[name="action"]').first
    offer.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('section[aria-labelledby="tried-h"] ol li')
    page.wait_for_selector("#estimate strong")  # "estimating…", then the figures
    assert not blocking_violations(page)
    screenshot(page, f"what-if-board-{language}-{'phone' if phone else 'desktop'}")
