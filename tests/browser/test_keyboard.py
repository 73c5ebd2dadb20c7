"""A whole turn played with the keyboard only: Tab to the choice, Enter to take it, and after
every update the focus is back on the action panel and the live region says what changed.

LANGUAGES: the interface languages the turn is played in (the player's account language).
"""

from __future__ import annotations

import json
import random

import pytest
from django.db import transaction
from playwright.sync_api import expect

from games.rules.firenze import rules
from games.rules.firenze.rules import bots
from tests.browser.helpers import screenshot, started_game, user, version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "de"]
MAX_TABS = 400

FOCUSED = """() => {
  const el = document.activeElement;
  return {id: el.id, value: el.value || null, inPanel: !!el.closest('#panel'),
          tag: el.tagName, text: (el.innerText || '').trim().slice(0, 40)};
}"""


def log_lines(page) -> dict[str, str]:
    """The log's lines by their number ("2.1"), each with its words."""
    lines = page.locator("#log .log-lines li").evaluate_all(
        "lis => lis.map(li => [li.textContent.trim(), li.querySelector('.log-text').innerText])"
    )
    return {key: words.strip() for key, words in lines}


def tab_to(page, action: dict) -> list[dict]:
    """Press Tab until the focus is on the panel's button for ``action``; every element the
    focus passed through on the way."""
    wanted = json.dumps(action, separators=(",", ":"))
    visited = []
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        visited.append(focused)
        if focused["inPanel"] and focused["value"] == wanted:
            return visited
    raise AssertionError(f"Tab never reached the button for {wanted}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_plays_a_whole_turn_with_the_keyboard_only(new_page, language):
    anna = user("anna")
    anna.language = language
    anna.save(update_fields=["language"])
    game = started_game(anna, bots=1, seed=11)
    seat = game.seats.get(user=anna).number
    game.refresh_from_db()
    assert game.acting_seat == seat
    turn = game.load_state().turn_no

    page = new_page(user=anna, language=language)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#status.status-mine")).to_have_count(1)
    announcer = page.locator("#announcer")
    # The first Tab offers to skip the header's links; Enter takes the focus to the content.
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)["text"] == page.locator(".skip-link").inner_text().strip()
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED)["id"] == "main"
    steps = 0
    while True:
        game.refresh_from_db()
        state = game.load_state()
        if state.turn_no != turn:
            break
        assert game.acting_seat == seat
        action = bots.greedy(state, random.Random(f"keyboard/{state.step}"))
        visited = tab_to(page, action)
        if steps == 0:
            # From the content's start the panel comes right after the status line: a few
            # presses, never a walk across the board.
            assert len(visited) <= 20, (action, visited)
        else:
            # The focus starts on the panel after each update: Tab walks its choices only.
            assert all(f["inPanel"] for f in visited), (action, visited)
        before, lines_before = version(page), log_lines(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => Number(document.querySelector('#poller').dataset.version) > v", arg=before
        )
        steps += 1
        # The pressed button is gone: the focus is on the panel again, not lost to <body>.
        page.wait_for_function(
            "() => document.activeElement.id === 'panel' || document.activeElement.id === 'status'"
        )
        # What the step wrote in the log is said in the live region, then what comes next.
        expect(announcer).not_to_be_empty()
        said = announcer.inner_text()
        for key, words in log_lines(page).items():
            if key not in lines_before:
                assert words in said, (words, said)
        if page.locator("#status.status-mine").count():
            assert page.locator("#panel .prompt").inner_text().strip() in said
        if steps == 1:
            screenshot(page, f"desktop-keyboard-{language}-first-step")

    # The bot has played its turn: it is Anna's again, and the live region says so.
    expect(page.locator("#status.status-mine")).to_have_count(1)
    expect(announcer).to_contain_text(page.locator("#status .turn-who").inner_text().strip())
    assert page.evaluate(FOCUSED)["id"] == "panel"
    assert steps >= 2
    game.refresh_from_db()
    assert game.load_state().turn_no > turn
    assert rules.player_view(game.load_state(), seat)["turn_no"] > turn


def test_it_steps_through_a_replay_with_the_keyboard_and_says_each_position(new_page):
    from tests.web.helpers import fast_forward

    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=77)
    fast_forward(game)
    page = new_page()
    page.goto(f"/games/{game.pk}/replay/?step=0")
    forward = page.locator('#replay a[data-key="ArrowRight"]')
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.key") == "ArrowRight":
            break
    for step in (1, 2):
        page.keyboard.press("Enter")
        expect(page.locator("#replay .replay-step")).to_have_text(str(step))
        # The focus is back on the same control, so Enter steps on.
        page.wait_for_function("() => document.activeElement.dataset.key === 'ArrowRight'")
        said = page.locator("#announcer")
        words = " ".join(page.locator("#replay .this-step").text_content().split())
        expect(said).to_contain_text(words)
    expect(forward).to_be_focused()


def test_it_says_what_another_player_did_when_the_poll_brings_it(new_page):
    from games import play

    anna, ben = user("anna"), user("ben")
    game = started_game(anna, ben, seed=11)
    game.refresh_from_db()
    first, second = (
        (anna, ben) if game.seats.get(user=anna).number == game.acting_seat else (ben, anna)
    )
    page = new_page(user=second)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#status.status-mine")).to_have_count(0)

    seat = game.acting_seat
    # The whole turn commits at once, so one poll brings all of it (a poll between two steps
    # would announce the turn in two parts).
    with transaction.atomic():
        while game.acting_seat == seat:
            state = game.load_state()
            action = bots.greedy(state, random.Random(f"poll/{state.step}"))
            game = play.submit_move(game.pk, first, action, game.version)
            game.refresh_from_db()

    # The poll (every 5 s) brings the turn: the live region names what the other player did
    # and that it is this player's turn now; the focus is on the panel, ready to play.
    expect(page.locator("#status.status-mine")).to_have_count(1)
    said = page.locator("#announcer")
    expect(said).to_contain_text(page.locator("#status .turn-who").inner_text().strip())
    # Every line of the other player's turn, from the first (the card they chose).
    for line in page.locator("#log .log-turn").last.locator(".log-text").all_text_contents():
        expect(said).to_contain_text(" ".join(line.split()))
    expect(page.locator("#panel")).to_be_focused()
