"""Fulfil phase: commissions, balconies in order, level tiles, church cards and the Campanile."""

from __future__ import annotations

from typing import Any

from .cards import privilege
from .data import (
    BALCONY_NUMERALS,
    BELL_TOWER_HEIGHT,
    COLORS,
    END_TILE_PP,
    LEVEL_TILE_PP,
    commission_index,
    printed_pp,
)
from .words import seat_ref

MIN_LEVEL, MAX_LEVEL = 3, 8


def balcony_at(s: dict[str, Any], color: int, level: int) -> int | None:
    """Index (0 for I ... 3 for IV) of the balcony covering this commission, if any."""
    for i, b in enumerate(s["balconies"]):
        if b["c"] == color and b["l"] == level:
            return i
    return None


def campanile_blocks(s: dict[str, Any], seat: int) -> bool:
    return any(c["card"] == "Campanile" and seat not in c["sealed"] for c in s["church"])


def open_commission(s: dict[str, Any], color: int, level: int) -> bool:
    """Uncovered, and if it is a balcony, the one with the lowest numeral still open."""
    if (
        not MIN_LEVEL <= level <= MAX_LEVEL
        or s["board"][commission_index(color, level)] is not None
    ):
        return False
    balcony = balcony_at(s, color, level)
    return balcony is None or balcony == s["balcony_next"]


def fulfil_options(s: dict[str, Any]) -> list[tuple[int, int]]:
    """(tower index, commission level) pairs the acting player may fulfil now."""
    player = s["players"][s["seat"]]
    if player["seals"] == 0 or campanile_blocks(s, s["seat"]):
        return []
    architect = s["turn"]["architect"] == 1
    options = []
    for i, tower in enumerate(player["towers"]):
        h = tower["h"]
        levels = (h - 1, h, h + 1) if architect else (h,)
        for level in levels:
            if open_commission(s, tower["c"], level):
                options.append((i, level))
    return options


def why_nothing_to_fulfil(s: dict[str, Any]) -> dict[str, Any] | None:
    """Why the acting player can fulfil nothing in this fulfil phase, as facts the page words.

    None when something can be fulfilled (or it is not the fulfil phase). Otherwise a
    ``reason`` (no_seals, campanile, no_towers, no_match); for no_match, every tower with each
    level it could count as and why that commission is closed: below / above the board (3 to
    8), sealed (``seat``, or -1 for a neutral seal), or a balcony whose turn has not come.
    """
    if s["phase"] != "fulfil" or s["pending"] is not None:
        return None
    if fulfil_options(s) or bell_towers(s):
        return None
    player = s["players"][s["seat"]]
    if player["seals"] == 0:
        return {"reason": "no_seals"}
    if campanile_blocks(s, s["seat"]):
        return {"reason": "campanile"}
    if not player["towers"]:
        return {"reason": "no_towers"}
    architect = s["turn"]["architect"] == 1
    towers = []
    for i, tower in enumerate(player["towers"]):
        h = tower["h"]
        levels = (h - 1, h, h + 1) if architect else (h,)
        towers.append(
            {
                "tower": i,
                "color": COLORS[tower["c"]],
                "height": h,
                "levels": [_closed(s, tower["c"], level) for level in levels if level > 0],
            }
        )
    return {"reason": "no_match", "architect": architect, "towers": towers}


def _closed(s: dict[str, Any], color: int, level: int) -> dict[str, Any]:
    """Why the commission (color, level) cannot be fulfilled now."""
    if level < MIN_LEVEL:
        return {"level": level, "why": "below"}
    if level > MAX_LEVEL:
        return {"level": level, "why": "above"}
    owner = s["board"][commission_index(color, level)]
    if owner is not None:
        return {"level": level, "why": "sealed", "seat": owner}
    balcony = balcony_at(s, color, level)
    return {
        "level": level,
        "why": "balcony_later",
        "balcony": BALCONY_NUMERALS[balcony] if balcony is not None else None,
        "balcony_next": BALCONY_NUMERALS[s["balcony_next"]] if s["balcony_next"] < 4 else None,
    }


def bell_towers(s: dict[str, Any]) -> list[int]:
    if not campanile_blocks(s, s["seat"]):
        return []
    towers = s["players"][s["seat"]]["towers"]
    return [i for i, t in enumerate(towers) if t["c"] == 0 and t["h"] == BELL_TOWER_HEIGHT]


def fulfil(s: dict[str, Any], tower_index: int, level: int) -> None:
    seat = s["seat"]
    player = s["players"][seat]
    tower = player["towers"].pop(tower_index)
    color = tower["c"]
    s["pouch"][color] += tower["h"]
    if level != tower["h"]:
        s["turn"]["architect"] = 2
    s["board"][commission_index(color, level)] = seat
    player["seals"] -= 1

    balcony = balcony_at(s, color, level)
    if balcony is not None:
        base = s["balconies"][balcony]["pp"]
        s["balcony_next"] += 1
        what = f"balcony {BALCONY_NUMERALS[balcony]} ({COLORS[color]} {level})"
        _earn(player, "balconies", base)
    else:
        base = printed_pp(color, level)
        what = f"{COLORS[color]} {level}"
        _earn(player, "commissions", base)
    if level != tower["h"]:
        what += f" with the Architect (tower of {tower['h']})"
    extras = []
    if level in s["level_tiles"]:
        s["level_tiles"].remove(level)
        extras.append(f"the level-{level} tile for {LEVEL_TILE_PP[level]} PP")
        _earn(player, "level_tiles", LEVEL_TILE_PP[level])
    for entry in list(s["church"]):
        paid = privilege(entry["card"])
        if paid and paid[0] == level:
            s["church"].remove(entry)
            s["discard"].append(entry["card"])
            extras.append(f"the {entry['card']} for {paid[1]} PP")
            _earn(player, "privileges", paid[1])
    extra_text = "".join(f" and {e}" for e in extras)
    s["log"].append(f"{seat_ref(seat)} fulfils {what} for {base} PP{extra_text}.")

    if player["seals"] == 0 and s["end_tile"] is None:
        s["end_tile"] = seat
        _earn(player, "end_tile", END_TILE_PP)
        s["log"].append(
            f"{seat_ref(seat)} places their last seal and takes the end-of-game tile "
            f"({END_TILE_PP} PP); everyone else has one more turn."
        )


def _earn(player: dict[str, Any], source: str, pp: int) -> None:
    """PP scored in play, counted by source for the final breakdown (state.PP_SOURCES)."""
    player["pp"] += pp
    player["earned"][source] += pp


def seal_campanile(s: dict[str, Any], tower_index: int) -> None:
    seat = s["seat"]
    tower = s["players"][seat]["towers"].pop(tower_index)
    s["pouch"][tower["c"]] += tower["h"]
    entry = next(c for c in s["church"] if c["card"] == "Campanile")
    entry["sealed"].append(seat)
    s["log"].append(f"{seat_ref(seat)} completes the bell tower and seals the Campanile.")
    if len(entry["sealed"]) == s["n"]:
        s["church"].remove(entry)
        s["discard"].append("Campanile")
        s["log"].append("Every player has sealed the Campanile; it is discarded.")
