"""Event cards in play: resolving the chosen event by its registry entry (cards.py, the handlers
in event_effects.py), cancelling it with a Patrician, and the answers to the choices an event
asks for (Storehouse Fire's bricks, Botch's or Collapse's tower).
"""

from __future__ import annotations

from typing import Any

from .bricks import describe_colors
from .cards import CARDS, Event
from .data import COLORS, STOREHOUSE_FIRE_BRICKS
from .event_effects import finish_event
from .words import seat_ref


def resolve_event(s: dict[str, Any]) -> None:
    card = s["pending"]["card"]
    entry = CARDS[card]
    assert isinstance(entry, Event), card
    entry.handler(s, card)


def cancel_event(s: dict[str, Any]) -> None:
    card = s["pending"]["card"]
    s["log"].append(f"{seat_ref(s['seat'])} plays Patrician and cancels {card}.")
    finish_event(s)


def fire_pay(s: dict[str, Any], color: int) -> None:
    player = s["players"][s["seat"]]
    player["store"][color] -= 1
    s["pouch"][color] += 1
    paid = s["pending"]["paid"] + [color]
    if len(paid) == STOREHOUSE_FIRE_BRICKS:
        s["log"].append(f"Storehouse Fire: {seat_ref(s['seat'])} loses {describe_colors(paid)}.")
        finish_event(s)
    else:
        s["pending"]["paid"] = paid


def botch_or_collapse(s: dict[str, Any], tower_index: int) -> None:
    card = s["pending"]["card"]
    seat = s["seat"]
    player = s["players"][seat]
    tower = player["towers"][tower_index]
    color = COLORS[tower["c"]]
    if card == "Collapse":
        player["towers"].pop(tower_index)
        s["pouch"][tower["c"]] += tower["h"]
        s["log"].append(f"Collapse: {seat_ref(seat)}'s {color} tower of {tower['h']} falls.")
    else:
        tower["h"] -= 1
        s["pouch"][tower["c"]] += 1
        if tower["h"] == 0:
            player["towers"].pop(tower_index)
        s["log"].append(f"Botch: {seat_ref(seat)}'s {color} tower loses a brick.")
    finish_event(s)
