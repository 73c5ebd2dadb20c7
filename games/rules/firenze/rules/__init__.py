"""The Firenze rules engine: pure Python, state in, action in, new state out.

Everything outside this package (views, bots, emails, replays, tests) goes through these names.
See README.md beside this file for the action types and the state dict.
"""

from __future__ import annotations

from typing import Any

from .apply import apply_action
from .changes import changes
from .data import SEALS_PER_PLAYER
from .errors import IllegalAction, Refusal
from .legal import legal_actions_of
from .levels import choose_action
from .setup import new_game
from .state import State, from_dict, to_dict
from .view import format_line, log_lines, minor_line, player_view

# What a game record names its engine by (exports, imports): the game, and the version of the
# rules it plays (docs/rules.md). A change to the rules that would replay a stored move log
# differently must raise RULES_VERSION; a change of the state dict's layout only raises the
# state's schema version ("v"), since states are rebuilt from the log.
ENGINE_NAME = "firenze"
RULES_VERSION = "1"

__all__ = [
    "ENGINE_NAME",
    "RULES_VERSION",
    "IllegalAction",
    "Refusal",
    "State",
    "acting_seat",
    "apply_action",
    "can_undo",
    "changes",
    "choose_action",
    "format_line",
    "from_dict",
    "is_over",
    "legal_actions",
    "log_lines",
    "log_tokens",
    "minor_line",
    "new_game",
    "player_view",
    "progress",
    "scores",
    "to_dict",
    "winners",
]


def legal_actions(state: State) -> list[dict[str, Any]]:
    """Every action the acting player may take now, each a JSON-ready dict with a "type"."""
    return legal_actions_of(state._d)


def acting_seat(state: State) -> int | None:
    return None if state._d["phase"] == "over" else state._d["seat"]


def is_over(state: State) -> bool:
    return bool(state._d["phase"] == "over")


def scores(state: State) -> list[int]:
    """Prestige points per seat: running totals in play, final totals once over."""
    final = state._d["final"]
    if final is not None:
        return [p["total"] for p in final["players"]]
    return [p["pp"] for p in state._d["players"]]


def winners(state: State) -> list[int]:
    """Seats with the most PP once the game is over (several on a tie); empty before."""
    final = state._d["final"]
    return list(final["winners"]) if final is not None else []


def progress(state: State) -> float:
    """About how much of the game is played, 0 to 1: the share of their seals the players
    have placed (the game ends a round after someone places their last), the leader's and the
    average's mean. Over greedy playouts it follows the share of turns played to within about
    a tenth, without a lean either way."""
    d = state._d
    if d["phase"] == "over":
        return 1.0
    start = SEALS_PER_PLAYER[d["n"]]
    shares = [(start - player["seals"]) / start for player in d["players"]]
    share = float(max(shares) + sum(shares) / len(shares)) / 2
    return max(share, 0.95) if d["end_tile"] is not None else share


def can_undo(state: State) -> bool:
    """Whether the acting player may take back their last step (not past hidden information)."""
    d = state._d
    return bool(d["phase"] != "over" and d["turn"]["undo"] > 0)


def log_tokens(state: State) -> list[str]:
    """The last action's raw log lines, seats as {0}, {1} ...: for storing with the move."""
    return list(state._d["log"])
