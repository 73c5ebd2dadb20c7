"""What one seat may see: the whole public board plus its own hand, never the deck order.

This is the only picture of the game that leaves the server for a player (boardgame.io's
playerView); pages, partials, JSON and emails are drawn from it.
"""

from __future__ import annotations

import re
from typing import Any

from .build import construction_cost
from .cards import CARDS
from .data import (
    BALCONY_NUMERALS,
    CARD_LIMIT,
    COLORS,
    LEVEL_TILE_PP,
    LEVELS,
    MAJORITY_BONUS,
    MAX_BUILD_PER_TURN,
    STOREHOUSE_FIRE_BRICKS,
    commission_index,
    printed_pp,
)
from .exchange import price as exchange_price
from .fulfil import balcony_at, open_commission, why_nothing_to_fulfil
from .players import card_count, store_limit
from .refill import INTO_ROW
from .state import State

_SEAT_TOKEN = re.compile(r"\{(\d)\}")


def _named(bricks: list[int]) -> dict[str, int]:
    return {COLORS[c]: bricks[c] for c in range(6)}


def _pending(s: dict[str, Any]) -> dict[str, Any] | None:
    pending = s["pending"]
    if pending is None:
        return None
    public = {k: v for k, v in pending.items() if k not in ("paid", "before", "gave", "took")}
    for key in ("paid", "before"):
        if key in pending:
            public[key] = [COLORS[c] for c in pending[key]]
    if pending["kind"] == "fire":
        public["due"] = STOREHOUSE_FIRE_BRICKS
    if pending["kind"] == "card_cost":
        public["onto"] = len(pending["paid"])  # the slot the next brick goes onto
    for key in ("gave", "took"):
        if key in pending:
            public[key] = COLORS[pending[key]]
    return public


def _board(s: dict[str, Any]) -> dict[str, Any]:
    commissions = []
    for c in range(6):
        for level in LEVELS:
            owner = s["board"][commission_index(c, level)]
            balcony = balcony_at(s, c, level)
            commissions.append(
                {
                    "color": COLORS[c],
                    "level": level,
                    "pp": s["balconies"][balcony]["pp"]
                    if balcony is not None
                    else printed_pp(c, level),
                    "seal": "neutral" if owner is not None and owner < 0 else owner,
                    "balcony": BALCONY_NUMERALS[balcony] if balcony is not None else None,
                    "open": open_commission(s, c, level),
                }
            )
    following = s["balcony_next"]
    return {
        "commissions": commissions,
        "balcony_next": BALCONY_NUMERALS[following] if following < 4 else None,
        "level_tiles": [{"level": lv, "pp": LEVEL_TILE_PP[lv]} for lv in s["level_tiles"]],
        "end_tile": s["end_tile"],
        "majority_bonus": {COLORS[c]: MAJORITY_BONUS[c] for c in range(6)},
    }


def _player(s: dict[str, Any], seat: int, viewer: int | None) -> dict[str, Any]:
    p = s["players"][seat]
    public = {
        "seat": seat,
        "store": _named(p["store"]),
        "store_count": sum(p["store"]),
        "store_limit": store_limit(p),
        "towers": [
            {"color": COLORS[t["c"]], "height": t["h"], "added": t["add"], "standing": t["old"]}
            for t in p["towers"]
        ],
        "buildings": list(p["buildings"]),
        "hand_count": len(p["hand"]),
        "card_count": card_count(p),
        "card_limit": None if "Warehouse" in p["buildings"] else CARD_LIMIT,
        "pp": p["pp"],
        "seals_left": p["seals"],
        "campanile_sealed": any(
            seat in c["sealed"] for c in s["church"] if c["card"] == "Campanile"
        ),
    }
    if seat == viewer:
        public["hand"] = sorted(p["hand"])
    return public


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    """A JSON-ready picture of the game for `seat` (None: a spectator)."""
    s = state._d
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < s["n"]):
        raise ValueError(f"There is no seat {seat!r} in this game.")
    over = s["phase"] == "over"
    turn = s["turn"]
    # Construction cost by bricks built this turn, with the acting player's discounts.
    costs = [] if over else [construction_cost(s, n) for n in range(MAX_BUILD_PER_TURN + 1)]
    view: dict[str, Any] = {
        "step": s["step"],
        "viewer": seat,
        "num_players": s["n"],
        "options": dict(s["options"]),
        "start_seat": s["start_seat"],
        "turn_no": s["turn_no"],
        "phase": s["phase"],
        "acting_seat": None if over else s["seat"],
        "pending": None if over else _pending(s),
        "event": (
            {"card": s["transit"]["card"], "bricks": _named(s["transit"]["bricks"])}
            if s["transit"]
            else None
        ),
        "turn": {
            "played": list(turn["played"]),
            "princess": turn["princess"],
            "mason": turn["mason"],
            "architect": ("none", "ready", "used")[turn["architect"]],
            "exchanged": turn["exchanged"],
            "built": turn["built"],
            "build_cost": costs[turn["built"]] if costs else 0,
            "build_costs": costs,
            "exchange_price": 0 if over else exchange_price(s["players"][s["seat"]]),
            "fulfil_blocked": why_nothing_to_fulfil(s),
        },
        "players": [_player(s, i, seat) for i in range(s["n"])],
        "board": _board(s),
        "church": [{"card": c["card"], "sealed": list(c["sealed"])} for c in s["church"]],
        "row": [
            {
                "slot": i,
                "card": r["card"],
                "kind": CARDS[r["card"]].kind,
                "bricks": _named(r["bricks"]),
                "cost": 0 if turn["princess"] else i,
            }
            for i, r in enumerate(s["row"])
        ],
        # A planning sandbox's guessed cards (rules/planned.py): never in a real game's view.
        **({"guessed": _guessed(s)} if "sandbox_deck" in s else {}),
        "deck_count": len(s["deck"]),
        "discard": list(s["discard"]),
        "pouch": _named(s["pouch"]),
        "final": s["final"],
        "winners": s["final"]["winners"] if over else None,
    }
    return view


def _guessed(s: dict[str, Any]) -> list[int]:
    """In a planning sandbox (rules/planned.py), the row slots holding cards drawn from its
    guessed deck: refills come in at the end of the row, so the last ones. Empty elsewhere."""
    start = s.get("sandbox_deck")
    if start is None:
        return []
    drawn = max(0, start - len(s["deck"]))
    return list(range(max(0, len(s["row"]) - drawn), len(s["row"])))


def format_line(line: str, names: list[str] | None = None) -> str:
    """Fill a log line's seat tokens ({0}, {1} ...) with player names."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return names[seat] if names and seat < len(names) else f"Player {seat + 1}"

    return _SEAT_TOKEN.sub(name, line)


# The lines of passes and of steps the rules make for a player (the row's refill, a discard
# at the card limit, bricks back to the pouch): what a player may hide from the log.
_MINOR = re.compile(
    rf"(^\{{\d+\}} ends the turn\.$)|({re.escape(INTO_ROW)})|( finds no card in the row to "
    r"take\.$)|( \(card limit\)\.$)|( returns .* to the pouch)|(; the copy is discarded\.$)"
)


def minor_line(line: str) -> bool:
    """A stored log line (English, seat tokens kept) that reports a pass or a forced step."""
    return _MINOR.search(line) is not None


def log_lines(state: State, names: list[str] | None = None) -> list[str]:
    """The public log lines produced by the last applied action, with names filled in."""
    return [format_line(line, names) for line in state._d["log"]]
