"""A throw-away database with one long game, for the web benchmark.

The game is played by greedy bots through the same record_move path as real moves, with the
viewer's seat taken by a person so the page shows the full action panel.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from games import lobby
from games.models import Game
from games.play import record_move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy


def long_game(moves: int = 300) -> tuple[Game, object]:
    User = get_user_model()
    users = [
        User.objects.create_user(f"bench{i}", f"bench{i}@example.com", "x", display_name=f"B{i}")
        for i in range(4)
    ]
    game = lobby.create_game(users[0], num_players=4)
    for user in users[1:]:
        lobby.join(game, user)  # the last one starts the game
    game.refresh_from_db()
    rng = random.Random(7)
    while True:
        state = game.load_state()
        seat = rules.acting_seat(state)
        user = game.seats.get(number=seat).user
        if state.step >= moves and rules.legal_actions(state) and user is not None:
            return game, user
        action = greedy(state, rng)
        record_move(game, seat, action, rules.apply_action(state, action))
