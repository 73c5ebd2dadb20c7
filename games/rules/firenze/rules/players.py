"""Questions about one player's position that several phases ask."""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from .data import (
    BUILDING,
    CARD_LIMIT,
    MASON_AND_WORKSHOP_DISCOUNT,
    MASON_DISCOUNT,
    PERSONNEL,
    STORE_LIMIT,
    WAREHOUSE_STORE_LIMIT,
    WORKSHOP_DISCOUNT,
)


def store_limit(player: dict[str, Any]) -> int:
    return WAREHOUSE_STORE_LIMIT if "Warehouse" in player["buildings"] else STORE_LIMIT


def card_count(player: dict[str, Any]) -> int:
    return len(player["hand"]) + len(player["buildings"])


def over_card_limit(player: dict[str, Any]) -> bool:
    """Over the limit with something it may discard (celebrations never count as discardable)."""
    if "Warehouse" in player["buildings"] or card_count(player) <= CARD_LIMIT:
        return False
    return bool(discardable_cards(player))


def discardable_cards(player: dict[str, Any]) -> list[str]:
    """Personnel in hand and buildings in play, each name once, in a stable order."""
    names = [c for c in player["hand"] if CARDS[c].kind == PERSONNEL] + [
        c for c in player["buildings"] if CARDS[c].kind == BUILDING
    ]
    return sorted(set(names))


def over_store_limit(player: dict[str, Any]) -> bool:
    return bool(sum(player["store"]) > store_limit(player))


def within_limits(player: dict[str, Any]) -> bool:
    return not over_store_limit(player) and not over_card_limit(player)


def build_discount(player: dict[str, Any], mason_played: bool) -> int:
    workshop = "Workshop" in player["buildings"]
    if mason_played:
        return MASON_AND_WORKSHOP_DISCOUNT if workshop else MASON_DISCOUNT
    return WORKSHOP_DISCOUNT if workshop else 0


def tallest_tower(player: dict[str, Any]) -> int:
    return max((t["h"] for t in player["towers"]), default=0)
