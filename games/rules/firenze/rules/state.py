"""The game state: one JSON-ready dict behind a thin immutable-by-convention wrapper.

apply_action must never mutate its input, yet has to run in well under 100 µs; a generic deep
copy costs about a third of that, so `clone` copies exactly the schema (flat lists where
possible) and shares the parts nothing ever writes (options, balconies).
"""

from __future__ import annotations

import marshal
import random
from typing import Any

SCHEMA_VERSION = 2  # 2: players' "earned" (PP by source)

# Where PP earned during the game come from (each player's "earned" counts them); the final
# scoring adds the majority bonuses and the celebration cards.
PP_SOURCES = ("commissions", "balconies", "level_tiles", "privileges", "end_tile")

_TOP_KEYS = (
    "v",
    "seed",
    "options",
    "n",
    "rng",
    "step",
    "start_seat",
    "turn_no",
    "seat",
    "phase",
    "pending",
    "transit",
    "turn",
    "players",
    "board",
    "balconies",
    "balcony_next",
    "level_tiles",
    "church",
    "row",
    "deck",
    "discard",
    "pouch",
    "end_tile",
    "final",
    "log",
)


class State:
    """A snapshot of one game. Treat it as immutable: the engine's functions return new ones."""

    __slots__ = ("_d",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._d = data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._d == other._d

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        d = self._d
        return f"<State step={d['step']} seat={d['seat']} phase={d['phase']}>"

    @property
    def step(self) -> int:
        """How many actions have been applied: a version number for stale-move checks."""
        step: int = self._d["step"]
        return step

    @property
    def turn_no(self) -> int:
        """Which turn is being played (1 for the first): moves are grouped by it in the log."""
        turn_no: int = self._d["turn_no"]
        return turn_no


def clone(d: dict[str, Any]) -> dict[str, Any]:
    n = dict(d)
    n["players"] = [
        {
            **p,
            "store": p["store"][:],
            "towers": [dict(t) for t in p["towers"]],
            "hand": p["hand"][:],
            "buildings": p["buildings"][:],
            "earned": dict(p["earned"]),
        }
        for p in d["players"]
    ]
    n["turn"] = {**d["turn"], "played": d["turn"]["played"][:]}
    n["pending"] = dict(d["pending"]) if d["pending"] else None
    transit = d["transit"]
    n["transit"] = {"card": transit["card"], "bricks": transit["bricks"][:]} if transit else None
    n["board"] = d["board"][:]
    n["level_tiles"] = d["level_tiles"][:]
    n["church"] = [{"card": c["card"], "sealed": c["sealed"][:]} for c in d["church"]]
    n["row"] = [{"card": r["card"], "bricks": r["bricks"][:]} for r in d["row"]]
    n["deck"] = d["deck"][:]
    n["discard"] = d["discard"][:]
    n["pouch"] = d["pouch"][:]
    n["log"] = []
    return n


def deep_copy(d: dict[str, Any]) -> dict[str, Any]:
    copy: dict[str, Any] = marshal.loads(marshal.dumps(d))
    return copy


def to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready copy of everything, hidden parts included: for storage, never for players."""
    return deep_copy(state._d)


def from_dict(data: dict[str, Any]) -> State:
    """Rebuild a State from to_dict's output; rejects anything that is not such a dict."""
    if not isinstance(data, dict):
        raise ValueError("A stored game state must be a dict.")
    missing = [key for key in _TOP_KEYS if key not in data]
    if missing:
        raise ValueError(f"A stored game state lacks: {', '.join(missing)}.")
    if data["v"] != SCHEMA_VERSION:
        raise ValueError(f"Unknown state schema version {data['v']!r}.")
    try:
        copied = deep_copy(data)
    except ValueError as exc:
        raise ValueError("A stored game state must hold only JSON values.") from exc
    return State(copied)


def draw_rng(s: dict[str, Any]) -> random.Random:
    """A fresh generator per random event, derived from seed and a counter.

    Keeping only a counter in the state makes copies cheap and replays exact; any random draw
    also closes the undo window.
    """
    rng = random.Random(f"{s['seed']}/{s['rng']}")
    s["rng"] += 1
    s["_barrier"] = True
    return rng
