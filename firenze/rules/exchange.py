"""Exchange phase: once a turn, 3 bricks (2 with Bridge) onto a row card for 1 of its bricks.

rules.md §4: only a card that already holds a brick may be chosen, and the brick taken must be of
a colour that lay on the card before the payment (paying cannot move bricks onto an empty card
or buy back a colour that was not there). The colours present at the start are kept in the
pending decision as ``before``.
"""

from __future__ import annotations

from typing import Any

from .bricks import describe_colors
from .data import BRIDGE_EXCHANGE_PRICE, COLORS, EXCHANGE_PRICE
from .words import ordinal, seat_ref


def price(player: dict[str, Any]) -> int:
    return BRIDGE_EXCHANGE_PRICE if "Bridge" in player["buildings"] else EXCHANGE_PRICE


def can_exchange(s: dict[str, Any]) -> bool:
    player = s["players"][s["seat"]]
    return not s["turn"]["exchanged"] and bool(slots(s)) and sum(player["store"]) >= price(player)


def slots(s: dict[str, Any]) -> list[int]:
    """The row cards an exchange may be made with: those holding at least one brick."""
    return [i for i, card in enumerate(s["row"]) if sum(card["bricks"])]


def takeable(s: dict[str, Any]) -> list[int]:
    """Colours that may be taken back: on the card now and already there before the payment."""
    pending = s["pending"]
    on_card = s["row"][pending["slot"]]["bricks"]
    # Games stored before the ruling have no "before": every colour on the card then.
    before = pending.get("before", range(6))
    return [c for c in range(6) if on_card[c] and c in before]


def begin(s: dict[str, Any], slot: int) -> None:
    due = price(s["players"][s["seat"]])
    before = [c for c in range(6) if s["row"][slot]["bricks"][c]]
    s["pending"] = {"kind": "exchange_pay", "slot": slot, "due": due, "paid": [], "before": before}


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
