"""Moving bricks between pouch, storehouses, towers and row cards, and naming them."""

from __future__ import annotations

import random
from typing import Any

from .data import COLORS


def describe(bricks: list[int]) -> str:
    """'2 white, 1 blue', or 'nothing' for an empty set."""
    parts = [f"{count} {COLORS[c]}" for c, count in enumerate(bricks) if count]
    return ", ".join(parts) if parts else "nothing"


def describe_colors(colors: list[int]) -> str:
    counts = [0] * 6
    for c in colors:
        counts[c] += 1
    return describe(counts)


def draw_from_pouch(pouch: list[int], count: int, rng: random.Random) -> list[int]:
    """Draw up to `count` random bricks (all that is left if fewer), as the rules say."""
    bag = [c for c, n in enumerate(pouch) for _ in range(n)]
    drawn = [0] * 6
    for c in rng.sample(bag, min(count, len(bag))):
        drawn[c] += 1
        pouch[c] -= 1
    return drawn


def auto_discard_order(player: dict[str, Any]) -> list[int]:
    """The online house rule: colours without a tower first, cheapest first; then the rest."""
    towered = {t["c"] for t in player["towers"]}
    return [c for c in range(6) if c not in towered] + [c for c in range(6) if c in towered]


def auto_give_up(player: dict[str, Any], pouch: list[int], count: int) -> list[int]:
    """Give `count` bricks (or all there are) from the storehouse to the pouch automatically."""
    store = player["store"]
    given = [0] * 6
    for c in auto_discard_order(player):
        while count and store[c]:
            store[c] -= 1
            pouch[c] += 1
            given[c] += 1
            count -= 1
    return given


def tear_down(player: dict[str, Any], tower_index: int, pouch: list[int]) -> tuple[int, int]:
    """Half the tower (rounded up) to the pouch, the rest to the storehouse."""
    tower = player["towers"].pop(tower_index)
    to_pouch = (tower["h"] + 1) // 2
    pouch[tower["c"]] += to_pouch
    player["store"][tower["c"]] += tower["h"] - to_pouch
    return to_pouch, tower["h"] - to_pouch


def add_bricks(store: list[int], bricks: list[int]) -> None:
    """A row card's bricks reach a storehouse."""
    for c in range(6):
        store[c] += bricks[c]
