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

from .cards import CARDS, Event
from .data import BELL_TOWER_HEIGHT, BUILD_COST, COLOR_INDEX, LEVELS, printed_pp
from .fulfil import balcony_at, campanile_blocks, open_commission
from .legal import legal_actions_of
from .players import build_discount
from .state import State

Action = dict[str, Any]
Bot = Callable[[State, random.Random], Action]


def random_player(state: State, rng: random.Random) -> Action:
    """Uniform over the legal actions: the baseline every real bot must beat."""
    return rng.choice(legal_actions_of(state._d))


def greedy(state: State, rng: random.Random) -> Action:
    """A one-turn planner: take the most useful card, build towards open commissions, fulfil."""
    s = state._d
    legal = legal_actions_of(s)
    if len(legal) == 1:
        return legal[0]
    me = _Me(s)
    pending = s["pending"]
    if pending is not None:
        return _answer_pending(s, me, pending, legal, rng)
    phase = s["phase"]
    if phase == "choose":
        return _choose(s, me, legal)
    if phase == "build":
        return _build(s, me, legal)
    if phase == "fulfil":
        return _fulfil(s, me, legal)
    if phase == "limits":
        return _limits(me, legal)
    return _first(legal, "end_phase") or legal[0]


class _Me:
    """What the acting player wants: the commission each tower is heading for, brick worth."""

    def __init__(self, s: dict[str, Any]) -> None:
        self.seat = s["seat"]
        self.player = s["players"][self.seat]
        self.store = self.player["store"]
        # While the Campanile blocks this player, nothing else can be fulfilled: the first
        # white tower that can still be a bell tower is headed for exactly 3 levels.
        self.bell_tower = _bell_tower(s, self.seat, self.player["towers"])
        self.targets = [
            BELL_TOWER_HEIGHT if i == self.bell_tower else _target(s, t)
            for i, t in enumerate(self.player["towers"])
        ]
        need = [0.0] * 6
        for tower, target in zip(self.player["towers"], self.targets, strict=True):
            if target is not None:
                need[tower["c"]] += 1.0
        self.worth = [1.0 + need[c] + 0.4 * _open_levels(s, c) + 0.1 * c for c in range(6)]

    def cheapest(self, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: self.worth[COLOR_INDEX[a["color"]]])

    def dearest(self, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: self.worth[COLOR_INDEX[a["color"]]])


def _bell_tower(s: dict[str, Any], seat: int, towers: list[dict[str, Any]]) -> int | None:
    """The tower meant to seal the Campanile, -1 to start one, None when none is needed."""
    if not campanile_blocks(s, seat):
        return None
    white = COLOR_INDEX["white"]
    return next(
        (i for i, t in enumerate(towers) if t["c"] == white and t["h"] <= BELL_TOWER_HEIGHT), -1
    )


_BELL_WORTH = 8.0  # sealing the Campanile unblocks every later commission


def _open_levels(s: dict[str, Any], color: int) -> int:
    return sum(1 for level in LEVELS if open_commission(s, color, level))


def _target(s: dict[str, Any], tower: dict[str, Any]) -> int | None:
    """The lowest open commission this tower can still grow into."""
    for level in LEVELS:
        if level >= tower["h"] and open_commission(s, tower["c"], level):
            return level
    return None


def _commission_pp(s: dict[str, Any], color: int, level: int) -> int:
    balcony = balcony_at(s, color, level)
    return s["balconies"][balcony]["pp"] if balcony is not None else printed_pp(color, level)


def _first(legal: list[Action], kind: str) -> Action | None:
    return next((a for a in legal if a["type"] == kind), None)


def _worth(card: str) -> float:
    """What the card's registry entry says it is worth to the greedy bot."""
    return CARDS[card].worth


def _harmful(card: str) -> bool:
    """An event the bot would rather not have taken: it cancels it with a Patrician."""
    entry = CARDS[card]
    return isinstance(entry, Event) and entry.worth < 0


def _card_worth(me: _Me, card: str) -> float:
    if card in me.player["buildings"]:
        return 0.0
    if isinstance(CARDS[card], Event) and "Patrician" in me.player["hand"]:
        return 0.0
    return _worth(card)


def _answer_pending(
    s: dict[str, Any], me: _Me, pending: dict[str, Any], legal: list[Action], rng: random.Random
) -> Action:
    kind = pending["kind"]
    if kind == "event":
        cancel = _first(legal, "play_card")
        if cancel is not None and _harmful(pending["card"]):
            return cancel
        return {"type": "resolve_event"}
    if legal[0]["type"] == "pay_brick":
        return me.cheapest(legal)
    if legal[0]["type"] == "take_brick":
        return me.dearest(legal)
    if kind in ("botch", "collapse"):
        return min(legal, key=lambda a: me.player["towers"][a["tower"]]["h"])
    if kind == "saboteur":
        return max(legal, key=lambda a: s["players"][a["seat"]]["towers"][a["tower"]]["h"])
    if kind == "patrician":
        return min(legal, key=lambda a: _worth(a["card"]))
    return rng.choice(legal)


def _choose(s: dict[str, Any], me: _Me, legal: list[Action]) -> Action:
    cards = [a for a in legal if a["type"] == "choose_card"]
    if not cards:
        return legal[0]
    free = s["turn"]["princess"]

    def value(a: Action) -> float:
        entry = s["row"][a["slot"]]
        bricks = sum(n * me.worth[c] for c, n in enumerate(entry["bricks"]))
        cost = 0 if free else a["slot"]
        return float(bricks + _card_worth(me, entry["card"]) - 1.3 * cost)

    best = max(cards, key=value)
    if best["slot"] >= 2 and {"type": "play_card", "card": "Princess"} in legal:
        return {"type": "play_card", "card": "Princess"}
    return best


def _build(s: dict[str, Any], me: _Me, legal: list[Action]) -> Action:
    builds = [a for a in legal if a["type"] == "build"]
    if not builds:
        return {"type": "end_phase"}
    built = s["turn"]["built"]
    discount = build_discount(me.player, s["turn"]["mason"])
    extra = max(0, BUILD_COST[built + 1] - discount) - max(0, BUILD_COST[built] - discount)
    best, best_score = None, 0.0
    for a in builds:
        score = _build_score(s, me, a) - 1.5 * extra
        if score > best_score:
            best, best_score = a, score
    if best is None:
        return {"type": "end_phase"}
    mason = {"type": "play_card", "card": "Mason"}
    if extra > 0 and mason in legal:
        return mason
    return best


def _build_score(s: dict[str, Any], me: _Me, action: Action) -> float:
    if "tower" in action:
        tower = me.player["towers"][action["tower"]]
        target = me.targets[action["tower"]]
        color, height = tower["c"], tower["h"] + 1
        keep_alive = 4.0 if tower["old"] and tower["add"] == 0 else 0.0
        bell = action["tower"] == me.bell_tower
    else:
        color, height, keep_alive = COLOR_INDEX[action["color"]], 1, 0.0
        bell = me.bell_tower == -1 and color == COLOR_INDEX["white"]
        target = (
            BELL_TOWER_HEIGHT
            if bell
            else next((lv for lv in LEVELS if open_commission(s, color, lv)), None)
        )
        if target is None or me.store[color] + 1 < min(target, 3) - 1:
            return -1.0
    if target is None or height > target:
        return keep_alive - 3.0
    worth = _BELL_WORTH if bell else _commission_pp(s, color, target)
    if height == target:
        return 10.0 + worth + keep_alive
    return float(2.0 + keep_alive + worth / (target - height + 1))


def _fulfil(s: dict[str, Any], me: _Me, legal: list[Action]) -> Action:
    seal = _first(legal, "seal_campanile")
    if seal is not None:
        return seal
    options = [a for a in legal if a["type"] == "fulfil"]
    if options:
        tower = me.player["towers"]
        return max(options, key=lambda a: _commission_pp(s, tower[a["tower"]]["c"], a["level"]))
    architect = {"type": "play_card", "card": "Architect"}
    if architect in legal and _architect_helps(s, me):
        return architect
    return _first(legal, "end_turn") or _first(legal, "end_phase") or legal[0]


def _architect_helps(s: dict[str, Any], me: _Me) -> bool:
    if me.player["seals"] == 0:
        return False
    return any(open_commission(s, t["c"], t["h"] + d) for t in me.player["towers"] for d in (-1, 1))


def _limits(me: _Me, legal: list[Action]) -> Action:
    bricks = [a for a in legal if a["type"] == "pay_brick"]
    if bricks:
        return me.cheapest(bricks)
    cards = [a for a in legal if a["type"] == "discard_card"]
    if cards:
        return min(cards, key=lambda a: _worth(a["card"]))
    return _first(legal, "end_turn") or legal[0]


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
