"""The choices worth searching, as short plans of actions (the Strong bot's candidate moves).

A plan is a tuple of actions the bot means to take in order; the steps in between that only
answer a follow-up question (paying a card cost brick by brick, the construction cost) are left
to the Standard policy (`run_plan`). Plans exist for the decisions that matter: which card to
take (with or without a Princess), whether and where to exchange and which colour to take back,
which personnel card to play before building, how many bricks go onto which tower (and whether
a Mason pays for them), and which commission to fulfil. Payments and other small choices get no
plans: the Standard bot answers them.

Build plans are many (every split of up to six bricks over the towers), so they are generated
from the few heights that mean something (keep a tower standing, reach an open commission, as
high as the bricks allow) and ranked by a one-turn look (`build_value`) before any playout.
"""

from __future__ import annotations

import random
from typing import Any

from .apply import apply_in_place
from .data import BELL_TOWER_HEIGHT, BUILD_COST, COLORS, LEVEL_TILE_PP, MAX_BUILD_PER_TURN
from .greedy import WHITE, Me, commission_pp, greedy_decide
from .legal import legal_actions_of
from .players import build_discount
from .state import clone

Action = dict[str, Any]
Plan = tuple[Action, ...]
S = dict[str, Any]

# Personnel cards whose use the Standard bot never weighs (it plays Princess, Mason, Architect
# and an event-cancelling Patrician by rule): the search tries playing them before building.
SEARCHED_PERSONNEL = ("Alchemist", "Smuggler", "Saboteur", "Wholesaler", "Patrician")
# How many exchanges (slot and colour taken back) are played out.
EXCHANGE_PLANS = 3
# How many build plans survive the one-turn ranking to be played out.
BUILD_PLANS = 7
# A plan never needs more Standard steps between two of its actions than this.
MAX_FILL_STEPS = 12


def candidate_plans(s: S, legal: list[Action]) -> list[Plan]:
    """The plans worth comparing by playouts here, or [] when the Standard bot should answer
    (a pending payment, the limits phase, or nothing to choose between)."""
    if s["pending"] is not None or len(legal) < 2:
        return []
    phase = s["phase"]
    if phase == "choose":
        plans = _choose_plans(s, legal)
    elif phase == "exchange":
        plans = _exchange_plans(s, legal)
    elif phase == "build":
        plans = _build_plans(s, legal)
    elif phase == "fulfil":
        plans = [(a,) for a in legal if a["type"] != "play_card" or a["card"] == "Architect"]
    else:
        plans = []
    return plans if len(plans) > 1 else []


def run_plan(s: S, plan: Plan, rng: random.Random) -> bool:
    """Apply `plan` to `s` in place, the Standard bot answering the steps in between; False if
    a step of the plan never became legal (the plan is then worthless)."""
    seat = s["seat"]
    for action in plan:
        for _ in range(MAX_FILL_STEPS):
            legal = legal_actions_of(s)
            if action in legal:
                break
            if s["phase"] == "over" or s["seat"] != seat or not legal:
                return False
            apply_in_place(s, greedy_decide(s, legal, rng))
        else:
            return False
        apply_in_place(s, action)
    return True


def _personnel(legal: list[Action]) -> list[Plan]:
    return [(a,) for a in legal if a["type"] == "play_card" and a["card"] in SEARCHED_PERSONNEL]


def _choose_plans(s: S, legal: list[Action]) -> list[Plan]:
    picks = [a for a in legal if a["type"] == "choose_card"]
    plans: list[Plan] = [(a,) for a in picks]
    princess = {"type": "play_card", "card": "Princess"}
    if princess in legal:
        plans += [(princess, a) for a in picks if a["slot"] >= 1]
    plans += [p for p in _personnel(legal) if p[0]["card"] == "Wholesaler"]
    if not picks:
        plans += [(a,) for a in legal if a["type"] == "end_phase"]
    return plans


def _exchange_plans(s: S, legal: list[Action]) -> list[Plan]:
    """Not exchanging, the most promising exchanges (the colour taken back against the bricks
    the Standard bot would pay), and the personnel cards worth a try before building."""
    me = Me(s)
    price = sorted(me.worth[c] for c in range(6) for _ in range(me.store[c]))[:3]
    paid = sum(price)
    exchanges = []
    for a in legal:
        if a["type"] == "exchange":
            bricks = s["row"][a["slot"]]["bricks"]
            for c in range(6):
                if bricks[c]:
                    take = {"type": "take_brick", "color": COLORS[c]}
                    exchanges.append((me.worth[c] - paid, (a, take)))
    exchanges.sort(key=lambda pair: -pair[0])
    plans: list[Plan] = [(a,) for a in legal if a["type"] == "end_phase"]
    plans += [plan for _, plan in exchanges[:EXCHANGE_PLANS]]
    return plans + _personnel(legal)


def _build_plans(s: S, legal: list[Action]) -> list[Plan]:
    """Ranked splits of this turn's bricks over the towers, each ending the build phase, and
    the Standard bot's own build among them."""
    me = Me(s)
    options = _allocations(s, me, {"type": "play_card", "card": "Mason"} in legal)
    ranked = sorted(options, key=lambda plan: -build_value(s, me, plan))
    plans = ranked[:BUILD_PLANS]
    standard = standard_build(s)
    if standard not in plans:
        plans.append(standard)
    plans += [p for p in _personnel(legal) if p[0]["card"] in ("Alchemist", "Smuggler")]
    return plans


def standard_build(s: S) -> Plan:
    """The bricks the Standard bot would add from here, up to its end of the build phase."""
    copy = clone(s)
    rng = random.Random(0)
    actions: list[Action] = []
    while copy["phase"] == "build" and copy["pending"] is None:
        action = greedy_decide(copy, legal_actions_of(copy), rng)
        actions.append(action)
        apply_in_place(copy, action)
    return tuple(actions)


def _heights(me: Me, color: int, height: int, most: int) -> set[int]:
    """The numbers of bricks worth adding to a tower: one (keep it), up to an open commission
    of its colour, a bell tower, as many as allowed."""
    counts = {1, most}
    for add in range(1, most + 1):
        if me.is_open(color, height + add):
            counts.add(add)
    if color == WHITE and height < BELL_TOWER_HEIGHT <= height + most:
        counts.add(BELL_TOWER_HEIGHT - height)
    return {c for c in counts if 1 <= c <= most}


Split = tuple[tuple[int, int], ...]  # (colour, bricks) per tower, then for a new tower


def _allocations(s: S, me: Me, mason_legal: bool) -> list[Plan]:
    """Every sensible split (a tower may get 0, 1, a commission's height or as many as it
    can; at most one new tower), with and without a Mason when one could be played."""
    player = s["players"][s["seat"]]
    turn = s["turn"]
    left = MAX_BUILD_PER_TURN - turn["built"]
    plans: list[Plan] = []
    for split in _splits(_brick_options(me, left), left, player["store"]):
        total = sum(n for _, n in split)
        price = BUILD_COST[turn["built"] + total]
        plain = max(0, price - build_discount(player, turn["mason"]))
        for mason in (False, True) if mason_legal else (False,):
            cost = max(0, price - build_discount(player, True)) if mason else plain
            if cost <= sum(player["store"]) - total and not (mason and cost == plain):
                plans.append(_plan_of(split, len(player["towers"]), mason))
    return plans


def _brick_options(me: Me, left: int) -> list[list[tuple[int, int]]]:
    """For each tower, then for a new one, the (colour, bricks) worth trying."""
    store = me.store
    options = []
    for t in me.player["towers"]:
        most = min(left, store[t["c"]], 8 - t["h"])
        options.append([(t["c"], n) for n in [0, *sorted(_heights(me, t["c"], t["h"], most))]])
    new = [(-1, 0)]
    for c in range(6):
        if store[c]:
            new += [(c, n) for n in sorted(_heights(me, c, 0, min(left, store[c], 8)))]
    return [*options, new]


def _splits(options: list[list[tuple[int, int]]], left: int, store: list[int]) -> list[Split]:
    """The combinations of one option per tower within the turn's bricks and the storehouse,
    depth first: a split already over the limit is not extended (many towers would make
    thousands of combinations, few of them possible)."""
    found: list[Split] = []
    used = [0] * 6

    def extend(split: tuple[tuple[int, int], ...], total: int) -> None:
        if len(split) == len(options):
            found.append(split)
            return
        for color, n in options[len(split)]:
            if n and (total + n > left or used[color] + n > store[color]):
                continue
            used[color] += n
            extend((*split, (color, n)), total + n)
            used[color] -= n

    extend((), 0)
    return found


def _plan_of(split: Split, towers: int, mason: bool) -> Plan:
    actions: list[Action] = [{"type": "play_card", "card": "Mason"}] if mason else []
    for i, (_, n) in enumerate(split[:-1]):
        actions += [{"type": "build", "tower": i}] * n
    color, n = split[-1]
    if n:
        actions += [{"type": "build", "color": COLORS[color]}]
        actions += [{"type": "build", "tower": towers}] * (n - 1)
    actions.append({"type": "end_phase"})
    return tuple(actions)


def build_value(s: S, me: Me, plan: Plan) -> float:
    """A one-turn look at a build plan: the PP it can fulfil at once, progress towards the
    open commissions, the towers it lets fall and the bricks it spends."""
    towers = [dict(t) for t in me.player["towers"]]
    mason = bool(s["turn"]["mason"])
    added = 0
    for action in plan:
        if action["type"] == "play_card":
            mason = True
        elif action["type"] == "build":
            added += 1
            if "tower" in action and action["tower"] < len(towers):
                towers[action["tower"]]["h"] += 1
                towers[action["tower"]]["add"] += 1
            else:
                towers.append({"c": _color(action), "h": 1, "add": 1, "old": False})
    discount = build_discount(me.player, mason)
    cost = max(0, BUILD_COST[s["turn"]["built"] + added] - discount)
    value = -1.2 * cost - (2.5 if mason else 0.0)
    seals = me.player["seals"]
    for t in towers:
        if t["old"] and t["add"] == 0:
            value -= 0.6 * t["h"]  # torn down: half its bricks lost, the rest idle
            continue
        if seals and me.is_open(t["c"], t["h"]):
            value += 3.0 + commission_pp(s, t["c"], t["h"]) + LEVEL_TILE_PP.get(t["h"], 0) * 0.5
            seals -= 1
            continue
        target = me.target(t["c"], t["h"])
        if target is None:
            value -= 0.5 * t["h"]
        else:
            value += 0.4 * t["h"] + commission_pp(s, t["c"], target) / (target - t["h"] + 2)
    return float(value)


def _color(action: Action) -> int:
    return COLORS.index(action["color"])
