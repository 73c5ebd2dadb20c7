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
from .errors import Refusal, no_card_at
from .words import gettext_noop, ordinal, seat_ref


def price(player: dict[str, Any]) -> int:
    return BRIDGE_EXCHANGE_PRICE if "Bridge" in player["buildings"] else EXCHANGE_PRICE


def exchange_gate(s: dict[str, Any]) -> Refusal | None:
    """Once a turn, with the price in the storehouse."""
    player = s["players"][s["seat"]]
    if s["turn"]["exchanged"]:
        return _ONCE
    due, have = price(player), sum(player["store"])
    if have < due:
        return Refusal(
            gettext_noop(
                "An exchange needs enough bricks: %(due)s in your storehouse; you have %(have)s."
            ),
            {"due": due, "have": have},
        )
    return None


def slot_refusal(s: dict[str, Any], action: dict[str, Any]) -> Refusal | None:
    """With a row card that already holds bricks."""
    slot = action.get("slot")
    if type(slot) is not int or not 0 <= slot < len(s["row"]):
        return no_card_at(s)
    return None if sum(s["row"][slot]["bricks"]) else _EMPTY_CARD


_ONCE = Refusal(
    gettext_noop("Exchanging is only possible once per turn; you have exchanged already.")
)
_EMPTY_CARD = Refusal(gettext_noop("You can only exchange with a card that already holds bricks."))


def take_refusal(s: dict[str, Any], color: int) -> Refusal | None:
    """The rule for the brick taken back: on the card now, and already there before the payment
    (games stored before that ruling have no "before": every colour on the card then)."""
    pending = s["pending"]
    if not s["row"][pending["slot"]]["bricks"][color]:
        return Refusal(
            gettext_noop("There is no %(color)s brick on that card."), {"color": COLORS[color]}
        )
    before = pending.get("before")
    if before is not None and color not in before:
        return Refusal(
            gettext_noop(
                "You can only take a colour that lay on the card before you paid: %(colors)s."
            ),
            {"colors": tuple(COLORS[c] for c in before)},
        )
    return None


def takeable(s: dict[str, Any]) -> list[int]:
    """Colours that may be taken back (take_refusal passes them)."""
    return [c for c in range(6) if take_refusal(s, c) is None]


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
