"""Reading and driving the game page in a browser: the offered actions are the panel's
buttons (name="action", value=the action as JSON), and #poller's data-version is the game's
version, which every stored step raises."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model

from games import lobby, play
from games.models import Game
from games.rules.firenze import rules
from games.rules.firenze.rules import bots
from tests.factories import UserFactory

# How long a browser test waits for what it expects: the poll runs every 5 s, so a page may
# take that long to show another seat's move, and on a loaded machine (the proof runs, load
# 20 and more) a page took over 10 s to answer. A wait ends as soon as its condition holds, so
# a longer bound costs a passing test nothing; it only delays the report of a failing one.
TIMEOUT_MS = 20_000
SCREENSHOTS = Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"


# Full-page screenshots are JPEG: a long page on a phone is 780 px by 10,000-50,000 (device
# scale 2), and Chromium took two to three times as long to encode it as PNG (the suite's
# screenshots are about 1,400 megapixels). Nothing compares their pixels; people look at them.
FULL_PAGE = {"full_page": True, "type": "jpeg", "quality": 80}


def screenshot(page, name: str, **options: Any) -> Path:
    """A full-page screenshot under test-artifacts/screenshots/ (gitignored), as JPEG."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".jpg")
    page.screenshot(path=str(path), **FULL_PAGE, **options)
    return path


def part_screenshot(locator, name: str) -> Path:
    """One element of the page (the board, the log...), as JPEG: it may be as long as the page."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".jpg")
    locator.screenshot(path=str(path), type="jpeg", quality=80)
    return path


def viewport_screenshot(page, name: str) -> Path:
    """What the first screen shows (above the fold), for phone layouts."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".png")
    page.screenshot(path=str(path))
    return path


def overflow(page) -> list[int]:
    """[page width, window width]: the first above the second means sideways scrolling."""
    return page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")


# WCAG 2 contrast of every visible button's text against the background it sits on (the first
# ancestor with an opaque background colour): 4.5:1, or 3:1 for large or bold text >= 14pt.
CONTRAST_JS = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const bad = [];
  for (const el of document.querySelectorAll("button, .button, input[type=submit]")) {
    const box = el.getBoundingClientRect();
    const text = (el.innerText || el.value || "").trim();
    if (!text || box.width === 0 || el.disabled || el.closest("[hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const fg = rgb(style.color), bg = background(el);
    const [a, b] = [lum(fg.slice(0, 3)), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const why = `${ratio.toFixed(2)} (${style.color} on rgb(${bg}))`;
    if (ratio < need) bad.push(`${text.slice(0, 30)}: ${why}`);
  }
  return bad;
}"""


def low_contrast_buttons(page) -> list[str]:
    return page.evaluate(CONTRAST_JS)


def board_button(page, action: dict[str, Any]):
    """The board's own clickable piece (card, tower, square, brick) for exactly this action."""
    return page.locator(
        f'#game button[form="move-form"][name="action"][value="{_payload(action)}"]'
    )


def board_offers(page) -> list[dict[str, Any]]:
    values = page.locator('#game button[form="move-form"][name="action"]').evaluate_all(
        "buttons => buttons.map(b => b.value)"
    )
    return [json.loads(v) for v in values]


def click_board(page, action: dict[str, Any], *, timeout: float = TIMEOUT_MS) -> int:
    """Click the board piece of one action and wait until the page shows the next version."""
    before = version(page)
    board_button(page, action).click()
    page.wait_for_function(
        "v => Number(document.querySelector('#poller').dataset.version) > v",
        arg=before,
        timeout=timeout,
    )
    page.wait_for_load_state()
    return version(page)


def version(page) -> int:
    return int(page.locator("#poller").get_attribute("data-version"))


def offered(page) -> list[dict[str, Any]]:
    values = page.locator('#panel button[name="action"]').evaluate_all(
        "buttons => buttons.map(b => b.value)"
    )
    return [json.loads(v) for v in values]


def button(page, action: dict[str, Any]):
    """The panel's button for exactly this action."""
    return page.locator(f'#panel button[name="action"][value="{_payload(action)}"]')


def act(page, action: dict[str, Any], *, timeout: float = TIMEOUT_MS) -> int:
    """Click the button of one offered action and wait until the page shows the next version."""
    before = version(page)
    button(page, action).click()
    page.wait_for_function(
        "v => Number(document.querySelector('#poller').dataset.version) > v",
        arg=before,
        timeout=timeout,
    )
    page.wait_for_load_state()
    return version(page)


def first(page, **match: Any) -> dict[str, Any] | None:
    """The first offered action whose keys have these values."""
    return next((a for a in offered(page) if all(a.get(k) == v for k, v in match.items())), None)


def _payload(action: dict[str, Any]) -> str:
    # As firenze.presenters.Choice.payload writes it; CSS attribute strings need \" for ".
    return json.dumps(action, separators=(",", ":")).replace("\\", "\\\\").replace('"', '\\"')


def user(name: str):
    return UserFactory(username=name)


def started_game(creator, *others, bots: int = 0, seed: int | None = None) -> Game:
    """A started game; with ``seed`` the deal (and seat order) is the same on every run."""
    game = lobby.create_game(creator, num_players=1 + len(others) + bots)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
        game.refresh_from_db()
    for other in others:
        lobby.join(game, other)
    for _ in range(bots):
        lobby.add_bot(game, creator)  # the last seat taken starts the game
    game.refresh_from_db()
    return game


def user_of_seat(game: Game, number: int):
    return get_user_model().objects.get(seats__game=game, seats__number=number)


@contextmanager
def no_redraws() -> Iterator[None]:
    """While a test sets a position up, no page of the steps on the way is drawn ahead: after
    every committed step (the bots' too) the eager Celery of the tests drew every seated
    player's page, which the next step made stale at once; three quarters of the CPU of
    playing a game to turn 29. A page nobody drew is drawn when it is asked for (the views'
    cache miss), as after a cache restart; redraws themselves: tests/web/test_redraws.py."""
    with mock.patch("games.redraws.after_commit"):
        yield


def play_greedily_until(game: Game, person, until, max_steps: int = 3000) -> Game:
    """Play the people's steps greedily (bots play theirs) until ``until(state, seat)`` holds
    with ``person`` to act."""
    with no_redraws():
        return _play_greedily_until(game, person, until, max_steps)


def _play_greedily_until(game: Game, person, until, max_steps: int) -> Game:
    seat = game.seats.get(user=person).number
    for _ in range(max_steps):
        game.refresh_from_db()
        state = game.load_state()
        if rules.is_over(state):
            raise AssertionError("the game ended before the position was reached")
        if game.acting_seat == seat and until(state, seat):
            return game
        actor = user_of_seat(game, game.acting_seat)
        action = bots.greedy(state, random.Random(f"{game.seed}/until/{state.step}"))
        play.submit_move(game.pk, actor, action, game.version)
    raise AssertionError("the position was never reached")


def play_greedily(game: Game, person, *, until_turn: int) -> Game:
    """Play ``person``'s steps with the greedy bot (the real bot seats play themselves) until
    turn ``until_turn`` starts with ``person`` to act: a mid-game board to look at."""
    with no_redraws():
        return _play_greedily(game, person, until_turn)


def _play_greedily(game: Game, person, until_turn: int) -> Game:
    seat = game.seats.get(user=person).number
    while True:
        game.refresh_from_db()
        state = game.load_state()
        turn_no = rules.player_view(state, seat)["turn_no"]
        if rules.is_over(state) or (turn_no >= until_turn and game.acting_seat == seat):
            return game
        action = bots.greedy(state, random.Random(f"{game.seed}/test/{state.step}"))
        play.submit_move(game.pk, person, action, game.version)
