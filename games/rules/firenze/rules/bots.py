"""Bots: functions (state, rng) -> the next action for the acting seat.

A bot answers one step at a time, so a web task can ask for a single step and a timed-out
player's turn can be played step by step through the same legal-action path as a human's.
The greedy bot looks only at what the acting player may see (its own hand and the public board),
never at the deck order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .greedy import greedy_step
from .legal import legal_actions_of
from .state import State

Action = dict[str, Any]
Bot = Callable[[State, random.Random], Action]


def random_player(state: State, rng: random.Random) -> Action:
    """Uniform over the legal actions: the baseline every real bot must beat."""
    return rng.choice(legal_actions_of(state._d))


def greedy(state: State, rng: random.Random) -> Action:
    """The Standard bot: a one-turn planner (greedy.py) for the acting seat."""
    return greedy_step(state._d, rng)


def play_game(
    num_players: int,
    seed: int,
    players: list[Any],
    options: dict[str, Any] | None = None,
    max_steps: int = 20000,
) -> State:
    """Play a whole game with one bot per seat; used by tests and benchmarks."""
    from . import apply_action, is_over, new_game

    state = new_game(num_players, seed, options)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if is_over(state):
            return state
        state = apply_action(state, players[state._d["seat"]](state, rng))
    raise RuntimeError(f"game {seed} did not end within {max_steps} steps")


__all__ = ["greedy", "play_game", "random_player"]
