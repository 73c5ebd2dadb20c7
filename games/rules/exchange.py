"""Exchange phase: once a turn, 3 bricks (2 with Bridge) onto a row card for 1 of its bricks."""

from __future__ import annotations

from typing import Any

from .bricks import describe_colors
from .data import BRIDGE_EXCHANGE_PRICE, COLORS, EXCHANGE_PRICE
from .words import ordinal, seat_ref


def price(player: dict[str, Any]) -> int:
    return BRIDGE_EXCHANGE_PRICE if "Bridge" in player["buildings"] else EXCHANGE_PRICE


def can_exchange(s: dict[str, Any]) -> bool:
    player = s["players"][s["seat"]]
    return not s["turn"]["exchanged"] and bool(s["row"]) and sum(player["store"]) >= price(player)


def begin(s: dict[str, Any], slot: int) -> None:
    due = price(s["players"][s["seat"]])
    s["pending"] = {"kind": "exchange_pay", "slot": slot, "due": due, "paid": []}


def pay(s: dict[str, Any], color: int) -> None:
    pending = s["pending"]
    s["players"][s["seat"]]["store"][color] -= 1
    s["row"][pending["slot"]]["bricks"][color] += 1
    paid = pending["paid"] + [color]
    pending["paid"] = paid
    if len(paid) == pending["due"]:
        pending["kind"] = "exchange_take"


def take(s: dict[str, Any], color: int) -> None:
    pending = s["pending"]
    slot = pending["slot"]
    s["row"][slot]["bricks"][color] -= 1
    s["players"][s["seat"]]["store"][color] += 1
    s["turn"]["exchanged"] = True
    s["pending"] = None
    s["log"].append(
        f"{seat_ref(s['seat'])} exchanges {describe_colors(pending['paid'])} for 1 "
        f"{COLORS[color]} on the {ordinal(slot + 1)} card."
    )
