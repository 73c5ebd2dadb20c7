"""The example API bot (examples/bot.py) plays like the site's Standard bot: it gets the game's
view as the API sends it (JSON, the seat's player_view) and hands it to the rules package's
public chooser, so a bot written against the API is as good as the site's own without seeing
more than its seat may see. Without the package it still plays legal moves by its simple rule."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

from games.rules.firenze.rules import (
    acting_seat,
    apply_action,
    is_over,
    legal_actions,
    new_game,
    player_view,
)
from games.rules.firenze.rules.levels import choose_action

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("example_bot", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def api_view(state, seat: int) -> dict:
    """The view as the API's client reads it: JSON (lists for tuples, string keys)."""
    return json.loads(json.dumps(player_view(state, seat)))


def test_the_example_bot_plays_a_whole_game_as_the_sites_standard_bot_would():
    bot = example()
    chooser = bot.site_chooser()
    assert chooser is not None, "run from a checkout: the rules package is at hand"
    state, step = new_game(3, 2121), 0
    while not is_over(state):
        seat = acting_seat(state)
        legal = json.loads(json.dumps(legal_actions(state)))
        action = bot.choose(api_view(state, seat), legal, random.Random(step), chooser)
        site = choose_action(player_view(state, seat), "standard", random.Random(step))
        assert action == site and action in legal
        state, step = apply_action(state, action), step + 1
    assert step > 100  # a real game, played to its end


def test_without_the_rules_package_it_still_finishes_its_games_by_its_simple_rule():
    bot = example()
    state, rng = new_game(2, 77), random.Random(77)
    for _ in range(5000):
        if is_over(state):
            break
        legal = json.loads(json.dumps(legal_actions(state)))
        action = bot.choose(api_view(state, acting_seat(state)), legal, rng, chooser=None)
        assert action in legal
        state = apply_action(state, action)
    assert is_over(state)
