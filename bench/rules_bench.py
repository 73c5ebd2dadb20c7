"""Rules-engine figures for issue 2: per-call timings, whole bot games, bot strength.

Run through `make bench`; goals: apply_action median <= 100 us, legal_actions median <= 200 us,
a complete 4-player bot game <= 0.5 s, greedy beating random in >= 90% of 2-player games.
"""

from __future__ import annotations

import random
import statistics
import time

from games.rules.firenze.rules import apply_action, is_over, legal_actions, new_game, winners
from games.rules.firenze.rules.bots import greedy, play_game, random_player

GAMES_FOR_TIMING = 30
GAMES_FOR_STRENGTH = 200


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def call_timings(games: int = GAMES_FOR_TIMING) -> dict[str, list[float]]:
    """Time every legal_actions and apply_action call of 4-player greedy games."""
    legal_times: list[float] = []
    apply_times: list[float] = []
    clock = time.perf_counter
    for seed in range(games):
        state = new_game(4, seed)
        rng = random.Random(seed)
        while not is_over(state):
            start = clock()
            legal_actions(state)
            legal_times.append(clock() - start)
            action = greedy(state, rng)
            start = clock()
            state = apply_action(state, action)
            apply_times.append(clock() - start)
    return {"legal_actions": legal_times, "apply_action": apply_times}


def game_speed(games: int = GAMES_FOR_TIMING) -> list[float]:
    durations = []
    for seed in range(games):
        start = time.perf_counter()
        play_game(4, 1000 + seed, [greedy] * 4)
        durations.append(time.perf_counter() - start)
    return durations


def greedy_win_rate(games: int = GAMES_FOR_STRENGTH) -> float:
    """Share of 2-player games greedy wins outright against random, seats alternating."""
    won = 0
    for seed in range(games):
        greedy_seat = seed % 2
        seats = [greedy, random_player] if greedy_seat == 0 else [random_player, greedy]
        final = play_game(2, seed, seats, max_steps=50_000)
        won += winners(final) == [greedy_seat]
    return won / games


def main() -> None:
    print("Rules engine, 4-player games, one core")
    for name, values in call_timings().items():
        us = [v * 1e6 for v in values]
        print(
            f"  {name:14s} median {statistics.median(us):7.1f} us   "
            f"p99 {_percentile(us, 0.99):7.1f} us   ({len(us)} calls)"
        )
    durations = game_speed()
    print(
        f"  bot-vs-bot game: median {statistics.median(durations) * 1000:6.1f} ms, "
        f"max {max(durations) * 1000:6.1f} ms, {len(durations) / sum(durations):5.1f} games/s"
    )
    rate = greedy_win_rate()
    print(f"  greedy vs random, {GAMES_FOR_STRENGTH} 2-player games: greedy wins {rate:.1%}")


if __name__ == "__main__":
    main()
