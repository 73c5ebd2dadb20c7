"""Turning the engine's player_view and legal actions into what the game page draws.

Only player_view output reaches a template, so nothing hidden can leak into a page; this module
adds names, labels and grouping, and no game knowledge beyond reading the view.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games import rules
from games.rules.data import CARD_KIND, CARD_TEXT, COLORS

PHASES = [
    ("choose", "Choose a card"),
    ("exchange", "Exchange"),
    ("build", "Build"),
    ("fulfil", "Fulfil"),
    ("limits", "Limits"),
]
PENDING_PROMPTS = {
    "card_cost": "Pay for the card: one brick onto each card to its left.",
    "event": "Resolve the event, or cancel it with a Patrician.",
    "fire": "Storehouse Fire: choose the bricks that burn.",
    "botch": "Botch: choose the tower that loses a brick.",
    "collapse": "Collapse: choose the tower that falls.",
    "exchange_pay": "Exchange: pay the bricks onto the card.",
    "exchange_take": "Exchange: take one brick from the card.",
    "build_cost": "Pay the construction cost.",
    "alchemist_give": "Alchemist: choose a brick to give to the pouch.",
    "alchemist_take": "Alchemist: choose a brick to take from the pouch.",
    "smuggler_take": "Smuggler: choose a brick to take from another player.",
    "smuggler_give": "Smuggler: choose a brick to give back.",
    "saboteur": "Saboteur: choose another player's tower.",
    "wholesaler": "Wholesaler: choose a row card to trade its bricks.",
    "patrician": "Patrician: choose a card to discard.",
}
PHASE_PROMPTS = {
    "choose": "Choose a card from the row.",
    "exchange": "Exchange bricks with a row card, or go on to building.",
    "build": "Build towers: one brick at a time.",
    "fulfil": "Fulfil commissions with towers of the exact height.",
    "limits": "Discard down to your limits.",
}
LETTER = {c: c[0].upper() for c in COLORS}
LETTER["purple"] = "P"
LETTER["pink"] = "K"


@dataclass
class Choice:
    label: str
    action: dict[str, Any]
    color: str = ""
    detail: str = ""  # shown apart from the label, e.g. a card's price

    @property
    def payload(self) -> str:
        return json.dumps(self.action, separators=(",", ":"))


@dataclass
class ChoiceGroup:
    title: str
    choices: list[Choice] = field(default_factory=list)


def seal_marks(names: list[str]) -> list[str]:
    """What each seat's seals show: the initial, or more where two players share one.

    Seals are told apart by these letters as well as by colour ("Bot Greedy 2" and "Bot Greedy
    3" become B2 and B3, Anna and Alex An and Al).
    """
    initials = [(name.strip()[:1] or "?").upper() for name in names]
    marks = list(initials)
    for i, name in enumerate(names):
        if initials.count(initials[i]) == 1:
            continue
        words = name.split()
        if len(words) > 1:
            marks[i] = (words[0][:1] + words[-1][:1]).upper()
        else:
            marks[i] = name[:1].upper() + name[1:2].lower()
    return [f"{initials[i]}{i + 1}" if marks.count(m) > 1 else m for i, m in enumerate(marks)]


def bricks_list(bricks: dict[str, int]) -> list[dict[str, Any]]:
    return [{"color": c, "count": bricks[c], "letter": LETTER[c]} for c in COLORS if bricks.get(c)]


def _tower_name(view: dict[str, Any], seat: int, index: int) -> str:
    tower = view["players"][seat]["towers"][index]
    return f"{tower['color']} tower of {tower['height']}"


def label(view: dict[str, Any], action: dict[str, Any], names: list[str]) -> tuple[str, str]:
    """(group, label) for one legal action, in the words of the game."""
    kind = action["type"]
    me = view["acting_seat"]
    pending = (view["pending"] or {}).get("kind")
    if kind == "choose_card":
        card = view["row"][action["slot"]]
        return "Choose a card", f"Take {card['card']}"
    if kind == "pay_brick":
        where = {
            "card_cost": "onto the next card",
            "exchange_pay": "onto the card",
            "build_cost": "to the pouch",
            "fire": "to the fire",
            "alchemist_give": "to the pouch",
            "smuggler_give": "to the other player",
            None: "to the pouch",
        }.get(pending, "")
        return "Pay a brick", f"{action['color']} {where}".strip()
    if kind == "take_brick":
        if "seat" in action:
            return "Take a brick", f"{action['color']} from {names[action['seat']]}"
        return "Take a brick", action["color"]
    if kind == "resolve_event":
        return "Event", f"Resolve {view['event']['card']}" if view["event"] else "Resolve"
    if kind == "play_card":
        return "Play a card", f"Play {action['card']}"
    if kind == "pick_tower":
        seat = action.get("seat", me)
        owner = "" if seat == me else f"{names[seat]}'s "
        return "Choose a tower", owner + _tower_name(view, seat, action["tower"])
    if kind == "pick_slot":
        card = view["row"][action["slot"]]
        return "Choose a row card", f"{card['card']} ({sum(card['bricks'].values())} bricks)"
    if kind == "discard_card":
        return "Discard a card", f"Discard {action['card']}"
    if kind == "exchange":
        return "Exchange", f"Exchange with {view['row'][action['slot']]['card']}"
    if kind == "build":
        if "tower" in action:
            tower = view["players"][me]["towers"][action["tower"]]
            return "Build", f"{tower['color']} tower: {tower['height']} → {tower['height'] + 1}"
        return "Build", f"New {action['color']} tower"
    if kind == "fulfil":
        tower = view["players"][me]["towers"][action["tower"]]
        return "Fulfil", f"{tower['color']} {action['level']} with the tower of {tower['height']}"
    if kind == "seal_campanile":
        return "Fulfil", "Seal the Campanile with the bell tower"
    if kind == "end_phase":
        following = {
            "choose": "Go on",
            "exchange": "Done exchanging",
            "build": "Done building",
            "fulfil": "Done fulfilling",
        }
        return "Finish", following.get(view["phase"], "Go on")
    if kind == "end_turn":
        return "Finish", "End turn"
    return "Other", kind


def brick_color(view: dict[str, Any], action: dict[str, Any]) -> str:
    """The colour a button is about: a brick's, or that of the tower it builds on or picks."""
    if "color" in action:
        return action["color"]
    if "tower" in action:
        seat = action.get("seat", view["acting_seat"])
        return view["players"][seat]["towers"][action["tower"]]["color"]
    return ""


ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th"]


def detail(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A second line for a button: what taking a row card costs ("free", "2 bricks"), or which
    row card an exchange means (two copies of a card can lie in the row)."""
    if action["type"] == "choose_card":
        cost = view["row"][action["slot"]]["cost"]
        return "free" if cost == 0 else f"{cost} brick{'s' if cost > 1 else ''}"
    if action["type"] in ("exchange", "pick_slot"):
        return f"{ORDINALS[action['slot']]} card"
    return ""


def action_groups(
    view: dict[str, Any], legal: list[dict[str, Any]], names: list[str]
) -> list[ChoiceGroup]:
    groups: dict[str, ChoiceGroup] = {}
    for action in legal:
        group, text = label(view, action, names)
        groups.setdefault(group, ChoiceGroup(group)).choices.append(
            Choice(text, action, brick_color(view, action), detail(view, action))
        )
    finish = groups.pop("Finish", None)
    ordered = list(groups.values())
    if finish:
        ordered.append(finish)
    return ordered


def prompt(view: dict[str, Any]) -> str:
    if view["phase"] == "over":
        return "The game is over."
    pending = view["pending"]
    if pending:
        return PENDING_PROMPTS.get(pending["kind"], "")
    return PHASE_PROMPTS.get(view["phase"], "")


def board_towers(view: dict[str, Any], names: list[str], colours: list[str]) -> list[dict]:
    """The six commission towers, top level first, with seals, balconies and openness."""
    marks = seal_marks(names)
    following = view["board"]["balcony_next"]
    towers = {c: [] for c in COLORS}
    for square in view["board"]["commissions"]:
        seal = square["seal"]
        owner = None
        if isinstance(seal, int):
            owner = {"name": names[seal], "colour": colours[seal], "initial": marks[seal]}
        towers[square["color"]].append(
            {
                **square,
                "owner": owner,
                "next": bool(square["balcony"]) and square["balcony"] == following,
            }
        )
    return [
        {
            "color": c,
            "letter": LETTER[c],
            "bonus": view["board"]["majority_bonus"][c],
            "levels": sorted(towers[c], key=lambda sq: -sq["level"]),
        }
        for c in COLORS
    ]


def game_context(
    state: rules.State,
    viewer: int | None,
    names: list[str],
    colours: list[str],
    log: list[dict[str, Any]],
) -> dict[str, Any]:
    """Everything the board, panel and log partials need, from one seat's point of view."""
    view = rules.player_view(state, viewer)
    acting = view["acting_seat"]
    my_turn = viewer is not None and acting == viewer
    legal = rules.legal_actions(state) if my_turn else []
    totals = rules.scores(state)
    marks = seal_marks(names)
    players = []
    for p in view["players"]:
        seat = p["seat"]
        players.append(
            {
                **p,
                "name": names[seat],
                "colour": colours[seat],
                "initial": marks[seat],
                "seal_pips": range(p["seals_left"]),
                "is_me": seat == viewer,
                "is_acting": seat == acting,
                "store_bricks": bricks_list(p["store"]),
                "towers": [
                    {
                        **t,
                        "letter": LETTER[t["color"]],
                        # one entry per brick, bottom first: True for those added this turn
                        "stack": [i >= t["height"] - t["added"] for i in range(t["height"])],
                    }
                    for t in p["towers"]
                ],
                "score": totals[seat],
            }
        )
    me = players[viewer] if viewer is not None else None
    hand = (
        [{"card": c, "kind": CARD_KIND[c], "text": CARD_TEXT[c]} for c in me["hand"]] if me else []
    )
    final = view["final"]
    towers = board_towers(view, names, colours)
    return {
        "view": view,
        "my_turn": my_turn,
        "acting_name": names[acting] if acting is not None else None,
        "phase_steps": [{"key": k, "name": n, "current": k == view["phase"]} for k, n in PHASES],
        "prompt": prompt(view),
        "groups": action_groups(view, legal, names),
        "can_undo": my_turn and rules.can_undo(state),
        "players": players,
        "me": me,
        "hand": hand,
        "towers": towers,
        "next_balcony": next(
            ({**sq, "color": t["color"]} for t in towers for sq in t["levels"] if sq["next"]), None
        ),
        "levels": sorted({sq["level"] for t in towers for sq in t["levels"]}, reverse=True),
        "row": [
            {
                **r,
                "text": CARD_TEXT[r["card"]],
                "brick_list": bricks_list(r["bricks"]),
                "cost_tokens": range(r["cost"]),
            }
            for r in view["row"]
        ],
        "event": (
            {
                **view["event"],
                "text": CARD_TEXT[view["event"]["card"]],
                "brick_list": bricks_list(view["event"]["bricks"]),
            }
            if view["event"]
            else None
        ),
        "pouch": bricks_list(view["pouch"]),
        "church": [
            {**c, "text": CARD_TEXT[c["card"]], "sealed_names": [names[s] for s in c["sealed"]]}
            for c in view["church"]
        ],
        "log": log,
        "final": (
            [
                {**f, "name": names[i], "winner": i in final["winners"]}
                for i, f in enumerate(final["players"])
            ]
            if final
            else None
        ),
        "end_tile_holder": (
            names[view["board"]["end_tile"]] if view["board"]["end_tile"] is not None else None
        ),
    }
