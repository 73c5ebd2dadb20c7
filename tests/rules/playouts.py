"""Seeded playouts shared by the property tests: (state, action) pairs of whole games."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.rules.firenze.rules import State, apply_action, is_over, legal_actions, new_game
from games.rules.firenze.rules.bots import greedy, random_player

OPTION_SETS = [
    {},
    {"campanile": True},
    {"neutral_seals": 0},
    {"neutral_seals": 7, "seal_placement": "random"},
    {"seal_placement": "dead_color", "campanile": True},
]


def setup_for(seed: int) -> tuple[int, dict]:
    return 2 + seed % 3, OPTION_SETS[seed % len(OPTION_SETS)]


def playout(seed: int, *, max_steps: int = 6000, mix: float = 0.3) -> Iterator[tuple[State, dict]]:
    """Yield (state, chosen action) for a game of greedy bots that play randomly `mix` of the time.

    The mix keeps games finishing (greedy fulfils commissions) while reaching odd corners
    (random cards, events, exchanges) that a pure greedy game never visits.
    """
    players, options = setup_for(seed)
    state = new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if is_over(state):
            return
        bot = random_player if rng.random() < mix else greedy
        action = bot(state, rng)
        assert action in legal_actions(state)
        yield state, action
        state = apply_action(state, action)


def final_state(seed: int, **kwargs) -> State:
    last = None
    for state, action in playout(seed, **kwargs):
        last = apply_action(state, action)
    assert last is not None
    return last
