"""What one step changed on the table, in public terms: for highlighting it on the board.

Only what every player may see is compared (seals, row cards and their bricks, towers,
storehouses, card counts, PP, the pouch, church and tiles), so the result can be stored with
the move and shown to anyone. Hands are compared by their size only; the deck never.
"""

from __future__ import annotations

from typing import Any

from .data import COLORS, LEVELS, commission_index
from .state import State


def changes(before: State, after: State) -> dict[str, Any]:
    """The public differences between two states, usually one step apart.

    ``sealed``: commissions newly covered, as [colour, level]; ``row``: slots whose card or
    bricks differ afterwards; ``players``: per seat that changed, ``towers`` (indices after the
    step that are new or grew or shrank), ``store`` (whether it changed), ``pp`` (the gain or
    loss), ``cards`` (change in the number of cards held); ``pouch``, ``church``, ``tiles``
    (level tiles taken) and ``end_tile`` (whether it was taken).
    """
    b, a = before._d, after._d
    sealed = [
        [COLORS[c], level]
        for c in range(6)
        for level in LEVELS
        if b["board"][commission_index(c, level)] != a["board"][commission_index(c, level)]
    ]
    # A card that only slid left into a gap, bricks and all, has not changed.
    row = [i for i, card in enumerate(a["row"]) if card not in b["row"][i:]]
    players = {}
    for seat, (old, new) in enumerate(zip(b["players"], a["players"], strict=True)):
        entry = _player_changes(old, new)
        if entry:
            players[str(seat)] = entry
    return {
        "sealed": sealed,
        "row": row,
        "players": players,
        "pouch": b["pouch"] != a["pouch"],
        "church": b["church"] != a["church"],
        "tiles": sorted(set(b["level_tiles"]) - set(a["level_tiles"])),
        "end_tile": b["end_tile"] != a["end_tile"],
    }


def _player_changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    towers = [
        i
        for i, tower in enumerate(new["towers"])
        if i >= len(old["towers"])
        or (old["towers"][i]["c"], old["towers"][i]["h"]) != (tower["c"], tower["h"])
    ]
    if towers or len(new["towers"]) != len(old["towers"]):
        entry["towers"] = towers
    if old["store"] != new["store"]:
        entry["store"] = True
    if old["pp"] != new["pp"]:
        entry["pp"] = new["pp"] - old["pp"]
    cards = len(new["hand"]) + len(new["buildings"]) - len(old["hand"]) - len(old["buildings"])
    if cards:
        entry["cards"] = cards
    return entry
