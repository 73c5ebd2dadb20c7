"""What a plan did, as its owner reads it in a real browser: the email of a plan played in full
(with its standing orders) and of a plan stopped ("Anna took the Alchemist"), the planning
page's notice of each, and the standing orders switched on by keyboard; axe-clean."""

from __future__ import annotations

import os

import pytest
from django.core import mail

from games.play import move
from plans import service
from tests.browser.helpers import screenshot, started_game, user

pytestmark = pytest.mark.django_db(transaction=True)

ORDERS = {"en": "Standing orders", "de": "Daueraufträge"}
SKIP = {
    "en": "Skip the exchange when I planned none",
    "de": "Den Tausch überspringen, wenn ich keinen geplant habe",
}
KEEP = {"en": "Keep my standing orders", "de": "Daueraufträge speichern"}
STOPPED = {"en": "Your plan stopped before step 1", "de": "Dein Plan hielt vor Schritt 1 an"}
FULL = {"en": "Your plan was played in full", "de": "Dein Plan wurde vollständig gespielt"}
SUBJECT = {"en": "Your plan was played in", "de": "Dein Plan wurde gespielt in"}
COMBOS = [("en", False), ("de", True)]
if os.environ.get("ALL_SHOT_COMBOS"):  # every language on every screen, for a look by hand
    COMBOS += [("en", True), ("de", False)]


def end_each_phase(game, mover) -> None:
    for _ in range(10):
        game.refresh_from_db()
        if game.acting_seat != game.seats.get(user=mover).number:
            return
        legal = game.engine.legal_actions(game.load_state())
        ending = [a for a in legal if a["type"] in ("end_turn", "end_phase")]
        move(game.pk, mover, ending[-1] if ending else legal[0], None)
    raise AssertionError("the turn did not end")


def planned_game(language: str, names: tuple[str, str]):
    first, second = user(names[0]), user(names[1])
    game = started_game(first, second, seed=7)
    acting = first if game.seats.get(user=first).number == game.acting_seat else second
    waiting = second if acting is first else first
    waiting.language = language
    waiting.save(update_fields=["language"])
    service.set_plan(game.pk, waiting, [{"type": "choose_card", "slot": 0}])
    return game, acting, waiting


def email_page(new_page, phone: bool, message) -> object:
    html = next(body for body, kind in message.alternatives if kind == "text/html")
    page = new_page(phone=phone)
    page.set_content(html)
    return page


@pytest.mark.parametrize(("language", "phone"), COMBOS)
def test_it_tells_the_owner_what_the_plan_did(new_page, language, phone):
    from tests.browser.test_accessibility import blocking_violations

    name = f"plan-notice-{language}-{'phone' if phone else 'desktop'}"
    # A plan that stops: the mover takes the card the plan relied on.
    game, mover, planner = planned_game(language, ("anna", "ben"))
    mail.outbox.clear()
    move(game.pk, mover, {"type": "choose_card", "slot": 0}, None)
    end_each_phase(game, mover)
    (stopped,) = [m for m in mail.outbox if planner.email in m.to]
    assert f"{mover.public_name} " in stopped.body and STOPPED[language] in stopped.body
    screenshot(email_page(new_page, phone, stopped), f"{name}-email-stopped")
    page = new_page(phone=phone, user=planner, language=language)
    page.goto(f"/games/{game.pk}/plan/")
    assert page.get_by_text(STOPPED[language]).is_visible()
    assert blocking_violations(page) == []
    screenshot(page, f"{name}-page-stopped")

    # A plan that holds, with the standing orders switched on by keyboard.
    game, mover, planner = planned_game(language, ("carla", "dario"))
    page = new_page(phone=phone, user=planner, language=language)
    page.goto(f"/games/{game.pk}/plan/")
    assert page.get_by_role("heading", name=ORDERS[language]).is_visible()
    page.get_by_label(SKIP[language]).focus()
    page.keyboard.press("Space")
    page.get_by_role("button", name=KEEP[language]).focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_by_label(SKIP[language]).is_checked()
    assert blocking_violations(page) == []
    screenshot(page, f"{name}-page-orders")
    mail.outbox.clear()
    move(game.pk, mover, {"type": "choose_card", "slot": 1}, None)
    game.refresh_from_db()
    move(game.pk, mover, game.engine.legal_actions(game.load_state())[0], None)
    end_each_phase(game, mover)
    (played,) = [m for m in mail.outbox if planner.email in m.to]
    assert SUBJECT[language] in played.subject
    screenshot(email_page(new_page, phone, played), f"{name}-email-played")
    page.goto(f"/games/{game.pk}/plan/")
    assert page.get_by_text(FULL[language]).first.is_visible()
    screenshot(page, f"{name}-page-played")
