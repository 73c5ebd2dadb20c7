"""Planned turns (issue 31): how much of a slow game plans would play for the players.

200 two-player and 100 four-player Firenze games (PLANS_BENCH_GAMES scales both: 0.1 for a quick
look). Every seat plays as the Standard bot would. Right after its turn, each seat plans its
next turn from its own view (planned.sandbox: the hidden cards dealt at random) the way
Standard would play it there, stopping where a card would be drawn; when the turn comes the
plan runs step by step (a step holds while a legal action has the same intent) and Standard
plays whatever is left by hand. Printed: the share of turns the plan played in full (the turn
ended by the plan), the share stopped at each step and why, and the days a game takes at one
turn per player per day with and without plans (a turn the plan completes costs no day).
PLANS_BENCH_ORDERS=1 switches every seat's standing orders on (skip the exchange, end the turn
when nothing is left): after a plan that held to its end they take their steps, as the site's
runner does.
Goal: none fixed (the issue asks for the figures); a plan never makes an illegal move (the run
fails if one does).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from games.rules.firenze.rules import (  # noqa: E402
    acting_seat,
    apply_action,
    choose_action,
    is_over,
    legal_actions,
    new_game,
    player_view,
)
from games.rules.firenze.rules.planned import (  # noqa: E402
    END_TURN,
    SKIP_EXCHANGE,
    intent,
    sandbox,
    standing_action,
    stop,
)
from games.rules.firenze.rules.state import State  # noqa: E402

MAX_STEPS = 40
ORDERS = (SKIP_EXCHANGE, END_TURN)


@dataclass
class Tally:
    turns: int = 0
    planned: int = 0
    completed: int = 0  # turns the plan ended itself
    stops: Counter[tuple[int, str]] = field(default_factory=Counter)  # (step, why)
    days_without: list[int] = field(default_factory=list)
    days_with: list[int] = field(default_factory=list)
    orders: bool = False


def make_plan(state: State, seat: int, rng: random.Random) -> list[dict]:
    """The intents of the seat's next turn as Standard would play it in its sandbox."""
    box = sandbox(player_view(state, seat), seat, rng)
    if box is None:
        return []
    plan: list[dict] = []
    while acting_seat(box) == seat and len(plan) < MAX_STEPS:
        action = choose_action(player_view(box, seat), "standard", rng)
        after = apply_action(box, action)
        plan.append(intent(box, action))
        if stop(box, after, seat):
            break
        box = after
    return plan


def run_plan(state: State, seat: int, plan: list[dict], tally: Tally) -> tuple[State, bool]:
    """The state after the plan's steps that hold; whether the plan ended the turn."""
    for index, wanted in enumerate(plan):
        if acting_seat(state) != seat:
            tally.stops[(index + 1, "turn ended early")] += 1
            return state, False
        action = next((a for a in legal_actions(state) if intent(state, a) == wanted), None)
        if action is None:
            tally.stops[(index + 1, "no longer holds")] += 1
            return state, False
        after = apply_action(state, action)  # raises on an illegal move: the run fails
        revealed = stop(state, after, seat)
        state = after
        if revealed and index + 1 < len(plan):
            tally.stops[(index + 2, "something revealed")] += 1
            return state, False
    if tally.orders:
        state = run_orders(state, seat)
    if acting_seat(state) == seat and not is_over(state):
        tally.stops[(len(plan) + 1, "plan ended before the turn (a draw)")] += 1
        return state, False
    return state, True


def run_orders(state: State, seat: int) -> State:
    """The standing orders' steps after a plan that held, each a legal action."""
    for _ in range(MAX_STEPS):
        if is_over(state) or acting_seat(state) != seat:
            break
        action = next(
            (a for o in ORDERS if (a := standing_action(state, seat, o)) is not None), None
        )
        if action is None:
            break
        assert action in legal_actions(state)
        after = apply_action(state, action)
        revealed = stop(state, after, seat)
        state = after
        if revealed:
            break
    return state


def play(players: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    state = new_game(players, seed, None)
    plans: dict[int, list[dict]] = {}
    turns = completed = 0
    while not is_over(state):
        seat = acting_seat(state)
        assert seat is not None
        turns += 1
        plan = plans.pop(seat, [])
        done = False
        if plan:
            tally.planned += 1
            state, done = run_plan(state, seat, plan, tally)
        while not is_over(state) and acting_seat(state) == seat:
            state = apply_action(state, choose_action(player_view(state, seat), "standard", rng))
        completed += done
        if not is_over(state):
            plans[seat] = make_plan(state, seat, rng)
    tally.turns += turns
    tally.completed += completed
    rounds_without = turns / players
    tally.days_without.append(round(rounds_without * players))
    tally.days_with.append(turns - completed)


def report(players: int, games: int, tally: Tally) -> None:
    orders = "with standing orders" if tally.orders else "no standing orders"
    print(f"plans, {players} players, {games} games (Standard everywhere, {orders}):")
    print(f"  turns {tally.turns}, with a plan {tally.planned}")
    print(f"  played in full by the plan: {tally.completed / max(1, tally.turns):.1%} of turns")
    for (step, why), count in sorted(tally.stops.items()):
        print(f"  stopped before step {step} ({why}): {count / max(1, tally.turns):.1%}")
    without = statistics.mean(tally.days_without)
    with_plans = statistics.mean(tally.days_with)
    print(
        f"  days to finish at one turn per player per day: {without:.1f} without plans, "
        f"{with_plans:.1f} with ({without - with_plans:.1f} saved)"
    )


def main() -> None:
    scale = float(os.environ.get("PLANS_BENCH_GAMES", "1"))
    for players, games in ((2, 200), (4, 100)):
        count = max(1, round(games * scale))
        tally = Tally(orders=os.environ.get("PLANS_BENCH_ORDERS") == "1")
        for seed in range(count):
            play(players, 31_000 + seed, tally)
        report(players, count, tally)


if __name__ == "__main__":
    main()
