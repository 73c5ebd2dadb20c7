"""Every action the acting player may take now; apply_action accepts exactly these.

Steps are small on purpose (one brick, one tower, one card) so a page, a bot or a test can drive
the game one click at a time. Each phase names its well-formed candidates, type by type, in the
order a page lists them; a type's candidates are offered if its rule's gate passes
(checks.RULES, the rule that also words a refusal), and then those its detail passes. A
pending decision narrows the list to its own answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import decisions, fulfil, plays
from .checks import RULES
from .data import COLORS
from .players import discardable_cards

S = dict[str, Any]
Action = dict[str, Any]
Candidates = Callable[[S], list[Action]]


def pending_actions(s: S) -> list[Action]:
    """The answers of the pending decision (firenze.rules.decisions)."""
    return decisions.answers(s)


def _slots(kind: str) -> Candidates:
    return lambda s: [{"type": kind, "slot": i} for i in range(len(s["row"]))]


def _bricks(s: S) -> list[Action]:
    towers = s["players"][s["seat"]]["towers"]
    return [
        *({"type": "build", "tower": i} for i in range(len(towers))),
        *({"type": "build", "color": color} for color in COLORS),
    ]


def _fulfilments(s: S) -> list[Action]:
    """Each tower at every level it could count as (one off only after an Architect)."""
    return [{"type": "fulfil", "tower": i, "level": lv} for i, lv in fulfil.tower_levels(s)]


def _towers(kind: str) -> Candidates:
    return lambda s: [
        {"type": kind, "tower": i} for i in range(len(s["players"][s["seat"]]["towers"]))
    ]


def _returns(s: S) -> list[Action]:
    return [{"type": "pay_brick", "color": color} for color in COLORS]


def _discards(s: S) -> list[Action]:
    return [{"type": "discard_card", "card": c} for c in discardable_cards(s["players"][s["seat"]])]


def _just(kind: str) -> Candidates:
    action = {"type": kind}
    return lambda s: [dict(action)]


# What each phase offers, type by type, besides the personnel cards allowed in any phase.
PHASE_CANDIDATES: dict[str, list[tuple[str, Candidates]]] = {
    "choose": [("choose_card", _slots("choose_card")), ("end_phase", _just("end_phase"))],
    "exchange": [("exchange", _slots("exchange")), ("end_phase", _just("end_phase"))],
    "build": [("build", _bricks), ("end_phase", _just("end_phase"))],
    "fulfil": [
        ("fulfil", _fulfilments),
        ("seal_campanile", _towers("seal_campanile")),
        ("end_turn", _just("end_turn")),
        ("end_phase", _just("end_phase")),
    ],
    "limits": [
        ("pay_brick", _returns),
        ("discard_card", _discards),
        ("end_turn", _just("end_turn")),
    ],
}


def candidates(s: S) -> list[Action]:
    """Every well-formed action of the current phase, legal or not (for tests and tools)."""
    hand = sorted(set(s["players"][s["seat"]]["hand"]))
    plays = [{"type": "play_card", "card": card} for card in hand]
    return plays + [a for _, make in PHASE_CANDIDATES[s["phase"]] for a in make(s)]


def phase_actions(s: S) -> list[Action]:
    actions = [{"type": "play_card", "card": card} for card in plays.playable(s)]
    for kind, make in PHASE_CANDIDATES[s["phase"]]:
        gate, detail, then = RULES[kind]
        if gate(s) is None and (then is None or then(s) is None):
            actions += [a for a in make(s) if detail(s, a) is None]
    return actions


def legal_actions_of(s: S) -> list[Action]:
    if s["phase"] == "over":
        return []
    if s["pending"] is not None:
        return pending_actions(s)
    return phase_actions(s)
