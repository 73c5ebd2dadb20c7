"""Filling the row's gap from the deck (rules.md §4, choose): after a card is taken and after an
event ends. It knows no card, so the card modules below the registry can use it."""

from __future__ import annotations

from typing import Any

from .bricks import describe, draw_from_pouch
from .data import BRICKS_PER_ROW_CARD, ROW_SIZE
from .state import draw_rng

# The words of the line a refill writes: planned.stop counts them to tell a refill from a draw.
INTO_ROW = " comes into the row with "


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
        s["log"].append(f"{card}{INTO_ROW}{describe(bricks)}.")
