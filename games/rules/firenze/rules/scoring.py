"""Final scoring: majority bonuses, then celebration cards (rules.md §6)."""

from __future__ import annotations

from typing import Any

from .cards import final_pp
from .data import (
    COLORS,
    LEVELS,
    MAJORITY_BONUS,
    RECOGNITION_LEVELS,
    commission_index,
)


def majority_holder(board: list[int | None], color: int) -> int | None:
    """Most own seals on the tower; a tie goes to the tied player with the highest seal."""
    count: dict[int, int] = {}
    highest: dict[int, int] = {}
    for level in LEVELS:
        owner = board[commission_index(color, level)]
        if owner is None or owner < 0:
            continue
        count[owner] = count.get(owner, 0) + 1
        highest[owner] = level
    if not count:
        return None
    return max(count, key=lambda seat: (count[seat], highest[seat]))


def recognition_count(board: list[int | None], seat: int) -> int:
    return sum(
        1
        for color in range(6)
        for level in RECOGNITION_LEVELS
        if board[commission_index(color, level)] == seat
    )


def final_scoring(s: dict[str, Any]) -> None:
    board = s["board"]
    breakdown = [
        {
            "pp_in_game": p["pp"],
            "earned": dict(p["earned"]),
            "majority": {},
            "celebrations": [],
            "total": p["pp"],
        }
        for p in s["players"]
    ]
    for color in range(6):
        holder = majority_holder(board, color)
        if holder is not None:
            breakdown[holder]["majority"][COLORS[color]] = MAJORITY_BONUS[color]
            breakdown[holder]["total"] += MAJORITY_BONUS[color]
            s["log"].append(
                f"{{{holder}}} wins the {COLORS[color]} majority for {MAJORITY_BONUS[color]} PP."
            )
    for seat, player in enumerate(s["players"]):
        for card in sorted(player["hand"]):
            fixed = final_pp(card)
            if card == "Recognition":
                pp = recognition_count(board, seat)
            elif fixed is not None:
                pp = fixed
            else:
                continue
            breakdown[seat]["celebrations"].append({"card": card, "pp": pp})
            breakdown[seat]["total"] += pp
            s["log"].append(f"{{{seat}}} reveals {card}: {pp:+d} PP.")
    totals = [b["total"] for b in breakdown]
    best = max(totals)
    s["final"] = {"players": breakdown, "winners": [i for i, t in enumerate(totals) if t == best]}
