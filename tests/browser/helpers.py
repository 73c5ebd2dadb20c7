"""Reading and driving the game page in a browser: the offered actions are the panel's
buttons (name="action", value=the action as JSON), and #poller's data-version is the game's
version, which every stored step raises."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from games import lobby, play, rules
from games.models import Game
from games.rules import bots
from tests.factories import UserFactory

# The poll runs every 5 s, so a page may take that long to show another seat's move.
TIMEOUT_MS = 10_000
SCREENSHOTS = Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"


def screenshot(page, name: str) -> Path:
    """A full-page screenshot under test-artifacts/screenshots/ (gitignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / (re.sub(r"[^\w.-]+", "-", name) + ".png")
    page.screenshot(path=str(path), full_page=True)
    return path


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
    # As games.presenters.Choice.payload writes it; CSS attribute strings need \" for ".
    return json.dumps(action, separators=(",", ":")).replace("\\", "\\\\").replace('"', '\\"')


def user(name: str):
    return UserFactory(username=name)


def started_game(creator, *others, bots: int = 0, seed: int | None = None) -> Game:
    """A started game; with ``seed`` the deal (and seat order) is the same on every run."""
    game = lobby.create_game(creator, num_players=1 + len(others) + bots, auto_start=False)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
        game.refresh_from_db()
    for other in others:
        lobby.join(game, other)
    for _ in range(bots):
        lobby.add_bot(game, creator)
    lobby.start(game, creator)
    game.refresh_from_db()
    return game


def user_of_seat(game: Game, number: int):
    return get_user_model().objects.get(seats__game=game, seats__number=number)


def play_greedily(game: Game, person, *, until_turn: int) -> Game:
    """Play ``person``'s steps with the greedy bot (the real bot seats play themselves) until
    turn ``until_turn`` starts with ``person`` to act: a mid-game board to look at."""
    seat = game.seats.get(user=person).number
    while True:
        game.refresh_from_db()
        state = game.load_state()
        turn_no = rules.player_view(state, seat)["turn_no"]
        if rules.is_over(state) or (turn_no >= until_turn and game.acting_seat == seat):
            return game
        action = bots.greedy(state, random.Random(f"{game.seed}/test/{state.step}"))
        play.submit_move(game.pk, person, action, game.version)
