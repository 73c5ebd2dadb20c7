"""The Strong bot: determinized Monte Carlo search over the decisions that matter.

At a decision worth thinking about (plans.candidate_plans: the card, the exchange, the build,
the fulfilment) the bot compares its candidate plans by playing each one out many times:

- every round draws one *determinization* from the bot's view (determinize.sample_state: the
  deck order and the other hands dealt afresh; it never sees the real ones), and plays every
  surviving plan on a copy of that same sample with the same dice (common random numbers, so
  two plans are compared on the same luck);
- a playout runs the plan, then the Standard policy (what the Standard bots it meets really
  play) for every seat for two more turns each (`Budget.horizon`), and scores the position by
  estimate.estimate: the bot's worth minus the best other player's, in PP (so it plays to win,
  and a review can speak in points). Stopping early makes a playout ten times cheaper than
  playing to the end and less noisy: at the same budget, full playouts won 60 % of 2-player
  trial games against Standard, the two-turn horizon all 20;
- after rounds 2, 4, 8, ... the weaker half of the plans is dropped (successive halving), so
  the time goes to the close calls;
- it stops when its CPU-time budget is spent (`Budget.seconds`, process time: a loaded or slow
  machine plays a little weaker, never slower) or after `Budget.playouts` (tests).

Payments and other small choices are the Standard bot's. A chosen plan of several steps is
remembered by the views it leads to (they follow from the view alone), so the next steps of the
same turn are played without searching again.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from .apply import apply_in_place
from .determinize import sample_state
from .estimate import estimate
from .greedy import greedy_decide, greedy_step
from .legal import legal_actions_of
from .plans import MAX_FILL_STEPS, Plan, candidate_plans, run_plan
from .state import State, clone
from .view import player_view

Action = dict[str, Any]
View = dict[str, Any]
S = dict[str, Any]


@dataclass(frozen=True)
class Budget:
    """How long the Strong bot may think about one decision: CPU seconds, and optionally a
    number of playouts after which it stops anyway (tests, to be exact on any machine)."""

    seconds: float = 0.15
    playouts: int | None = None
    horizon: int | None = 2  # turns of every seat played out before estimating; None: to the end


STRONG = Budget()


@dataclass
class Candidate:
    """A plan and what its playouts scored (PP margin over the best other player)."""

    plan: Plan
    total: float = 0.0
    count: int = 0
    valid: bool = True

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else float("-inf")


def strong_decide(view: View, rng: random.Random, budget: Budget = STRONG) -> Action:
    """The Strong bot's next action, from `view` (player_view of the acting seat) alone."""
    key = view_key(view)
    remembered = _MEMORY.get(key)
    sample = sample_state(view, rng)
    legal = legal_actions_of(sample)
    if remembered is not None and remembered in legal:
        return remembered
    plans = candidate_plans(sample, legal)
    if not plans:
        return greedy_decide(sample, legal, rng)
    ranked = search(view, plans, rng, budget)
    best = ranked[0].plan
    _remember(sample, best, rng)
    return best[0]


def search(
    view: View,
    plans: list[Plan],
    rng: random.Random,
    budget: Budget,
    keep: Plan | None = None,
) -> list[Candidate]:
    """Every plan with its playout scores, best first (by mean over the rounds it survived);
    the plan `keep` is never dropped (a review compares it with the best over every round)."""
    seat = view["viewer"]
    clock = time.process_time
    deadline = clock() + budget.seconds
    alive = [Candidate(plan) for plan in plans]
    everyone = list(alive)
    playouts = 0
    rounds = 0
    while True:
        sample = sample_state(view, rng)
        dice = rng.getrandbits(32)
        for candidate in alive:
            candidate_value(candidate, sample, seat, dice, budget.horizon)
            playouts += 1
        rounds += 1
        out_of_time = clock() >= deadline
        if out_of_time or (budget.playouts is not None and playouts >= budget.playouts):
            break
        if rounds & (rounds - 1) == 0 and rounds >= 2 and len(alive) > 2:
            alive.sort(key=lambda c: -c.mean)
            alive = [
                c
                for i, c in enumerate(alive)
                if i < max(2, (len(alive) + 1) // 2) or c.plan == keep
            ]
    return sorted(everyone, key=lambda c: (-c.count, -c.mean))


def candidate_value(
    candidate: Candidate, sample: S, seat: int, dice: int, horizon: int | None = None
) -> None:
    """Play the candidate's plan out once on a copy of `sample` and add its score."""
    s = clone(sample)
    rng = random.Random(dice)
    if not candidate.valid or not run_plan(s, candidate.plan, rng):
        candidate.valid = False
        candidate.total, candidate.count = float("-inf"), 1
        return
    candidate.total += playout(s, seat, rng, horizon)
    candidate.count += 1


def playout(s: S, seat: int, rng: random.Random, horizon: int | None = None) -> float:
    """The Standard policy for every seat to the end (or `horizon` more turns of each seat,
    then an estimate): the seat's PP lead over the best other."""
    stop = None if horizon is None else s["turn_no"] + horizon * s["n"]
    while s["phase"] != "over":
        if stop is not None and s["turn_no"] >= stop and s["phase"] == "choose":
            return estimate(s, seat)
        apply_in_place(s, greedy_step(s, rng))
    totals = [p["total"] for p in s["final"]["players"]]
    return float(totals[seat] - max(t for i, t in enumerate(totals) if i != seat))


# --- remembering a plan of several steps ------------------------------------------------------

_MEMORY: OrderedDict[str, Action] = OrderedDict()
_MEMORY_SIZE = 4096


def view_key(view: View) -> str:
    """The identity of a view: equal exactly when everything the seat sees is equal."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _remember(sample: S, plan: Plan, rng: random.Random) -> None:
    """Record, for each view the plan passes through after its first step, the step to take:
    those views follow from the current one (no card is drawn before a plan's last step)."""
    if len(plan) < 2:
        return
    s = clone(sample)
    seat = s["seat"]
    apply_in_place(s, plan[0])
    for action in plan[1:]:
        for _ in range(MAX_FILL_STEPS):
            legal = legal_actions_of(s)
            step = action if action in legal else greedy_decide(s, legal, rng)
            _MEMORY[view_key(player_view(State(s), seat))] = step
            apply_in_place(s, step)
            if step is action or s["seat"] != seat or s["phase"] == "over":
                break
    while len(_MEMORY) > _MEMORY_SIZE:
        _MEMORY.popitem(last=False)


def forget_plans() -> None:
    """Drop every remembered plan (tests that compare fresh decisions)."""
    _MEMORY.clear()
