"""Starting and ending turns, and ending the game after the extra round (rules.md §6)."""

from __future__ import annotations

from typing import Any

from .scoring import final_scoring


def start_turn(s: dict[str, Any], seat: int) -> None:
    """Reset the per-turn bookkeeping; towers standing now must be built on or torn down."""
    s["seat"] = seat
    s["phase"] = "choose"
    s["pending"] = None
    s["turn_no"] += 1
    s["turn"] = {
        "played": [],
        "princess": False,
        "mason": False,
        "architect": 0,  # 0 not played, 1 played and unused, 2 used on a tower
        "exchanged": False,
        "built": 0,
        "undo": 0,
    }
    for tower in s["players"][seat]["towers"]:
        tower["old"] = True
        tower["add"] = 0


def end_turn(s: dict[str, Any]) -> None:
    s["log"].append(f"{{{s['seat']}}} ends the turn.")
    following = (s["seat"] + 1) % s["n"]
    if s["end_tile"] is not None and following == s["end_tile"]:
        final_scoring(s)
        s["phase"] = "over"
        s["pending"] = None
        s["log"].append("The game is over.")
        return
    start_turn(s, following)
