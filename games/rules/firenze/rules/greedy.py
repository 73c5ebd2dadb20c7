"""The Standard bot (stored games call it "greedy"): a one-turn planner that takes the most
useful card, builds towards open commissions and fulfils what it can.

It is also the policy the Strong bot's playouts use for every seat, so it is written for speed:
the open commissions are read once per step into a flat table (`open_table`) instead of asking
`fulfil.open_commission` dozens of times. It looks only at what the acting player may see (its
own hand and the public board), never at the deck order or another hand.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import CARDS, Event
from .data import BELL_TOWER_HEIGHT, BUILD_COST, COLOR_INDEX, LEVELS, printed_pp
from .fulfil import campanile_blocks
from .legal import legal_actions_of
from .players import build_discount

Action = dict[str, Any]
S = dict[str, Any]

WHITE = COLOR_INDEX["white"]
_BELL_WORTH = 8.0  # sealing the Campanile unblocks every later commission
_PRINCESS = {"type": "play_card", "card": "Princess"}
_MASON = {"type": "play_card", "card": "Mason"}
_ARCHITECT = {"type": "play_card", "card": "Architect"}


def open_table(s: S) -> list[bool]:
    """Whether each board square (colour * 6 + level - 3) is an open commission: uncovered,
    and if a balcony, the next one in order (the rule of fulfil.open_commission, all at once)."""
    table = [owner is None for owner in s["board"]]
    following = s["balcony_next"]
    for i, balcony in enumerate(s["balconies"]):
        if i != following:
            table[balcony["c"] * 6 + balcony["l"] - 3] = False
    return table


def commission_pp(s: S, color: int, level: int) -> int:
    """What fulfilling this commission pays: its balcony's PP, else the printed PP."""
    for balcony in s["balconies"]:
        if balcony["c"] == color and balcony["l"] == level:
            return int(balcony["pp"])
    return printed_pp(color, level)


def greedy_decide(s: S, legal: list[Action], rng: random.Random) -> Action:
    """The Standard bot's choice among `legal` (the legal actions of state dict `s`)."""
    if len(legal) == 1:
        return legal[0]
    pending = s["pending"]
    me = Me(s)
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


def greedy_step(s: S, rng: random.Random) -> Action:
    """The Standard bot's next action in state dict `s`."""
    return greedy_decide(s, legal_actions_of(s), rng)


class Me:
    """What the acting player wants: the commission each tower is heading for, brick worth."""

    __slots__ = ("bell_tower", "open", "player", "seat", "store", "targets", "worth")

    def __init__(self, s: S) -> None:
        self.seat = s["seat"]
        self.player = s["players"][self.seat]
        self.store = self.player["store"]
        self.open = table = open_table(s)
        # While the Campanile blocks this player, nothing else can be fulfilled: the first
        # white tower that can still be a bell tower is headed for exactly 3 levels.
        towers = self.player["towers"]
        self.bell_tower = _bell_tower(s, self.seat, towers)
        self.targets = [
            BELL_TOWER_HEIGHT if i == self.bell_tower else self.target(t["c"], t["h"])
            for i, t in enumerate(towers)
        ]
        need = [0.0] * 6
        for tower, target in zip(towers, self.targets, strict=True):
            if target is not None:
                need[tower["c"]] += 1.0
        self.worth = [
            1.0 + need[c] + 0.4 * sum(table[c * 6 : c * 6 + 6]) + 0.1 * c for c in range(6)
        ]

    def target(self, color: int, height: int) -> int | None:
        """The lowest open commission a tower of this colour and height can still grow into."""
        table = self.open
        for level in LEVELS:
            if level >= height and table[color * 6 + level - 3]:
                return level
        return None

    def is_open(self, color: int, level: int) -> bool:
        return 3 <= level <= 8 and self.open[color * 6 + level - 3]

    def cheapest(self, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: self.worth[COLOR_INDEX[a["color"]]])

    def dearest(self, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: self.worth[COLOR_INDEX[a["color"]]])


def _bell_tower(s: S, seat: int, towers: list[dict[str, Any]]) -> int | None:
    """The tower meant to seal the Campanile, -1 to start one, None when none is needed."""
    if not s["church"] or not campanile_blocks(s, seat):
        return None
    return next(
        (i for i, t in enumerate(towers) if t["c"] == WHITE and t["h"] <= BELL_TOWER_HEIGHT), -1
    )


def _first(legal: list[Action], kind: str) -> Action | None:
    return next((a for a in legal if a["type"] == kind), None)


def _worth(card: str) -> float:
    """What the card's registry entry says it is worth to the greedy bot."""
    return CARDS[card].worth


def _harmful(card: str) -> bool:
    """An event the bot would rather not have taken: it cancels it with a Patrician."""
    entry = CARDS[card]
    return isinstance(entry, Event) and entry.worth < 0


def card_worth(player: dict[str, Any], card: str) -> float:
    """What a row card adds to its bricks for this player (nothing for a second building, nor
    for an event a Patrician in hand would cancel)."""
    if card in player["buildings"]:
        return 0.0
    if isinstance(CARDS[card], Event) and "Patrician" in player["hand"]:
        return 0.0
    return _worth(card)


def _answer_pending(
    s: S, me: Me, pending: dict[str, Any], legal: list[Action], rng: random.Random
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


def choice_value(s: S, me: Me, slot: int) -> float:
    """How much the greedy bot likes taking the card in this slot (bricks, card, cost)."""
    entry = s["row"][slot]
    worth = me.worth
    bricks = sum(n * worth[c] for c, n in enumerate(entry["bricks"]))
    cost = 0 if s["turn"]["princess"] else slot
    return float(bricks + card_worth(me.player, entry["card"]) - 1.3 * cost)


def _choose(s: S, me: Me, legal: list[Action]) -> Action:
    cards = [a for a in legal if a["type"] == "choose_card"]
    if not cards:
        return legal[0]
    best = max(cards, key=lambda a: choice_value(s, me, a["slot"]))
    if best["slot"] >= 2 and _PRINCESS in legal:
        return dict(_PRINCESS)
    return best


def _build(s: S, me: Me, legal: list[Action]) -> Action:
    builds = [a for a in legal if a["type"] == "build"]
    if not builds:
        return {"type": "end_phase"}
    built = s["turn"]["built"]
    discount = build_discount(me.player, s["turn"]["mason"])
    extra = max(0, BUILD_COST[built + 1] - discount) - max(0, BUILD_COST[built] - discount)
    best, best_score = None, 0.0
    for a in builds:
        score = build_score(s, me, a) - 1.5 * extra
        if score > best_score:
            best, best_score = a, score
    if best is None:
        return {"type": "end_phase"}
    if extra > 0 and _MASON in legal:
        return dict(_MASON)
    return best


def build_score(s: S, me: Me, action: Action) -> float:
    """How much the greedy bot likes adding this brick (before its construction cost)."""
    if "tower" in action:
        tower = me.player["towers"][action["tower"]]
        target = me.targets[action["tower"]]
        color, height = tower["c"], tower["h"] + 1
        keep_alive = 4.0 if tower["old"] and tower["add"] == 0 else 0.0
        bell = action["tower"] == me.bell_tower
    else:
        color, height, keep_alive = COLOR_INDEX[action["color"]], 1, 0.0
        bell = me.bell_tower == -1 and color == WHITE
        target = BELL_TOWER_HEIGHT if bell else me.target(color, 0)
        if target is None or me.store[color] + 1 < min(target, 3) - 1:
            return -1.0
    if target is None or height > target:
        return keep_alive - 3.0
    worth = _BELL_WORTH if bell else commission_pp(s, color, target)
    if height == target:
        return 10.0 + worth + keep_alive
    return float(2.0 + keep_alive + worth / (target - height + 1))


def _fulfil(s: S, me: Me, legal: list[Action]) -> Action:
    seal = _first(legal, "seal_campanile")
    if seal is not None:
        return seal
    options = [a for a in legal if a["type"] == "fulfil"]
    if options:
        tower = me.player["towers"]
        return max(options, key=lambda a: commission_pp(s, tower[a["tower"]]["c"], a["level"]))
    if _ARCHITECT in legal and _architect_helps(me):
        return dict(_ARCHITECT)
    return _first(legal, "end_turn") or _first(legal, "end_phase") or legal[0]


def _architect_helps(me: Me) -> bool:
    if me.player["seals"] == 0:
        return False
    return any(me.is_open(t["c"], t["h"] + d) for t in me.player["towers"] for d in (-1, 1))


def _limits(me: Me, legal: list[Action]) -> Action:
    bricks = [a for a in legal if a["type"] == "pay_brick"]
    if bricks:
        return me.cheapest(bricks)
    cards = [a for a in legal if a["type"] == "discard_card"]
    if cards:
        return min(cards, key=lambda a: _worth(a["card"]))
    return _first(legal, "end_turn") or legal[0]
