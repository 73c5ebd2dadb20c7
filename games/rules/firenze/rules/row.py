"""The card row: taking a card and where it goes (rules.md §4, choose); refill.py fills the gap."""

from __future__ import annotations

import re
from typing import Any

from .bricks import add_bricks, describe, describe_colors
from .cards import CARDS
from .data import BUILDING, CHURCH, EVENT
from .players import tallest_tower
from .refill import refill_row
from .words import ordinal, seat_ref


def card_cost(s: dict[str, Any], slot: int) -> int:
    return 0 if s["turn"]["princess"] else slot


def begin_choice(s: dict[str, Any], slot: int) -> None:
    """Choosing a card either takes it at once (free) or waits for the cost, brick by brick."""
    due = card_cost(s, slot)
    if due:
        s["pending"] = {"kind": "card_cost", "slot": slot, "due": due, "paid": []}
    else:
        take_card(s, slot, [])


def pay_card_cost(s: dict[str, Any], color: int) -> None:
    pending = s["pending"]
    paid = pending["paid"] + [color]
    s["players"][s["seat"]]["store"][color] -= 1
    s["row"][len(pending["paid"])]["bricks"][color] += 1
    if len(paid) == pending["due"]:
        s["pending"] = None
        take_card(s, pending["slot"], paid)
    else:
        pending["paid"] = paid


# The log line take_card writes, read back by planned.why: who took which card.
TAKEN_LINE = re.compile(r"^\{(\d+)\} takes (.+?) \(")


def take_card(s: dict[str, Any], slot: int, paid: list[int]) -> None:
    seat = s["seat"]
    entry = s["row"].pop(slot)
    card, bricks = entry["card"], entry["bricks"]
    paying = f", paying {describe_colors(paid)}" if paid else ""
    s["log"].append(
        f"{seat_ref(seat)} takes {card} ({ordinal(slot + 1)} card) with {describe(bricks)}{paying}."
    )
    if CARDS[card].kind == EVENT:
        s["transit"] = {"card": card, "bricks": bricks}
        s["pending"] = {"kind": "event", "card": card}
        return
    place_card(s, seat, card)
    add_bricks(s["players"][seat]["store"], bricks)
    refill_row(s)
    s["phase"] = "exchange"


def place_card(s: dict[str, Any], seat: int, card: str) -> None:
    kind = CARDS[card].kind
    player = s["players"][seat]
    if card == "Monument":
        _give_monument(s)
    elif kind == BUILDING:
        if card in player["buildings"]:
            s["discard"].append(card)
            s["log"].append(f"{seat_ref(seat)} already owns a {card}; the copy is discarded.")
        else:
            player["buildings"].append(card)
    elif kind == CHURCH:
        s["church"].append({"card": card, "sealed": []})
        if card == "Campanile":
            s["log"].append("The Campanile stands: everyone must seal it with a bell tower first.")
    else:
        player["hand"].append(card)


def _give_monument(s: dict[str, Any]) -> None:
    heights = [tallest_tower(p) for p in s["players"]]
    best = max(heights)
    holders = [seat for seat, h in enumerate(heights) if h == best]
    if best == 0 or len(holders) > 1:
        s["discard"].append("Monument")
        s["log"].append("Nobody has the single tallest tower: the Monument is discarded.")
        return
    s["players"][holders[0]]["hand"].append("Monument")
    s["log"].append(f"The Monument goes to {seat_ref(holders[0])}, who has the tallest tower.")
