"""Applying one legal action to a copy of the state."""

from __future__ import annotations

from typing import Any

from . import build, decisions, exchange, fulfil, personnel, row
from .bricks import describe_colors
from .checks import NOT_NOW, check
from .data import COLOR_INDEX
from .errors import IllegalAction
from .legal import legal_actions_of
from .players import over_store_limit, within_limits
from .state import State, clone
from .turns import end_turn
from .words import seat_ref


def apply_action(state: State, action: dict[str, Any]) -> State:
    """Return the state after `action`; raise IllegalAction (state untouched) if not allowed."""
    current = state._d
    refused = check(current, action)  # the rule itself: None exactly for a legal action
    if refused is not None or current["pending"] is not None:
        # A value equal to a legal action in other types (True or 1.0 for 1) is that action:
        # it is applied in its canonical form (a pending decision's answers are compared by
        # equality, so an answer always takes the canonical form).
        legal = legal_actions_of(current)
        if action not in legal:
            raise IllegalAction(refused or NOT_NOW) from None
        action = legal[legal.index(action)]
    s = clone(current)
    if s["pending"] is not None:
        decisions.answer(s, action)
    else:
        _HANDLERS[action["type"]](s, action)
    s["step"] += 1
    if s.pop("_barrier", False):
        s["turn"]["undo"] = 0
    else:
        s["turn"]["undo"] += 1
    return State(s)


def apply_in_place(s: dict[str, Any], action: dict[str, Any]) -> None:
    """apply_action without its check and its copy, for a search that owns `s` (a sampled
    copy) and takes `action` from legal_actions_of(s): the same handlers, so the same rules."""
    s["log"] = []
    if s["pending"] is not None:
        decisions.answer(s, action)
    else:
        _HANDLERS[action["type"]](s, action)
    s["step"] += 1
    if s.pop("_barrier", False):
        s["turn"]["undo"] = 0
    else:
        s["turn"]["undo"] += 1


def _color(action: dict[str, Any]) -> int:
    return COLOR_INDEX[action["color"]]


def _choose_card(s: dict[str, Any], action: dict[str, Any]) -> None:
    row.begin_choice(s, action["slot"])


def _pay_brick(s: dict[str, Any], action: dict[str, Any]) -> None:
    """Outside a pending decision a brick is paid only over the storehouse limit."""
    _return_over_limit(s, _color(action))


def _return_over_limit(s: dict[str, Any], color: int) -> None:
    player = s["players"][s["seat"]]
    player["store"][color] -= 1
    s["pouch"][color] += 1
    s["turn"].setdefault("returned", [])
    returned = s["turn"]["returned"] + [color]
    if over_store_limit(player):
        s["turn"]["returned"] = returned
    else:
        s["turn"].pop("returned", None)
        s["log"].append(
            f"{seat_ref(s['seat'])} returns {describe_colors(returned)} to the pouch "
            "(storehouse limit)."
        )


def _play_card(s: dict[str, Any], action: dict[str, Any]) -> None:
    personnel.play(s, action["card"])


def _discard_card(s: dict[str, Any], action: dict[str, Any]) -> None:
    """Outside a pending decision a card is discarded only over the card limit."""
    card = action["card"]
    player = s["players"][s["seat"]]
    if card in player["hand"]:
        player["hand"].remove(card)
    else:
        player["buildings"].remove(card)
    s["discard"].append(card)
    s["log"].append(f"{seat_ref(s['seat'])} discards {card} (card limit).")


def _exchange(s: dict[str, Any], action: dict[str, Any]) -> None:
    exchange.begin(s, action["slot"])


def _build(s: dict[str, Any], action: dict[str, Any]) -> None:
    if "tower" in action:
        build.add_to_tower(s, action["tower"])
    else:
        build.start_tower(s, _color(action))


def _fulfil(s: dict[str, Any], action: dict[str, Any]) -> None:
    fulfil.fulfil(s, action["tower"], action["level"])


def _seal_campanile(s: dict[str, Any], action: dict[str, Any]) -> None:
    fulfil.seal_campanile(s, action["tower"])


def _end_phase(s: dict[str, Any], action: dict[str, Any]) -> None:
    phase = s["phase"]
    if phase == "choose":
        s["log"].append(f"{seat_ref(s['seat'])} finds no card in the row to take.")
        s["phase"] = "exchange"
    elif phase == "exchange":
        s["phase"] = "build"
    elif phase == "build":
        build.end_build(s)
    elif phase == "fulfil":
        s["phase"] = "limits"


def _end_turn(s: dict[str, Any], action: dict[str, Any]) -> None:
    assert within_limits(s["players"][s["seat"]])
    s["_barrier"] = True
    end_turn(s)


_HANDLERS = {
    "choose_card": _choose_card,
    "pay_brick": _pay_brick,
    "play_card": _play_card,
    "discard_card": _discard_card,
    "exchange": _exchange,
    "build": _build,
    "fulfil": _fulfil,
    "seal_campanile": _seal_campanile,
    "end_phase": _end_phase,
    "end_turn": _end_turn,
}
