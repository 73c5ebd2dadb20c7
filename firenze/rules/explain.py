"""Plain-words reasons why an action is not legal, for the player who tried it."""

from __future__ import annotations

from typing import Any

from .cards import CARD_KIND, PERSONNEL_PHASES
from .data import (
    BALCONY_NUMERALS,
    BUILD_COST,
    COLOR_INDEX,
    COLORS,
    MAX_BUILD_PER_TURN,
    PERSONNEL,
    commission_index,
)
from .decisions import DECISIONS
from .exchange import price as exchange_price
from .fulfil import balcony_at, campanile_blocks
from .players import build_discount
from .words import plural

ACTION_TYPES = (
    "choose_card",
    "pay_brick",
    "take_brick",
    "resolve_event",
    "play_card",
    "pick_tower",
    "pick_slot",
    "discard_card",
    "exchange",
    "build",
    "fulfil",
    "seal_campanile",
    "end_phase",
    "end_turn",
)

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

PHASE_NAMES = {
    "choose": "choose a card",
    "exchange": "exchange",
    "build": "build",
    "fulfil": "fulfil",
    "limits": "check limits",
}

HOME_PHASE = {
    "exchange": "exchange",
    "build": "build",
    "fulfil": "fulfil",
    "seal_campanile": "fulfil",
}
VERBS = {
    "exchange": "exchange bricks",
    "build": "build",
    "fulfil": "fulfil commissions",
    "seal_campanile": "seal the Campanile",
}

WRONG_PHASE = {
    "choose_card": "You have already taken a card this turn.",
    "exchange": "Exchanging is only possible once per turn, in the exchange phase, with enough "
    "bricks in your storehouse and a row card that already holds bricks.",
    "build": "You cannot add a brick now.",
    "fulfil": "You cannot fulfil a commission now.",
    "seal_campanile": "There is no bell tower to seal the Campanile with now.",
    "resolve_event": "There is no event waiting to be resolved.",
    "pick_tower": "There is no tower to choose now.",
    "pick_slot": "There is no row card to choose now.",
    "end_turn": "You cannot end your turn yet.",
    "end_phase": "This phase cannot be ended now.",
}


def why_illegal(s: dict[str, Any], action: Any, legal: list[dict[str, Any]]) -> str:
    """The reason for the player. Any value may arrive here (a page, an API client, a fuzzer):
    every detail is type-checked before it is looked up, so the answer is always a message."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return 'A move must be an object with a "type", for example {"type": "end_phase"}.'
    kind = action["type"]
    if kind not in ACTION_TYPES:
        return f"There is no move called {_quoted(kind)}."
    if s["phase"] == "over":
        return "The game is over; no more moves can be made."
    pending = s["pending"]
    same = [a for a in legal if a["type"] == kind]
    if kind == "play_card":
        return _why_play(s, action)
    if pending is not None and not same:
        return f"First {DECISIONS[pending['kind']].first}."
    extra = sorted(_quoted(k) for k in action if k not in ACTION_KEYS[kind])
    if extra:
        return f"A {kind} move has no {', '.join(extra)}."
    home = HOME_PHASE.get(kind)
    if not same and home and s["phase"] != home and kind != "choose_card":
        return (
            f"You can only {VERBS[kind]} in the {PHASE_NAMES[home]} phase; this is the "
            f"{PHASE_NAMES[s['phase']]} phase."
        )
    detail = _detail(s, action, same)
    if detail:
        return detail
    if not same:
        phase = PHASE_NAMES.get(s["phase"], s["phase"])
        return WRONG_PHASE.get(kind, f"That is not possible in the {phase} phase.")
    return "That move is not possible now: one of its details is not allowed."


def _quoted(value: Any, limit: int = 40) -> str:
    """A value the player sent, shown back safely: short, and whatever its type."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f'"{text}"'


def _name(action: dict[str, Any], key: str) -> str | None:
    """A text detail (colour, card) if it is a string, else None."""
    value = action.get(key)
    return value if isinstance(value, str) else None


def _detail(s: dict[str, Any], action: dict[str, Any], same: list[dict[str, Any]]) -> str | None:
    kind = action["type"]
    if "color" in action and _name(action, "color") not in COLOR_INDEX:
        return (
            f"{_quoted(action['color'])} is not a brick colour; the colours are "
            f"{', '.join(COLORS)}."
        )
    if kind == "choose_card" and s["phase"] == "choose" and s["pending"] is None:
        return _why_card(s, action)
    if kind == "exchange" and s["phase"] == "exchange" and s["pending"] is None:
        return _why_exchange(s, action)
    if kind in ("pay_brick", "take_brick") and same and "color" in action:
        return _why_brick(s, action)
    if kind == "build" and s["phase"] == "build" and s["pending"] is None:
        return _why_build(s, action)
    if kind == "fulfil" and s["phase"] == "fulfil" and s["pending"] is None:
        return _why_fulfil(s, action)
    if kind == "pick_tower" and s["pending"] and s["pending"]["kind"] == "saboteur":
        if action.get("seat") == s["seat"]:
            return "The Saboteur takes a brick from another player's tower, not from your own."
        return "That player has no such tower."
    if kind == "discard_card" and same:
        return f"You cannot discard {_quoted(action.get('card'))} now."
    if kind == "end_turn" and s["phase"] in ("fulfil", "limits"):
        limit = "storehouse or card limit"
        return f"You are over your {limit}; discard first, then end your turn."
    return None


def _index(action: dict[str, Any], key: str) -> int | None:
    value = action.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _why_card(s: dict[str, Any], action: dict[str, Any]) -> str:
    slot = _index(action, "slot")
    if slot is None or not 0 <= slot < len(s["row"]):
        return f"There is no card in that position; the row has {len(s['row'])} cards (0 is left)."
    have = sum(s["players"][s["seat"]]["store"])
    return f"You need {plural(slot, 'brick')} to take this card; you have {have}."


def _why_exchange(s: dict[str, Any], action: dict[str, Any]) -> str:
    player = s["players"][s["seat"]]
    if s["turn"]["exchanged"]:
        return "Exchanging is only possible once per turn; you have exchanged already."
    due = exchange_price(player)
    if sum(player["store"]) < due:
        have = sum(player["store"])
        return f"An exchange needs enough bricks: {due} in your storehouse; you have {have}."
    slot = _index(action, "slot")
    if slot is None or not 0 <= slot < len(s["row"]):
        return f"There is no card in that position; the row has {len(s['row'])} cards (0 is left)."
    return "You can only exchange with a card that already holds bricks."


def _why_brick(s: dict[str, Any], action: dict[str, Any]) -> str:
    color = action["color"]
    pending = s["pending"]
    if action["type"] == "take_brick":
        if pending and pending["kind"] == "exchange_take":
            on_card = s["row"][pending["slot"]]["bricks"][COLOR_INDEX[color]]
            if on_card and COLOR_INDEX[color] not in pending.get("before", range(6)):
                before = " or ".join(COLORS[c] for c in pending["before"])
                return f"You can only take a colour that lay on the card before you paid: {before}."
            return f"There is no {color} brick on that card."
        if pending and pending["kind"] == "alchemist_take":
            return f"There is no {color} brick in the pouch."
        return f"That player has no {color} brick in their storehouse."
    return f"You have no {color} brick in your storehouse."


def _why_play(s: dict[str, Any], action: dict[str, Any]) -> str:
    card = _name(action, "card")
    player = s["players"][s["seat"]]
    if card not in CARD_KIND:
        return f"There is no card called {_quoted(action.get('card'))}."
    if CARD_KIND[card] != PERSONNEL:
        return f"{card} is not a personnel card; only personnel cards are played from the hand."
    if card not in player["hand"]:
        return f"You have no {card} in your hand."
    if card in s["turn"]["played"]:
        article = "an" if card[0] in "AEIOU" else "a"
        return f"You have already played {article} {card} this turn."
    if s["pending"] is not None:
        return f"First {DECISIONS[s['pending']['kind']].first}."
    phases = PERSONNEL_PHASES[card]
    if s["phase"] not in phases:
        names = " or ".join(PHASE_NAMES[p] for p in sorted(phases))
        return f"The {card} can only be played in the {names} phase."
    return f"The {card} would have no effect now."


def _why_build(s: dict[str, Any], action: dict[str, Any]) -> str:
    player = s["players"][s["seat"]]
    built = s["turn"]["built"]
    if built >= MAX_BUILD_PER_TURN:
        return f"You may add at most {MAX_BUILD_PER_TURN} bricks per turn."
    if "tower" in action:
        i = _index(action, "tower")
        if i is None or not 0 <= i < len(player["towers"]):
            return "You have no such tower."
        color = player["towers"][i]["c"]
    else:
        color = COLOR_INDEX.get(_name(action, "color") or "", -1)
        if color < 0:
            return 'Say which tower to add to ("tower") or which colour to start ("color").'
    if not player["store"][color]:
        return f"You have no {COLORS[color]} brick in your storehouse."
    cost = max(0, BUILD_COST[built + 1] - build_discount(player, s["turn"]["mason"]))
    left = sum(player["store"]) - 1
    return (
        f"Building {built + 1} bricks this turn costs {cost}; you would have only {left} left "
        "in your storehouse to pay with."
    )


def _why_fulfil(s: dict[str, Any], action: dict[str, Any]) -> str:
    player = s["players"][s["seat"]]
    if player["seals"] == 0:
        return "You have no seals left, so you cannot fulfil more commissions."
    if campanile_blocks(s, s["seat"]):
        return "The Campanile stands: seal it with a white bell tower of 3 levels first."
    i, level = _index(action, "tower"), _index(action, "level")
    if i is None or not 0 <= i < len(player["towers"]):
        return "You have no such tower."
    tower = player["towers"][i]
    color = COLORS[tower["c"]]
    if level is None or not 3 <= level <= 8:
        return "Commissions run from level 3 to level 8."
    if level != tower["h"]:
        if s["turn"]["architect"] == 1 and abs(level - tower["h"]) == 1:
            pass
        elif s["turn"]["architect"] == 1:
            return f"The Architect changes a tower by one level only; yours has {tower['h']}."
        else:
            return (
                f"Your {color} tower has {tower['h']} levels; it cannot fulfil the {color} "
                f"{level} commission."
            )
    if s["board"][commission_index(tower["c"], level)] is not None:
        return f"The {color} {level} commission is already sealed."
    balcony = balcony_at(s, tower["c"], level)
    if balcony is not None and balcony != s["balcony_next"]:
        before = BALCONY_NUMERALS[s["balcony_next"]]
        return f"Balcony {BALCONY_NUMERALS[balcony]} can only be fulfilled after balcony {before}."
    return "That commission cannot be fulfilled now."
