"""Bot strength and thinking time (issue 21): tournaments with rotating seats.

Goals: Strong wins >= 75 % of 2-player games against Standard and >= 40 % of 4-player games
against three Standards (a fair share is 25 %); Standard wins >= 70 % of 2-player games
against Beginner; Strong thinks <= 1 s of CPU per decision at the median and <= 3 s at the
99th percentile, on one core (its budget is CPU time, so a loaded machine slows the run, not
the bot's strength or its figures). It also measures the start player's advantage and whether
the 4-player seat bias is real, from many Standard-vs-Standard games.

Every game is a fresh seed; seats rotate so each bot sits in every position equally often. A
win counts 1, a shared win 1/k. Intervals are Wilson 95 % intervals. Games run in parallel
processes (BOTS_BENCH_WORKERS, default the number of cores); thinking time is each process's
own CPU time. BOTS_BENCH_GAMES scales the Strong tournaments (default 100 each; 10 for a quick
look), BOTS_BENCH_SELFPLAY the Standard-only games (default 2000 per player count).
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.rules.firenze.rules import (
    acting_seat,
    apply_action,
    is_over,
    new_game,
    player_view,
    scores,
    to_dict,
    winners,
)
from games.rules.firenze.rules.levels import choose_action
from games.rules.firenze.rules.strong import STRONG

STRONG_GAMES = int(os.environ.get("BOTS_BENCH_GAMES", "100"))
SELFPLAY_GAMES = int(os.environ.get("BOTS_BENCH_SELFPLAY", "2000"))
BEGINNER_GAMES = max(40, 2 * STRONG_GAMES)
WORKERS = int(os.environ.get("BOTS_BENCH_WORKERS", str(os.cpu_count() or 1)))
SEED_BASE = 910_000


@dataclass
class GameResult:
    seat: int  # where the bot under test sat
    start: int  # the start player's seat
    share: float  # its share of the win (1, 1/k on a k-way tie, 0)
    score: int
    others: list[int]
    winners: list[int]
    think: list[float] = field(default_factory=list)  # CPU seconds per decision of the bot
    searched: list[float] = field(default_factory=list)  # those that searched (> 5 ms)


def play(args: tuple[int, list[str], int]) -> GameResult:
    """One game: levels per seat; the bot under test sits at `seat`."""
    seed, levels, seat = args
    state = new_game(len(levels), seed)
    rng = random.Random(seed)
    think: list[float] = []
    while not is_over(state):
        acting = acting_seat(state)
        assert acting is not None
        view = player_view(state, acting)
        start = time.process_time()
        action = choose_action(view, levels[acting], rng)
        if acting == seat:
            think.append(time.process_time() - start)
        state = apply_action(state, action)
    won = winners(state)
    final = scores(state)
    return GameResult(
        seat=seat,
        start=to_dict(state)["start_seat"],
        share=1 / len(won) if seat in won else 0.0,
        score=final[seat],
        others=[s for i, s in enumerate(final) if i != seat],
        winners=won,
        think=think,
        searched=[t for t in think if t > 0.005],
    )


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def tournament(
    pool: ProcessPoolExecutor, tested: str, other: str, players: int, games: int, offset: int
) -> list[GameResult]:
    jobs = []
    for g in range(games):
        seat = g % players
        levels = [other] * players
        levels[seat] = tested
        jobs.append((SEED_BASE + offset + g, levels, seat))
    return list(pool.map(play, jobs, chunksize=1))


def report(name: str, results: list[GameResult], goal: float, players: int) -> None:
    games = len(results)
    wins = sum(r.share for r in results)
    low, high = wilson(wins, games)
    rate = wins / games if games else 0.0
    mine = statistics.mean(r.score for r in results) if results else 0.0
    theirs = statistics.mean(s for r in results for s in r.others) if results else 0.0
    verdict = "met" if rate >= goal else "NOT met"
    print(
        f"  {name}: wins {rate:6.1%} of {games} {players}-player games "
        f"(95 % interval {low:.1%}-{high:.1%}; goal >= {goal:.0%}: {verdict}); "
        f"mean score {mine:.1f} vs {theirs:.1f}"
    )


def think_report(results: Iterable[GameResult]) -> None:
    every = [t for r in results for t in r.think]
    searched = [t for r in results for t in r.searched]
    if not every:
        return
    median, p99 = statistics.median(every), percentile(every, 0.99)
    print(
        f"  Strong thinking, CPU s per decision ({len(every)} decisions, one core each): "
        f"median {median:.3f} (goal <= 1), p90 {percentile(every, 0.9):.3f}, "
        f"p99 {p99:.3f} (goal <= 3), max {max(every):.3f}: "
        f"{'met' if median <= 1 and p99 <= 3 else 'NOT met'}"
    )
    if searched:
        print(
            f"    the {len(searched)} decisions it searched ({len(searched) / len(every):.0%}): "
            f"median {statistics.median(searched):.3f}, p99 {percentile(searched, 0.99):.3f}"
        )


def seat_bias(pool: ProcessPoolExecutor, players: int, games: int) -> None:
    """Standard against itself: the win share of each position counted from the start player."""
    jobs = [
        (SEED_BASE + 500_000 + players * 100_000 + g, ["standard"] * players, 0)
        for g in range(games)
    ]
    results = list(pool.map(play, jobs, chunksize=20))
    shares = [0.0] * players
    for r in results:
        for w in r.winners:
            shares[(w - r.start) % players] += 1 / len(r.winners)
    fair = games / players
    chi2 = sum((s - fair) ** 2 / fair for s in shares)
    p_value = _chi2_sf(chi2, players - 1)
    cells = []
    for position, wins in enumerate(shares):
        low, high = wilson(wins, games)
        cells.append(f"{position + 1}: {wins / games:.1%} ({low:.1%}-{high:.1%})")
    print(
        f"  Standard vs Standard, {games} {players}-player games, "
        "wins by position from the start player:"
    )
    print("    " + "; ".join(cells))
    verdict = "real (p < 0.05)" if p_value < 0.05 else "not shown (p >= 0.05)"
    print(
        f"    chi-square {chi2:.1f} on {players - 1} df, "
        f"p = {p_value:.3g}: a seat bias is {verdict}"
    )


def _chi2_sf(x: float, df: int) -> float:
    """Survival function of the chi-square distribution for df = 1, 2 or 3 (no SciPy here)."""
    if df == 1:
        return math.erfc(math.sqrt(x / 2))
    if df == 2:
        return math.exp(-x / 2)
    if df == 3:
        return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    raise ValueError(df)


def main() -> None:
    load = os.getloadavg()[0]
    print(
        f"Bots (issue 21): Strong thinks {STRONG.seconds} s CPU per searched decision; "
        f"{WORKERS} worker processes; load average {load:.1f} at the start"
    )
    start = time.time()
    with ProcessPoolExecutor(WORKERS) as pool:
        two = tournament(pool, "strong", "standard", 2, STRONG_GAMES, 0)
        report("Strong vs Standard", two, 0.75, 2)
        four = tournament(pool, "strong", "standard", 4, STRONG_GAMES, 100_000)
        report("Strong vs 3 Standard", four, 0.40, 4)
        think_report(two + four)
        beginner = tournament(pool, "standard", "beginner", 2, BEGINNER_GAMES, 200_000)
        report("Standard vs Beginner", beginner, 0.70, 2)
        seat_bias(pool, 2, SELFPLAY_GAMES)
        seat_bias(pool, 4, SELFPLAY_GAMES)
    print(f"  ({time.time() - start:.0f} s wall clock)")


if __name__ == "__main__":
    main()
