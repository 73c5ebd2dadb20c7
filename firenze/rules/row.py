"""The card row: taking a card, where it goes, and filling the gap (rules.md §4, choose)."""

from __future__ import annotations

from typing import Any

from .bricks import describe, describe_colors, draw_from_pouch
from .data import (
    BRICKS_PER_ROW_CARD,
    BUILDING,
    CARD_KIND,
    CHURCH,
    EVENT,
    ROW_SIZE,
)
from .players import tallest_tower
from .state import draw_rng
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


def take_card(s: dict[str, Any], slot: int, paid: list[int]) -> None:
    seat = s["seat"]
    entry = s["row"].pop(slot)
    card, bricks = entry["card"], entry["bricks"]
    paying = f", paying {describe_colors(paid)}" if paid else ""
    s["log"].append(
        f"{seat_ref(seat)} takes {card} ({ordinal(slot + 1)} card) with {describe(bricks)}{paying}."
    )
    if CARD_KIND[card] == EVENT:
        s["transit"] = {"card": card, "bricks": bricks}
        s["pending"] = {"kind": "event", "card": card}
        return
    place_card(s, seat, card)
    _to_store(s, seat, bricks)
    refill_row(s)
    s["phase"] = "exchange"


def finish_event(s: dict[str, Any], *, discard: bool = True) -> None:
    """The event is over: its card leaves, its bricks reach the storehouse, the gap fills."""
    transit = s["transit"]
    if discard:
        s["discard"].append(transit["card"])
    s["transit"] = None
    s["pending"] = None
    _to_store(s, s["seat"], transit["bricks"])
    refill_row(s)
    s["phase"] = "exchange"


def _to_store(s: dict[str, Any], seat: int, bricks: list[int]) -> None:
    store = s["players"][seat]["store"]
    for c in range(6):
        store[c] += bricks[c]


def place_card(s: dict[str, Any], seat: int, card: str) -> None:
    kind = CARD_KIND[card]
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


def refill_row(s: dict[str, Any]) -> None:
    """Slide left (done by the pop) and turn up a new card with 4 bricks from the pouch."""
    while len(s["row"]) < ROW_SIZE:
        if not s["deck"]:
            if not s["discard"]:
                return
            s["deck"] = s["discard"]
            s["discard"] = []
            draw_rng(s).shuffle(s["deck"])
            s["log"].append("The discard pile is shuffled into a new deck.")
        card = s["deck"].pop(0)
        bricks = draw_from_pouch(s["pouch"], BRICKS_PER_ROW_CARD, draw_rng(s))
        s["row"].append({"card": card, "bricks": bricks})
        s["log"].append(f"{card} comes into the row with {describe(bricks)}.")
