"""The post-game review: a player's card choices and builds beside what the Strong bot would
have done, in estimated points.

For each of the seat's turns the review stops twice, where a turn is decided: at the start of
the choose phase (which card, with or without a Princess) and at the start of the build phase
(which towers, how high). There it takes the seat's view then (player_view: the player's own
hand and the public board, nothing the player could not see), lets the Strong bot search its
candidate plans with the player's actual plan among them (never dropped), and reports both
plans and how much better the bot's is by its estimate: the PP margin (own worth minus the best
other player's, two turns on) the player's choice gave away. That difference is measured again
on fresh samples, the two plans side by side: the best of many noisy means is flattered by its
own luck.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .apply import apply_action
from .data import COLORS
from .determinize import sample_state
from .legal import legal_actions_of
from .plans import Plan, candidate_plans
from .state import State, clone
from .strong import Budget, search
from .view import player_view

Action = dict[str, Any]
S = dict[str, Any]

DECISIONS = {"choose": "card", "build": "build"}
# The share of a decision's budget spent choosing the bot's plan; the rest measures how much
# better it is than the player's.
CHOOSING_SHARE = 0.6


def review_game(
    initial: State,
    actions: Sequence[Action],
    seat: int,
    budget: Budget,
    rng: random.Random | None = None,
) -> list[dict[str, Any]]:
    """One entry per reviewed decision of `seat`, in the order they were taken (JSON-ready):
    "step" (moves played before it), "turn", "decision" ("card" or "build"), "played" and
    "suggested" (summary_of each plan), "loss" (estimated PP given away, >= 0), "agree"."""
    rng = rng or random.Random(0)
    state = initial
    entries: list[dict[str, Any]] = []
    seen: set[tuple[int, str]] = set()
    for step, action in enumerate(actions):
        d = state._d
        phase = d["phase"]
        if (
            d["seat"] == seat
            and d["pending"] is None
            and phase in DECISIONS
            and (d["turn_no"], phase) not in seen
        ):
            seen.add((d["turn_no"], phase))
            played = players_plan(state, actions, step)
            if played is not None:
                entry = review_decision(state, played, budget, rng)
                if entry is not None:
                    entries.append({"step": step, **entry})
        state = apply_action(state, action)
    return entries


def estimate_lines(
    state: State, lines: Sequence[Sequence[Action]], budget: Budget, rng: random.Random
) -> list[float | None]:
    """The Strong bot's estimate of each line of the acting seat's steps from `state`, from
    that seat's view then, as a review measures a decision (the PP margin two turns on, the
    lines side by side on the same samples); None for a line that never became playable."""
    view = player_view(state, state._d["seat"])
    keys = [json.dumps(list(line), sort_keys=True) for line in lines]
    plans: dict[str, Plan] = {key: tuple(line) for key, line in zip(keys, lines, strict=True)}
    if not plans:
        return []
    ranked = search(view, list(plans.values()), rng, budget)
    means = {json.dumps(list(c.plan), sort_keys=True): c.mean for c in ranked}
    return [round(means[key], 1) if means[key] != float("-inf") else None for key in keys]


def players_plan(state: State, actions: Sequence[Action], start: int) -> Plan | None:
    """What the player did in this phase from `start`: up to the card taken (choose) or the end
    of the build; None when the phase ended otherwise (no card left to take)."""
    d = state._d
    seat, phase = d["seat"], d["phase"]
    last = "choose_card" if phase == "choose" else "end_phase"
    plan: list[Action] = []
    for action in actions[start:]:
        plan.append(action)
        if action["type"] == last and state._d["pending"] is None:
            return tuple(plan)
        state = apply_action(state, action)
        if state._d["seat"] != seat or state._d["phase"] != phase:
            return None
    return None


def review_decision(
    state: State, played: Plan, budget: Budget, rng: random.Random
) -> dict[str, Any] | None:
    """The Strong bot's judgement of one decision (None when there was nothing to choose)."""
    d = state._d
    view = player_view(state, d["seat"])
    sample = sample_state(view, rng)
    plans = candidate_plans(sample, legal_actions_of(sample))
    if played not in plans:
        plans.append(played)
    if len(plans) < 2:
        return None
    choosing = replace(budget, seconds=budget.seconds * CHOOSING_SHARE)
    ranked = search(view, plans, rng, choosing, keep=played)
    best = ranked[0].plan
    playouts = sum(c.count for c in ranked)
    loss = 0.0
    if best != played:
        # The best of many noisy means is flattered by its luck (the winner's curse): the
        # difference is measured again on fresh samples, the two plans side by side.
        measuring = replace(budget, seconds=budget.seconds - choosing.seconds)
        again = search(view, [best, played], rng, measuring)
        bot, mine = (next(c for c in again if c.plan == plan) for plan in (best, played))
        loss = max(0.0, bot.mean - mine.mean)
        playouts += bot.count + mine.count
    return {
        "turn": d["turn_no"],
        "decision": DECISIONS[d["phase"]],
        "played": summary_of(d, played),
        "suggested": summary_of(d, best),
        "loss": round(loss, 1),
        "agree": best == played,
        "playouts": playouts,
    }


def summary_of(d: S, plan: Plan) -> dict[str, Any]:
    """A plan in public, language-free terms: the card taken (name, slot, with a Princess),
    the personnel cards played, and for a build each tower's height before and after."""
    cards = [a["card"] for a in plan if a["type"] == "play_card"]
    summary: dict[str, Any] = {"cards": cards}
    take = next((a for a in plan if a["type"] == "choose_card"), None)
    if take is not None:
        summary["card"] = d["row"][take["slot"]]["card"]
        summary["slot"] = take["slot"]
    exchange = next((a for a in plan if a["type"] == "exchange"), None)
    if exchange is not None:
        summary["exchange"] = d["row"][exchange["slot"]]["card"]
    if any(a["type"] == "build" for a in plan) or d["phase"] == "build":
        summary["towers"] = _towers_after(d, plan)
    return summary


def _towers_after(d: S, plan: Plan) -> list[list[Any]]:
    """[colour, height before, height after] for every tower the plan builds on."""
    towers = [dict(t, before=t["h"]) for t in clone(d)["players"][d["seat"]]["towers"]]
    for action in plan:
        if action["type"] != "build":
            continue
        if "tower" in action and action["tower"] < len(towers):
            towers[action["tower"]]["h"] += 1
        else:
            towers.append({"c": COLORS.index(action["color"]), "h": 1, "before": 0})
    return [[COLORS[t["c"]], t["before"], t["h"]] for t in towers if t["h"] != t["before"]]
