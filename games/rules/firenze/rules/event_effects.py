"""What resolving each event card does: the handlers the card registry (cards.py) names.

Flood, Tribute and Luxury Tax hit everyone and give bricks up automatically (rules.md §5, the
online house rule); Storehouse Fire, Botch and Collapse wait for the active player's choice,
which firenze.rules.events answers. Every event ends in finish_event.
"""

from __future__ import annotations

from typing import Any

from .bricks import add_bricks, auto_give_up, describe, tear_down
from .data import (
    COLORS,
    LUXURY_TAX_MIN_HEIGHT,
    LUXURY_TAX_PER_TOWER,
    STOREHOUSE_FIRE_BRICKS,
)
from .refill import refill_row
from .state import draw_rng
from .words import seat_ref


def finish_event(s: dict[str, Any], *, discard: bool = True) -> None:
    """The event is over: its card leaves, its bricks reach the storehouse, the gap fills."""
    transit = s["transit"]
    if discard:
        s["discard"].append(transit["card"])
    s["transit"] = None
    s["pending"] = None
    add_bricks(s["players"][s["seat"]]["store"], transit["bricks"])
    refill_row(s)
    s["phase"] = "exchange"


def ask_for_tower(s: dict[str, Any], card: str) -> None:
    """Botch and Collapse: the player picks one of their towers (pending `botch`/`collapse`)."""
    seat = s["seat"]
    if s["players"][seat]["towers"]:
        s["pending"] = {"kind": card.lower(), "card": card}
    else:
        s["log"].append(f"{card}: {seat_ref(seat)} has no tower; nothing happens.")
        finish_event(s)


def storehouse_fire(s: dict[str, Any], card: str) -> None:
    seat = s["seat"]
    player = s["players"][seat]
    if sum(player["store"]) > STOREHOUSE_FIRE_BRICKS:
        s["pending"] = {"kind": "fire", "card": card, "paid": []}
        return
    lost = player["store"][:]
    for c in range(6):
        s["pouch"][c] += lost[c]
        player["store"][c] = 0
    s["log"].append(f"Storehouse Fire: {seat_ref(seat)} loses {describe(lost)}.")
    finish_event(s)


def flood(s: dict[str, Any], card: str) -> None:
    for i, p in enumerate(s["players"]):
        lost = auto_give_up(p, s["pouch"], (sum(p["store"]) + 2) // 3)
        s["log"].append(f"Flood: {seat_ref(i)} loses {describe(lost)}.")
    finish_event(s)


def tribute_all(s: dict[str, Any], card: str) -> None:
    for i in range(s["n"]):
        _tribute(s, i)
    finish_event(s)


def luxury_tax_all(s: dict[str, Any], card: str) -> None:
    for i in range(s["n"]):
        _luxury_tax(s, i)
    finish_event(s)


def renaissance(s: dict[str, Any], card: str) -> None:
    s["deck"] = s["deck"] + s["discard"] + ["Renaissance"]
    s["discard"] = []
    draw_rng(s).shuffle(s["deck"])
    s["log"].append("Renaissance: the deck, the discard pile and the card make a new deck.")
    finish_event(s, discard=False)


def _by_height(player: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(player["towers"], key=lambda t: -t["h"])


def _remove(player: dict[str, Any], tower: dict[str, Any], pouch: list[int]) -> tuple[int, int]:
    index = next(i for i, t in enumerate(player["towers"]) if t is tower)
    return tear_down(player, index, pouch)


def _tribute(s: dict[str, Any], seat: int) -> None:
    player = s["players"][seat]
    paid = [0] * 6
    for tower in _by_height(player):
        c = tower["c"]
        if player["store"][c]:
            player["store"][c] -= 1
            s["pouch"][c] += 1
            paid[c] += 1
        else:
            _remove(player, tower, s["pouch"])
            s["log"].append(
                f"Tribute: {seat_ref(seat)} cannot pay for the {COLORS[c]} tower of "
                f"{tower['h']}; it is torn down."
            )
    if any(paid):
        s["log"].append(f"Tribute: {seat_ref(seat)} pays {describe(paid)}.")


def _luxury_tax(s: dict[str, Any], seat: int) -> None:
    player = s["players"][seat]
    paid = [0] * 6
    for tower in _by_height(player):
        if tower["h"] < LUXURY_TAX_MIN_HEIGHT:
            continue
        if sum(player["store"]) >= LUXURY_TAX_PER_TOWER:
            given = auto_give_up(player, s["pouch"], LUXURY_TAX_PER_TOWER)
            paid = [a + b for a, b in zip(paid, given, strict=True)]
        else:
            _remove(player, tower, s["pouch"])
            s["log"].append(
                f"Luxury Tax: {seat_ref(seat)} cannot pay for the {COLORS[tower['c']]} tower of "
                f"{tower['h']}; it is torn down."
            )
    if any(paid):
        s["log"].append(f"Luxury Tax: {seat_ref(seat)} pays {describe(paid)}.")
