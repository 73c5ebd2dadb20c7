"""Personnel cards in play: played from the hand on one's own turn, each name once per turn, in
the phases and with the effect of its registry entry (cards.py).

Cards that need a choice (which brick, which tower, which row card) leave a `pending` decision
that the following step answers, so every click stays one small action.
"""

from __future__ import annotations

from typing import Any

from .bricks import describe, draw_from_pouch
from .cards import CARDS, Personnel
from .data import COLORS
from .events import cancel_event
from .state import draw_rng
from .words import ordinal, seat_ref

S = dict[str, Any]


def play(s: S, card: str) -> None:
    seat = s["seat"]
    player = s["players"][seat]
    player["hand"].remove(card)
    s["discard"].append(card)
    s["turn"]["played"].append(card)
    pending = s["pending"]
    if card == "Patrician" and pending is not None and pending["kind"] == "event":
        cancel_event(s)
        return
    s["log"].append(f"{seat_ref(seat)} plays {card}.")
    entry = CARDS[card]
    assert isinstance(entry, Personnel), card
    entry.effect(s)


def alchemist_give(s: dict[str, Any], color: int) -> None:
    s["players"][s["seat"]]["store"][color] -= 1
    s["pouch"][color] += 1
    s["pending"] = {"kind": "alchemist_take", "card": "Alchemist", "gave": color}


def alchemist_take(s: dict[str, Any], color: int) -> None:
    gave = s["pending"]["gave"]
    s["pouch"][color] -= 1
    s["players"][s["seat"]]["store"][color] += 1
    s["pending"] = None
    s["log"].append(
        f"Alchemist: {seat_ref(s['seat'])} swaps 1 {COLORS[gave]} for 1 {COLORS[color]} "
        "from the pouch."
    )


def smuggler_take(s: dict[str, Any], other: int, color: int) -> None:
    s["players"][other]["store"][color] -= 1
    s["players"][s["seat"]]["store"][color] += 1
    s["pending"] = {"kind": "smuggler_give", "card": "Smuggler", "from": other, "took": color}


def smuggler_give(s: dict[str, Any], color: int) -> None:
    pending = s["pending"]
    other = pending["from"]
    s["players"][s["seat"]]["store"][color] -= 1
    s["players"][other]["store"][color] += 1
    s["pending"] = None
    s["log"].append(
        f"Smuggler: {seat_ref(s['seat'])} takes 1 {COLORS[pending['took']]} from "
        f"{seat_ref(other)} and gives 1 {COLORS[color]} back."
    )


def saboteur(s: dict[str, Any], other: int, tower_index: int) -> None:
    player = s["players"][other]
    tower = player["towers"][tower_index]
    tower["h"] -= 1
    s["pouch"][tower["c"]] += 1
    if tower["h"] == 0:
        player["towers"].pop(tower_index)
    s["pending"] = None
    s["log"].append(
        f"Saboteur: {seat_ref(s['seat'])} takes a brick off {seat_ref(other)}'s "
        f"{COLORS[tower['c']]} tower, which now has {tower['h']}."
    )


def wholesaler(s: dict[str, Any], slot: int) -> None:
    entry = s["row"][slot]
    before = entry["bricks"]
    count = sum(before)
    for c in range(6):
        s["pouch"][c] += before[c]
    entry["bricks"] = draw_from_pouch(s["pouch"], count, draw_rng(s))
    s["pending"] = None
    s["log"].append(
        f"Wholesaler: the {ordinal(slot + 1)} card ({entry['card']}) trades {describe(before)} "
        f"for {describe(entry['bricks'])}."
    )


def patrician_discard(s: dict[str, Any], card: str) -> None:
    s["players"][s["seat"]]["hand"].remove(card)
    s["discard"].append(card)
    s["pending"] = None
    s["log"].append(f"Patrician: {seat_ref(s['seat'])} discards {card}.")
