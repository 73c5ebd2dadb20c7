"""Every action the acting player may take now; apply_action accepts exactly these.

Steps are small on purpose (one brick, one tower, one card) so a page, a bot or a test can drive
the game one click at a time. A pending decision (paying a cost, a card's follow-up choice)
narrows the list to its own answers.
"""

from __future__ import annotations

from typing import Any

from . import build, decisions, exchange, fulfil, personnel
from .data import COLORS
from .players import discardable_cards, over_card_limit, over_store_limit, within_limits


def _plays(s: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "play_card", "card": card} for card in personnel.playable(s)]


def pending_actions(s: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers of the pending decision (firenze.rules.decisions)."""
    return decisions.answers(s)


def _choose_actions(s: dict[str, Any], player: dict[str, Any]) -> list[dict[str, Any]]:
    if s["turn"]["princess"]:
        slots = range(len(s["row"]))
    else:
        slots = range(min(len(s["row"]), sum(player["store"]) + 1))
    actions = [{"type": "choose_card", "slot": i} for i in slots]
    if not s["row"]:
        actions.append({"type": "end_phase"})
    return actions


def _exchange_actions(s: dict[str, Any], player: dict[str, Any]) -> list[dict[str, Any]]:
    actions = []
    if exchange.can_exchange(s):
        actions += [{"type": "exchange", "slot": i} for i in exchange.slots(s)]
    actions.append({"type": "end_phase"})
    return actions


def _build_actions(s: dict[str, Any], player: dict[str, Any]) -> list[dict[str, Any]]:
    store = player["store"]
    actions: list[dict[str, Any]] = []
    if build.can_add_brick(s):
        actions += [
            {"type": "build", "tower": i} for i, t in enumerate(player["towers"]) if store[t["c"]]
        ]
        actions += [{"type": "build", "color": COLORS[c]} for c in range(6) if store[c]]
    actions.append({"type": "end_phase"})
    return actions


def _fulfil_actions(s: dict[str, Any], player: dict[str, Any]) -> list[dict[str, Any]]:
    actions = [{"type": "fulfil", "tower": i, "level": lv} for i, lv in fulfil.fulfil_options(s)]
    actions += [{"type": "seal_campanile", "tower": i} for i in fulfil.bell_towers(s)]
    actions.append({"type": "end_turn"} if within_limits(player) else {"type": "end_phase"})
    return actions


def _limits_actions(s: dict[str, Any], player: dict[str, Any]) -> list[dict[str, Any]]:
    actions = []
    if over_store_limit(player):
        actions += decisions.bricks(player["store"])
    if over_card_limit(player):
        actions += [{"type": "discard_card", "card": c} for c in discardable_cards(player)]
    if within_limits(player):
        actions.append({"type": "end_turn"})
    return actions


# What each phase of the turn offers, besides the personnel cards allowed in it.
PHASE_ACTIONS = {
    "choose": _choose_actions,
    "exchange": _exchange_actions,
    "build": _build_actions,
    "fulfil": _fulfil_actions,
    "limits": _limits_actions,
}


def phase_actions(s: dict[str, Any]) -> list[dict[str, Any]]:
    player = s["players"][s["seat"]]
    return _plays(s) + PHASE_ACTIONS[s["phase"]](s, player)


def legal_actions_of(s: dict[str, Any]) -> list[dict[str, Any]]:
    if s["phase"] == "over":
        return []
    if s["pending"] is not None:
        return pending_actions(s)
    return phase_actions(s)
