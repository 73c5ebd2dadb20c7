"""The bot levels by name, and the one way any bot decides: from a seat's view.

`choose_action(view, level, rng)` is the whole contract: `view` is exactly
`player_view(state, seat)` for the acting seat, so a bot can see only what that seat may see;
whatever is hidden (the deck order, the other hands) it samples afresh
(determinize.sample_state). The web platform's `(state, rng)` bot callables (`BOTS`) go
through the view too, so no bot ever reads a hidden part of the real state.

Levels, weakest first: "beginner", "standard", "strong". Stored games name their bots
"greedy" (the Standard bot's old name) and "random" (uniform over the legal actions, a test
baseline): both names stay valid.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from .beginner import beginner_decide
from .determinize import sample_state
from .greedy import greedy_decide
from .legal import legal_actions_of
from .state import State
from .strong import STRONG, Budget, strong_decide
from .view import player_view

Action = dict[str, Any]
View = dict[str, Any]
Bot = Callable[[State, random.Random], Action]

LEVELS: tuple[str, ...] = ("beginner", "standard", "strong")
ALIASES: Mapping[str, str] = {"greedy": "standard"}
DEFAULT_LEVEL = "standard"


def choose_action(
    view: View, level: str, rng: random.Random, budget: Budget | None = None
) -> Action:
    """The bot of that level's next action for the acting seat, decided from its view alone.

    `budget` (Strong only) overrides the default thinking time (`strong.STRONG`).
    """
    level = ALIASES.get(level, level)
    if view.get("viewer") is None or view["viewer"] != view.get("acting_seat"):
        raise ValueError("A bot decides from the acting seat's own view.")
    if level == "strong":
        return strong_decide(view, rng, budget or STRONG)
    sample = sample_state(view, rng)
    legal = legal_actions_of(sample)
    if level == "standard":
        return greedy_decide(sample, legal, rng)
    if level == "beginner":
        return beginner_decide(sample, legal, rng)
    if level == "random":
        return rng.choice(legal)
    raise ValueError(f"There is no bot level {level!r}.")


def bot(level: str, budget: Budget | None = None) -> Bot:
    """A `(state, rng) -> action` bot of that level for the platform: it is given the real
    state, and passes on only the acting seat's view of it."""

    def play(state: State, rng: random.Random) -> Action:
        return choose_action(player_view(state, state._d["seat"]), level, rng, budget)

    play.__name__ = f"{level}_bot"
    return play


BOTS: Mapping[str, Bot] = {
    **{level: bot(level) for level in LEVELS},
    "greedy": bot("standard"),
    "random": bot("random"),
}
