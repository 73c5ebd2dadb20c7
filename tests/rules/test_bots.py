"""Bots play legal moves, finish games, and the greedy bot clearly beats random play."""

from __future__ import annotations

import random

from games.rules.firenze.rules import (
    apply_action,
    from_dict,
    legal_actions,
    new_game,
    to_dict,
    winners,
)
from games.rules.firenze.rules.bots import greedy, play_game, random_player

from .playouts import playout


def test_both_bots_only_ever_choose_legal_actions():
    for state, _ in playout(3, max_steps=500):
        rng = random.Random(state.step)
        assert greedy(state, rng) in legal_actions(state)
        assert random_player(state, rng) in legal_actions(state)


def test_greedy_beats_random_in_at_least_nine_of_ten_two_player_games():
    games = 20
    won = 0
    for seed in range(games):
        seat = seed % 2
        players = [greedy, random_player] if seat == 0 else [random_player, greedy]
        won += winners(play_game(2, 500 + seed, players, max_steps=50_000)) == [seat]
    print(f"greedy won {won} of {games} games against random")
    assert won / games >= 0.9


def test_greedy_does_not_look_at_the_deck_order():
    for state, _ in playout(5, max_steps=300, mix=0.0):
        d = to_dict(state)
        d["deck"] = list(reversed(d["deck"]))
        shuffled = from_dict(d)
        assert greedy(state, random.Random(1)) == greedy(shuffled, random.Random(1))


def test_a_four_player_bot_game_finishes_with_scores():
    final = play_game(4, 11, [greedy] * 4)
    assert winners(final)


def test_a_bot_can_take_over_one_step_of_a_human_turn():
    state = new_game(2, 3)
    state = apply_action(state, legal_actions(state)[0])
    action = greedy(state, random.Random(0))
    assert action in legal_actions(state)


def test_greedy_bots_finish_games_with_the_campanile_in_play():
    """A table of bots must not stall forever once the Campanile blocks every commission."""
    bell_towers = 0
    for players in (2, 3, 4):
        for seed in range(6):
            state, rng = new_game(players, seed, {"campanile": True}), random.Random(seed)
            for _ in range(5000):
                if winners(state):
                    break
                state = apply_action(state, greedy(state, rng))
                bell_towers += sum("seals the Campanile" in line for line in to_dict(state)["log"])
            assert winners(state), f"{players} players, seed {seed}: no end in 5000 steps"
    assert bell_towers > 0
