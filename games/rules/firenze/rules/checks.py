"""The rule of every action type: why an action is refused, or None when it is allowed.

`check(s, action)` is THE rule. legal.py generates the well-formed candidates of the phase and
offers those the same rule passes (RULES: a gate asked once per phase, a detail per candidate),
and apply_action refuses anything else with the Refusal `check` gives, so the reason a player
reads and the list of legal actions come from one code path. Each phase's conditions live
beside that phase's steps (build.build_count_gate, build.brick_refusal, build.build_cost_gate,
exchange.exchange_gate, exchange.slot_refusal, fulfil.fulfil_gate, fulfil.tower_refusal,
plays.play_refusal ...); this module adds what every action shares: its shape, the phase
it belongs to, a pending decision (whose answers decisions.DECISIONS lists).

Any value may arrive here (a page, an API client, a fuzzer): every detail is type-checked before
it is looked up, so the answer is always a Refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

from . import decisions, exchange, plays, row
from .build import brick_refusal, build_cost_gate, build_count_gate
from .data import COLOR_INDEX, COLORS
from .errors import (
    NAME_A_COLOUR,
    NO_BRICK_IN_STORE,
    NO_SUCH_TOWER,
    Refusal,
    color_refusal,
    name,
    no_card_at,
    quoted,
    whole,
)
from .fulfil import bell_refusal, fulfil_gate, seal_gate, tower_refusal
from .players import discardable_cards, over_card_limit, over_store_limit, within_limits
from .words import gettext_noop

S = dict[str, Any]
Action = dict[str, Any]

ACTION_KEYS = {
    "choose_card": {"type", "slot"},
    "pay_brick": {"type", "color"},
    "take_brick": {"type", "color", "seat"},
    "resolve_event": {"type"},
    "play_card": {"type", "card"},
    "pick_tower": {"type", "tower", "seat"},
    "pick_slot": {"type", "slot"},
    "discard_card": {"type", "card"},
    "exchange": {"type", "slot"},
    "build": {"type", "tower", "color"},
    "fulfil": {"type", "tower", "level"},
    "seal_campanile": {"type", "tower"},
    "end_phase": {"type"},
    "end_turn": {"type"},
}
ACTION_TYPES = tuple(ACTION_KEYS)

NOT_AN_OBJECT = Refusal(
    gettext_noop('A move must be an object with a "type", for example {"type": "end_phase"}.')
)
GAME_OVER = Refusal(gettext_noop("The game is over; no more moves can be made."))
NOT_NOW = Refusal(gettext_noop("That move is not possible now: one of its details is not allowed."))


class Rule(NamedTuple):
    """The rule of one action type outside a pending decision, in parts so legal.py asks what
    does not depend on the action's details once per position, not per candidate: `gate(s)`
    (may any action of the type be taken now: the phase, a limit, once a turn), `detail(s,
    action)` (may this one: which tower, colour, slot, card) and `then(s)`."""

    gate: Callable[[S], Refusal | None]
    detail: Callable[[S, Action], Refusal | None]
    # Like gate, but worded after the detail: a player who names a brick they lack is told
    # that before the cost of building one more.
    then: Callable[[S], Refusal | None] | None = None


def check(s: S, action: Any) -> Refusal | None:
    """Why `action` is not allowed now, or None when it is (it is then one of legal_actions)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return NOT_AN_OBJECT
    kind = action["type"]
    if kind not in ACTION_KEYS:
        return Refusal(gettext_noop("There is no move called %(value)s."), {"value": quoted(kind)})
    if s["phase"] == "over":
        return GAME_OVER
    if kind == "play_card":
        refusal = plays.play_refusal(s, action)
        if refusal is plays.ANSWER_PENDING:
            return decisions.first_refusal(s)
        return refusal or _extra_keys(action)
    if s["pending"] is not None:
        return check_answer(s, action)
    rule = RULES[kind]
    return (
        _extra_keys(action)
        or color_refusal(action)
        or rule.gate(s)
        or rule.detail(s, action)
        or (rule.then(s) if rule.then is not None else None)
    )


def _extra_keys(action: Action) -> Refusal | None:
    if action.keys() <= ACTION_KEYS[action["type"]]:
        return None
    extra = sorted(quoted(k) for k in action if k not in ACTION_KEYS[action["type"]])
    return Refusal(
        gettext_noop("A %(kind)s move has no %(keys)s."),
        {"kind": action["type"], "keys": tuple(extra)},
    )


# --- the phases' actions -------------------------------------------------------------------


def _in_phase(
    msgid: str, phase: str, gate: Callable[[S], Refusal | None]
) -> Callable[[S], Refusal | None]:
    """A gate: the action belongs to `phase` (outside it the player is told which phase it
    belongs to), and then `gate` passes."""

    def checked(s: S) -> Refusal | None:
        if s["phase"] != phase:
            return Refusal(msgid, {"phase": s["phase"]})
        return gate(s)

    return checked


def _passes(s: S, action: Action) -> None:
    """The detail of an action that has none (end_phase, end_turn)."""
    return None


def _always(refused: Refusal) -> Callable[[S], Refusal]:
    return lambda s: refused


def _choose_gate(s: S) -> Refusal | None:
    if s["phase"] != "choose":
        return Refusal(gettext_noop("You have already taken a card this turn."))
    return None


def _choose_detail(s: S, action: Action) -> Refusal | None:
    """A card of the row, paying its cost (none after a Princess)."""
    slot = action.get("slot")
    if type(slot) is not int or not 0 <= slot < len(s["row"]):
        return no_card_at(s)
    due, have = row.card_cost(s, slot), sum(s["players"][s["seat"]]["store"])
    return _need(due, have) if have < due else None


@cache
def _need(due: int, have: int) -> Refusal:
    if due == 1:
        return Refusal(
            gettext_noop("You need %(need)s brick to take this card; you have %(have)s."),
            {"need": due, "have": have},
        )
    return Refusal(
        gettext_noop("You need %(need)s bricks to take this card; you have %(have)s."),
        {"need": due, "have": have},
    )


def _end_phase_gate(s: S) -> Refusal | None:
    """The choose phase ends only when the row is empty; the fulfil phase only for the limits."""
    phase = s["phase"]
    if phase == "choose" and s["row"]:
        return Refusal(gettext_noop("Take a card from the row first; this phase ends with it."))
    if phase == "fulfil" and within_limits(s["players"][s["seat"]]):
        return Refusal(gettext_noop("You are within your limits: end your turn instead."))
    if phase == "limits":
        return Refusal(gettext_noop("This phase cannot be ended; end your turn instead."))
    return None


def _end_turn_gate(s: S) -> Refusal | None:
    """After the build phase, once within the storehouse and card limits."""
    if s["phase"] not in ("fulfil", "limits"):
        return Refusal(gettext_noop("You cannot end your turn yet."))
    if not within_limits(s["players"][s["seat"]]):
        return Refusal(
            gettext_noop(
                "You are over your storehouse or card limit; discard first, then end your turn."
            )
        )
    return None


def _not_in_phase(s: S) -> Refusal:
    return Refusal(
        gettext_noop("That is not possible in the %(phase)s phase."), {"phase": s["phase"]}
    )


def _return_gate(s: S) -> Refusal | None:
    """Outside a pending decision, a brick is returned only over the storehouse limit."""
    if s["phase"] != "limits":
        return _not_in_phase(s)
    if not over_store_limit(s["players"][s["seat"]]):
        return Refusal(
            gettext_noop("You are within your storehouse limit; there is no brick to return.")
        )
    return None


def _return_detail(s: S, action: Action) -> Refusal | None:
    color = COLOR_INDEX.get(name(action, "color") or "")
    if color is None:
        return NAME_A_COLOUR
    return None if s["players"][s["seat"]]["store"][color] else NO_BRICK_IN_STORE[color]


def _discard_gate(s: S) -> Refusal | None:
    """Outside a pending decision, a card is discarded only over the card limit."""
    if s["phase"] != "limits":
        return _not_in_phase(s)
    if not over_card_limit(s["players"][s["seat"]]):
        return Refusal(gettext_noop("You are within your card limit; there is no card to discard."))
    return None


def _discard_detail(s: S, action: Action) -> Refusal | None:
    card = action.get("card")
    if type(card) is not str or card not in discardable_cards(s["players"][s["seat"]]):
        return _cannot_discard(action)
    return None


def _cannot_discard(action: Action) -> Refusal:
    return Refusal(
        gettext_noop("You cannot discard %(value)s now."), {"value": quoted(action.get("card"))}
    )


RULES: dict[str, Rule] = {
    "choose_card": Rule(_choose_gate, _choose_detail),
    "exchange": Rule(
        _in_phase(
            gettext_noop(
                "You can only exchange bricks in the exchange phase; this is the %(phase)s phase."
            ),
            "exchange",
            exchange.exchange_gate,
        ),
        exchange.slot_refusal,
    ),
    "build": Rule(
        _in_phase(
            gettext_noop("You can only build in the build phase; this is the %(phase)s phase."),
            "build",
            build_count_gate,
        ),
        brick_refusal,
        build_cost_gate,
    ),
    "fulfil": Rule(
        _in_phase(
            gettext_noop(
                "You can only fulfil commissions in the fulfil phase; this is the %(phase)s phase."
            ),
            "fulfil",
            fulfil_gate,
        ),
        tower_refusal,
    ),
    "seal_campanile": Rule(
        _in_phase(
            gettext_noop(
                "You can only seal the Campanile in the fulfil phase; this is the %(phase)s phase."
            ),
            "fulfil",
            seal_gate,
        ),
        bell_refusal,
    ),
    "pay_brick": Rule(_return_gate, _return_detail),
    "discard_card": Rule(_discard_gate, _discard_detail),
    "end_phase": Rule(_end_phase_gate, _passes),
    "end_turn": Rule(_end_turn_gate, _passes),
    # Answers to a decision, sent while none is pending.
    "take_brick": Rule(_always(Refusal(gettext_noop("There is no brick to take now."))), _passes),
    "resolve_event": Rule(
        _always(Refusal(gettext_noop("There is no event waiting to be resolved."))), _passes
    ),
    "pick_tower": Rule(_always(Refusal(gettext_noop("There is no tower to choose now."))), _passes),
    "pick_slot": Rule(
        _always(Refusal(gettext_noop("There is no row card to choose now."))), _passes
    ),
}


# --- answers to a pending decision ---------------------------------------------------------


def check_answer(s: S, action: Action) -> Refusal | None:
    """While a decision is pending its answers (decisions.DECISIONS) are the only legal moves."""
    answers = decisions.answers(s)
    if action in answers:
        return None
    kind = action["type"]
    if not any(a["type"] == kind for a in answers):
        return decisions.first_refusal(s)
    return _extra_keys(action) or color_refusal(action) or _WHY_NOT_AN_ANSWER[kind](s, action)


def _why_not_paid(s: S, action: Action) -> Refusal:
    color = COLOR_INDEX.get(name(action, "color") or "")
    if color is None:
        return NAME_A_COLOUR
    return NO_BRICK_IN_STORE[color] if not s["players"][s["seat"]]["store"][color] else NOT_NOW


def _why_not_taken(s: S, action: Action) -> Refusal:
    color = COLOR_INDEX.get(name(action, "color") or "")
    pending = s["pending"]
    if color is None:
        return NAME_A_COLOUR
    if "seat" in action and pending["kind"] != "smuggler_take":
        return Refusal(gettext_noop("This brick is not taken from another player: name no seat."))
    if pending["kind"] == "exchange_take":
        return exchange.take_refusal(s, color) or NOT_NOW
    words = {"color": COLORS[color]}
    if pending["kind"] == "alchemist_take":
        if s["pouch"][color]:
            return NOT_NOW
        return Refusal(gettext_noop("There is no %(color)s brick in the pouch."), words)
    seat = whole(action, "seat")
    if seat is None or seat == s["seat"] or not 0 <= seat < s["n"]:
        return Refusal(gettext_noop("The Smuggler takes a brick from another player."))
    if s["players"][seat]["store"][color]:
        return NOT_NOW
    return Refusal(gettext_noop("That player has no %(color)s brick in their storehouse."), words)


def _why_not_picked(s: S, action: Action) -> Refusal:
    if s["pending"]["kind"] != "saboteur":
        return NO_SUCH_TOWER
    if action.get("seat") == s["seat"]:
        return Refusal(
            gettext_noop(
                "The Saboteur takes a brick from another player's tower, not from your own."
            )
        )
    return Refusal(gettext_noop("That player has no such tower."))


def _why_not_slot(s: S, action: Action) -> Refusal:
    slot = whole(action, "slot")
    if slot is None or not 0 <= slot < len(s["row"]):
        return no_card_at(s)
    return Refusal(gettext_noop("That row card holds no bricks."))


_WHY_NOT_AN_ANSWER: dict[str, Callable[[S, Action], Refusal]] = {
    "pay_brick": _why_not_paid,
    "take_brick": _why_not_taken,
    "pick_tower": _why_not_picked,
    "pick_slot": _why_not_slot,
    "discard_card": lambda s, action: _cannot_discard(action),
    "resolve_event": lambda s, action: NOT_NOW,
    "choose_card": lambda s, action: NOT_NOW,
    "exchange": lambda s, action: NOT_NOW,
    "build": lambda s, action: NOT_NOW,
    "fulfil": lambda s, action: NOT_NOW,
    "seal_campanile": lambda s, action: NOT_NOW,
    "end_phase": lambda s, action: NOT_NOW,
    "end_turn": lambda s, action: NOT_NOW,
}
