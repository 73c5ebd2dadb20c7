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
from .errors import NO_SUCH_TOWER, Refusal, whole
from .words import gettext_noop, seat_ref

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
    """Uncovered, and if it is a balcony, the one with the lowest numeral still open.

    The rule itself: the bots ask it very often, so it builds no Refusal; commission_refusal
    words the part that failed."""
    if (
        not MIN_LEVEL <= level <= MAX_LEVEL
        or s["board"][commission_index(color, level)] is not None
    ):
        return False
    balcony = balcony_at(s, color, level)
    return balcony is None or balcony == s["balcony_next"]


def commission_refusal(s: dict[str, Any], color: int, level: int) -> Refusal | None:
    """None if open_commission passes; else which of its conditions failed, in words."""
    if open_commission(s, color, level):
        return None
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        return _LEVELS
    balcony = balcony_at(s, color, level)
    if balcony is None or s["board"][commission_index(color, level)] is not None:
        return Refusal(
            gettext_noop("The %(color)s %(level)s commission is already sealed."),
            {"color": COLORS[color], "level": level},
        )
    return Refusal(
        gettext_noop("Balcony %(balcony)s can only be fulfilled after balcony %(before)s."),
        {"balcony": BALCONY_NUMERALS[balcony], "before": BALCONY_NUMERALS[s["balcony_next"]]},
    )


_LEVELS = Refusal(gettext_noop("Commissions run from level 3 to level 8."))
_NO_SEALS = Refusal(gettext_noop("You have no seals left, so you cannot fulfil more commissions."))
_CAMPANILE = Refusal(
    gettext_noop("The Campanile stands: seal it with a white bell tower of 3 levels first.")
)


def fulfil_gate(s: dict[str, Any]) -> Refusal | None:
    """A seal left, and no Campanile standing for this player."""
    if s["players"][s["seat"]]["seals"] == 0:
        return _NO_SEALS
    if campanile_blocks(s, s["seat"]):
        return _CAMPANILE
    return None


def tower_refusal(s: dict[str, Any], action: dict[str, Any]) -> Refusal | None:
    """A tower of the commission's colour and height (one off after an Architect), and the
    commission open."""
    player = s["players"][s["seat"]]
    i, level = whole(action, "tower"), whole(action, "level")
    if i is None or not 0 <= i < len(player["towers"]):
        return NO_SUCH_TOWER
    tower = player["towers"][i]
    if level is None or not MIN_LEVEL <= level <= MAX_LEVEL:
        return _LEVELS
    height = tower["h"]
    if level != height and not (s["turn"]["architect"] == 1 and abs(level - height) == 1):
        if s["turn"]["architect"] == 1:
            return Refusal(
                gettext_noop(
                    "The Architect changes a tower by one level only; yours has %(height)s."
                ),
                {"height": height},
            )
        words = {"color": COLORS[tower["c"]], "height": height, "level": level}
        if height == 1:
            return Refusal(
                gettext_noop(
                    "Your %(color)s tower has %(height)s level; it cannot fulfil the "
                    "%(color)s %(level)s commission."
                ),
                words,
            )
        return Refusal(
            gettext_noop(
                "Your %(color)s tower has %(height)s levels; it cannot fulfil the "
                "%(color)s %(level)s commission."
            ),
            words,
        )
    return commission_refusal(s, tower["c"], level)


def tower_levels(s: dict[str, Any]) -> list[tuple[int, int]]:
    """(tower index, level) for every level each tower of the acting player could count as."""
    architect = s["turn"]["architect"] == 1
    return [
        (i, level)
        for i, tower in enumerate(s["players"][s["seat"]]["towers"])
        for level in ((tower["h"] - 1, tower["h"], tower["h"] + 1) if architect else (tower["h"],))
    ]


def fulfil_options(s: dict[str, Any]) -> list[tuple[int, int]]:
    """(tower index, commission level) pairs the acting player may fulfil now: the levels
    fulfil_gate and tower_refusal pass (checks.RULES["fulfil"])."""
    if fulfil_gate(s) is not None:
        return []
    return [
        (i, level)
        for i, level in tower_levels(s)
        if tower_refusal(s, {"tower": i, "level": level}) is None
    ]


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


_NO_BELL_TOWER = Refusal(gettext_noop("There is no bell tower to seal the Campanile with now."))


def seal_gate(s: dict[str, Any]) -> Refusal | None:
    if not campanile_blocks(s, s["seat"]) or not s["players"][s["seat"]]["towers"]:
        return _NO_BELL_TOWER
    return None


def bell_refusal(s: dict[str, Any], action: dict[str, Any]) -> Refusal | None:
    towers = s["players"][s["seat"]]["towers"]
    i = whole(action, "tower")
    if i is None or not 0 <= i < len(towers):
        return NO_SUCH_TOWER
    if towers[i]["c"] != 0 or towers[i]["h"] != BELL_TOWER_HEIGHT:
        return _NOT_BELL
    return None


_NOT_BELL = Refusal(
    gettext_noop("Only a white tower of exactly %(height)s levels seals the Campanile."),
    {"height": BELL_TOWER_HEIGHT},
)


def bell_towers(s: dict[str, Any]) -> list[int]:
    """The towers seal_gate and bell_refusal pass (checks.RULES["seal_campanile"])."""
    if seal_gate(s) is not None:
        return []
    towers = s["players"][s["seat"]]["towers"]
    return [i for i in range(len(towers)) if bell_refusal(s, {"tower": i}) is None]


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
