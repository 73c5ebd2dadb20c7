"""The bots' pages as a player meets them (issue 21), on a desktop and a phone, in English and
German: the create form's seats, quick play's level, the levels page with the ladder's numbers,
a profile's record against the levels and a replay with its review; axe-clean, and the review
is asked for and read with the keyboard alone. Screenshots: test-artifacts/screenshots/bots-*.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from bots.models import BotMatchup, BotRating, Review
from games.models import Game
from players.ratings import NEW
from tests.browser.helpers import screenshot, started_game, user
from tests.browser.screens import each_screen, share
from tests.browser.test_accessibility import blocking_violations
from tests.browser.worlds import shared_world
from tests.web.helpers import fast_forward

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def reviewed(game: Game, person) -> Review:
    """The person's review of a finished game, computed as the bots-queue task would."""
    seat = game.seats.get(user=person).number
    actions = list(game.moves.order_by("seq").values_list("action", flat=True))
    entries = game.engine.review(game.initial_state(), actions, seat, 0.01)
    return Review.objects.create(
        game=game, seat=seat, user=person, seconds=0.01, status=Review.Status.DONE, entries=entries
    )


@pytest.fixture
def cast():
    """Anna's finished game with Ben and her review of it, a game against a bot, the bots'
    ratings: built once per test process (tests/browser/worlds.py)."""
    return shared_world("bots", build_cast)


def build_cast():
    anna, ben = user("anna"), user("ben")
    finished = started_game(anna, ben, seed=77)
    fast_forward(finished)
    against_bot = started_game(anna, bots=1, seed=5)
    fast_forward(against_bot)
    for level, shown in (("beginner", 1010), ("standard", 1150), ("strong", 1420)):
        BotRating.objects.create(
            engine_name="firenze", level=level, mu=NEW.mu, sigma=NEW.sigma, shown=shown, games=40
        )
    BotMatchup.objects.create(
        engine_name="firenze", level="strong", opponent="standard", games=20, wins=19.0,
        score=1300, opponent_score=600,
    )  # fmt: skip
    return {"anna": anna, "ben": ben, "finished": finished, "review": reviewed(finished, anna)}


@each_screen
def test_the_bot_pages_are_clean_and_readable(new_page, cast, phone, dark, language):
    """This screen's share of the pages (tests/browser/screens.py): each page on two screens
    opposite in device, scheme and language."""
    anna = cast["anna"]
    anna.language = language
    anna.save(update_fields=["language"])
    first = cast["review"].entries[0]["step"]
    device = ("phone" if phone else "desktop") + ("-dark" if dark else "")
    pages = [
        ("create", anna, "/games/new/"),
        ("quick-play", anna, "/games/bots/"),
        ("levels", None, "/bots/"),
        ("profile", None, f"/players/{anna.display_name}/"),
        ("account", anna, "/accounts/profile/#takeover"),
        ("replay-review", anna, f"/games/{cast['finished'].pk}/replay/?step={first}"),
        ("replay-ask", cast["ben"], f"/games/{cast['finished'].pk}/replay/"),
    ]
    pages = share(pages, phone, dark, language)
    assert pages
    problems = []
    for name, who, path in pages:
        page = new_page(phone=phone, dark=dark, language=language, user=who)
        response = page.goto(path)
        assert response.status == 200, (name, response.status)
        problems += [f"{name}: {line}" for line in blocking_violations(page)]
        if name == "replay-review":
            page.locator(".review-panel").scroll_into_view_if_needed()
        screenshot(page, f"bots-{device}-{language}-{name}")
        page.context.close()
    assert not problems, "\n".join(problems)


def test_a_player_asks_for_a_review_and_reads_it_with_the_keyboard_alone(new_page, cast):
    ben, game = cast["ben"], cast["finished"]
    page = new_page(user=ben)
    page.goto(f"/games/{game.pk}/replay/")
    ask = page.get_by_role("button", name="Review my game")
    for _ in range(80):  # Tab through the page until the button has the focus
        page.keyboard.press("Tab")
        if ask.evaluate("e => e === document.activeElement"):
            break
    else:
        raise AssertionError("the review button cannot be reached with Tab")
    page.keyboard.press("Enter")  # tasks run at once in the tests: the review is ready
    expect(page.locator(".messages, .message").first).to_contain_text("reviewing your game")
    review = Review.objects.get(game=game, user=ben)
    assert review.status == Review.Status.DONE and review.entries

    summary = page.locator(".review-all summary")
    summary.focus()
    page.keyboard.press("Enter")  # opens the list of every decision
    link = page.locator(".review-table a").first
    expect(link).to_be_visible()
    link.focus()
    page.keyboard.press("Enter")  # to that turn: its decisions beside the board
    expect(page.locator(".review-turn")).to_be_visible()
    expect(page.locator(".review-turn")).to_contain_text("You:")
