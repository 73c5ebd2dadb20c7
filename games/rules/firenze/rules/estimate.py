"""What a position is worth before the end: the Strong bot's estimate where a playout stops early.

Each player's worth is their PP now, plus what the board already promises (the majority bonus
they would get if the game ended now, their celebration cards) and a share of what they hold
(bricks in the storehouse, towers on their way to an open commission). The estimate for a seat
is its worth minus the best other player's, the same scale as a finished playout's PP margin.
"""

from __future__ import annotations

from typing import Any

from .cards import final_pp
from .data import MAJORITY_BONUS
from .greedy import commission_pp, open_table
from .scoring import majority_holder, recognition_count

S = dict[str, Any]

BRICK = 0.35  # PP a brick in the storehouse is worth
TOWER = 0.6  # share of its target commission's PP a tower has earned, per level built


def worth(s: S, table: list[bool]) -> list[float]:
    values = [float(p["pp"]) for p in s["players"]]
    board = s["board"]
    for color in range(6):
        holder = majority_holder(board, color)
        if holder is not None:
            values[holder] += MAJORITY_BONUS[color]
    for seat, player in enumerate(s["players"]):
        for card in player["hand"]:
            pp = recognition_count(board, seat) if card == "Recognition" else final_pp(card)
            values[seat] += pp or 0
        values[seat] += BRICK * sum(player["store"])
        if not player["seals"]:
            continue
        for tower in player["towers"]:
            color, height = tower["c"], tower["h"]
            for level in range(max(3, height), 9):
                if table[color * 6 + level - 3]:
                    share = TOWER * height / level
                    values[seat] += share * commission_pp(s, color, level)
                    break
    return values


def estimate(s: S, seat: int) -> float:
    values = worth(s, open_table(s))
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)
