"""Turning the engine's player_view and legal actions into what the game page draws.

Only player_view output (and the public changes stored with the moves) reaches a template, so
nothing hidden can leak into a page; this module adds names, labels, costs in words, grouping
and highlights, and no game knowledge beyond reading the view.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.utils.text import slugify

from firenze import rules
from firenze.rules.data import CARD_KIND, CARD_TEXT, COLORS
from firenze.rules.decisions import DECISIONS
from firenze.rules.words import ordinal, plural

PHASES = [
    ("choose", "Choose a card"),
    ("exchange", "Exchange"),
    ("build", "Build"),
    ("fulfil", "Fulfil"),
    ("limits", "Limits"),
]
PHASE_PROMPTS = {
    "choose": "Choose a card from the row. The leftmost is free; each card further right "
    "costs one brick more, paid onto the cards to its left.",
    "exchange": "Exchange: once a turn, pay {price} bricks onto a row card that has bricks and "
    "take one of those. Or go on to building.",
    "build": "Build towers, one brick at a time (at most 6 this turn).",
    "fulfil": "Fulfil commissions with towers of exactly their height.",
    "limits": "Check your limits.",
}
LETTER = {c: c[0].upper() for c in COLORS}
LETTER["purple"] = "P"
LETTER["pink"] = "K"


@cache
def card_anchor(card: str) -> str:
    """The card's section on the rules page (/rules/#card-major-privilege)."""
    return f"card-{slugify(card)}"


@dataclass
class Choice:
    label: str
    action: dict[str, Any]
    color: str = ""
    detail: str = ""  # shown apart from the label, e.g. a card's price
    bricks: list[dict[str, Any]] = field(default_factory=list)  # e.g. a row card's bricks

    @property
    def payload(self) -> str:
        return json.dumps(self.action, separators=(",", ":"))

    @property
    def title(self) -> str:
        return f"{self.label} ({self.detail})" if self.detail else self.label


@dataclass
class ChoiceGroup:
    title: str
    choices: list[Choice] = field(default_factory=list)


def seal_marks(names: list[str]) -> list[str]:
    """What each seat's seals show: the initial, or more where two players share one.

    Seals are told apart by these letters as well as by colour ("Bot Lorenzo" and "Bot
    Cosimo" become BL and BC, Anna and Alex An and Al).
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


def _row_card(view: dict[str, Any], slot: int) -> str:
    row = view["row"]
    return row[slot]["card"] if 0 <= slot < len(row) else "the card"


View = dict[str, Any]
Action = dict[str, Any]
END_PHASE = {
    "choose": "Go on",
    "exchange": "Done exchanging",
    "build": "Done building",
    "fulfil": "Done fulfilling",
}


def _pay_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    pending = view["pending"] or {}
    # Outside a decision a brick is paid over the storehouse limit: back to the pouch.
    to = DECISIONS[pending["kind"]].pay_to if pending else "to the pouch"
    where = to.format(
        onto_card=_row_card(view, pending.get("onto", 0)),
        slot_card=_row_card(view, pending.get("slot", 0)),
    )
    return "Pay a brick", f"{action['color']} {where}".strip()


def _take_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    if "seat" in action:
        return "Take a brick", f"{action['color']} from {names[action['seat']]}"
    return "Take a brick", action["color"]


def _pick_tower_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    me = view["acting_seat"]
    seat = action.get("seat", me)
    owner = "" if seat == me else f"{names[seat]}'s "
    return "Choose a tower", owner + _tower_name(view, seat, action["tower"])


def _pick_slot_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    card = view["row"][action["slot"]]
    return "Choose a row card", f"{card['card']} ({sum(card['bricks'].values())} bricks)"


def _build_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    if "tower" in action:
        tower = view["players"][view["acting_seat"]]["towers"][action["tower"]]
        return "Build", f"{tower['color']} tower: {tower['height']} → {tower['height'] + 1}"
    return "Build", f"New {action['color']} tower"


def _fulfil_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    tower = view["players"][view["acting_seat"]]["towers"][action["tower"]]
    return "Fulfil", f"{tower['color']} {action['level']} with the tower of {tower['height']}"


def _event_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    return "Event", f"Resolve {view['event']['card']}" if view["event"] else "Resolve"


# (group, label) of each action type, in the words of the game.
LABELS: dict[str, Any] = {
    "choose_card": lambda v, a, n: ("Choose a card", f"Take {v['row'][a['slot']]['card']}"),
    "pay_brick": _pay_label,
    "take_brick": _take_label,
    "resolve_event": _event_label,
    "play_card": lambda v, a, n: ("Play a card", f"Play {a['card']}"),
    "pick_tower": _pick_tower_label,
    "pick_slot": _pick_slot_label,
    "discard_card": lambda v, a, n: ("Discard a card", f"Discard {a['card']}"),
    "exchange": lambda v, a, n: ("Exchange", f"Exchange with {v['row'][a['slot']]['card']}"),
    "build": _build_label,
    "fulfil": _fulfil_label,
    "seal_campanile": lambda v, a, n: ("Fulfil", "Seal the Campanile with the bell tower"),
    "end_phase": lambda v, a, n: ("Finish", END_PHASE.get(v["phase"], "Go on")),
    "end_turn": lambda v, a, n: ("Finish", "End turn"),
}


def label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    """(group, label) for one legal action, in the words of the game."""
    labeller = LABELS.get(action["type"])
    return labeller(view, action, names) if labeller else ("Other", action["type"])


def brick_color(view: dict[str, Any], action: dict[str, Any]) -> str:
    """The colour a button is about: a brick's, or that of the tower it builds on or picks."""
    if "color" in action:
        return action["color"]
    if "tower" in action:
        seat = action.get("seat", view["acting_seat"])
        return view["players"][seat]["towers"][action["tower"]]["color"]
    return ""


def _bricks(count: int) -> str:
    return plural(count, "brick")


def build_detail(view: dict[str, Any]) -> str:
    """What one more brick costs: "3rd brick this turn: cost 0 → 1"."""
    turn = view["turn"]
    built, costs = turn["built"], turn["build_costs"]
    now, then = costs[built], costs[built + 1]
    which = f"{ordinal(built + 1)} brick this turn"
    if then == now:
        return f"{which}: no extra cost" if now else f"{which}: free"
    return f"{which}: cost {now} → {then}"


def detail(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A second line for a button: what it costs ("free", "2 bricks", "cost 1 → 3"), or which
    row card it means (two copies of a card can lie in the row)."""
    kind = action["type"]
    if kind == "choose_card":
        cost = view["row"][action["slot"]]["cost"]
        return "free" if cost == 0 else _bricks(cost)
    if kind == "exchange":
        return f"{ordinal(action['slot'] + 1)} card · pay {view['turn']['exchange_price']}, take 1"
    if kind == "pick_slot":
        return f"{ordinal(action['slot'] + 1)} card"
    if kind == "build" and view["turn"]["built"] < len(view["turn"]["build_costs"]) - 1:
        return build_detail(view)
    if kind == "end_phase" and view["phase"] == "build" and view["turn"]["build_cost"]:
        return f"pay {_bricks(view['turn']['build_cost'])}"
    return ""


def _choice(view: dict[str, Any], action: dict[str, Any], names: list[str]) -> Choice:
    _, text = label(view, action, names)
    bricks = []
    if action["type"] in ("choose_card", "exchange", "pick_slot"):
        bricks = bricks_list(view["row"][action["slot"]]["bricks"])
    return Choice(text, action, brick_color(view, action), detail(view, action), bricks)


def action_groups(
    view: dict[str, Any], legal: list[dict[str, Any]], names: list[str]
) -> list[ChoiceGroup]:
    groups: dict[str, ChoiceGroup] = {}
    for action in legal:
        group, _ = label(view, action, names)
        groups.setdefault(group, ChoiceGroup(group)).choices.append(_choice(view, action, names))
    finish = groups.pop("Finish", None)
    ordered = list(groups.values())
    if finish:
        ordered.append(finish)
    return ordered


def board_choices(
    view: dict[str, Any], legal: list[dict[str, Any]], names: list[str]
) -> dict[str, dict[Any, Choice]]:
    """The legal actions the board's own pieces stand for, so the board can be clicked: a row
    card, a brick on it, a commission square, a tower, a storehouse brick, a pouch brick, the
    Campanile. The side panel offers the same actions (and every other one) as buttons."""
    me = view["acting_seat"]
    towers = view["players"][me]["towers"] if me is not None else []
    pending = view["pending"] or {}
    found: dict[str, dict[Any, Choice]] = {
        "row": {},
        "row_bricks": {},
        "squares": {},
        "towers": {},
        "store": {},
        "pouch": {},
        "church": {},
    }
    for action in legal:
        kind, choice = action["type"], _choice(view, action, names)
        if kind in ("choose_card", "exchange", "pick_slot"):
            found["row"][action["slot"]] = choice
        elif kind in ("pay_brick", "build") and "color" in action:
            found["store"][(me, action["color"])] = choice
        elif kind in ("build", "pick_tower"):
            found["towers"][(action.get("seat", me), action["tower"])] = choice
        elif kind == "take_brick" and "seat" in action:
            found["store"][(action["seat"], action["color"])] = choice
        elif kind == "take_brick" and pending.get("kind") == "exchange_take":
            found["row_bricks"][(pending["slot"], action["color"])] = choice
        elif kind == "take_brick":
            found["pouch"][action["color"]] = choice
        elif kind == "fulfil":
            tower = towers[action["tower"]]
            key = (tower["color"], action["level"])
            # Where two towers could fulfil a square, a click takes the exact height.
            if key not in found["squares"] or tower["height"] == action["level"]:
                found["squares"][key] = choice
        elif kind == "seal_campanile":
            found["church"]["Campanile"] = choice
    return found


# --- what the panel says -------------------------------------------------------------------


def prompt(view: dict[str, Any]) -> str:
    if view["phase"] == "over":
        return "The game is over."
    pending = view["pending"]
    if pending:
        return DECISIONS[pending["kind"]].ask
    return PHASE_PROMPTS.get(view["phase"], "").format(price=view["turn"]["exchange_price"])


def payment(view: dict[str, Any]) -> dict[str, Any] | None:
    """A payment in progress: what it is for, "2 of 3 paid", and the bricks paid so far."""
    pending = view["pending"]
    if not pending or "due" not in pending:
        return None
    kind, due, paid = pending["kind"], pending["due"], pending.get("paid", [])
    what = {
        "card_cost": f"Pay for {_row_card(view, pending.get('slot', 0))}: one brick onto each "
        "card to its left.",
        "exchange_pay": f"Exchange with {_row_card(view, pending.get('slot', 0))}: pay "
        f"{_bricks(due)} onto it, then take one of the bricks that lay on it.",
        "build_cost": f"Construction cost for {_bricks(view['turn']['built'])} this turn: "
        f"{_bricks(due)} to the pouch.",
        "fire": f"Storehouse Fire: {_bricks(due)} of your choice burn.",
    }.get(kind, "")
    word = "burnt" if kind == "fire" else "paid"
    progress = f"{len(paid)} of {due} {word}"
    if kind == "card_cost" and len(paid) < due:
        progress += f"; the next brick goes onto {_row_card(view, pending['onto'])}"
    return {
        "what": what,
        "progress": progress,
        "paid": [{"color": c, "letter": LETTER[c]} for c in paid],
        "left": range(due - len(paid)),
    }


def build_costs(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The construction cost table during the build phase, with this player's discounts."""
    if view["phase"] != "build" or view["pending"]:
        return None
    costs, built = view["turn"]["build_costs"], view["turn"]["built"]
    return [
        {"bricks": n, "cost": costs[n], "now": n == built, "next": n == built + 1}
        for n in range(1, len(costs))
    ]


def limits(view: dict[str, Any]) -> list[str]:
    """What the limits phase asks: how many bricks to return, cards to discard."""
    if view["phase"] != "limits" or view["acting_seat"] is None:
        return []
    me = view["players"][view["acting_seat"]]
    lines = []
    over = me["store_count"] - me["store_limit"]
    if over > 0:
        lines.append(
            f"Storehouse {me['store_count']} of {me['store_limit']}: return {_bricks(over)} "
            "of your choice to the pouch."
        )
    limit = me["card_limit"]
    if limit is not None and me["card_count"] > limit:
        lines.append(
            f"Cards {me['card_count']} of {limit}: discard personnel or buildings down to "
            f"{limit} (celebrations stay)."
        )
    return lines


def _closed_words(color: str, level: dict[str, Any], names: list[str]) -> str:
    why = level["why"]
    if why == "below":
        return f"{level['level']} is below the lowest commission (3)"
    if why == "above":
        return f"{level['level']} is above the highest commission (8)"
    if why == "sealed":
        seat = level["seat"]
        by = "a neutral seal" if seat < 0 else names[seat]
        return f"{color} {level['level']} is sealed by {by}"
    later = level["balcony_next"]
    return (
        f"{color} {level['level']} is balcony {level['balcony']}, which comes after balcony {later}"
    )


def fulfil_blocked(view: dict[str, Any], names: list[str]) -> str:
    """Why nothing can be fulfilled this turn, in words ("" when something can)."""
    blocked = view["turn"].get("fulfil_blocked")
    if not blocked:
        return ""
    reason = blocked["reason"]
    if reason == "no_seals":
        return "Nothing to fulfil: you have no seals left."
    if reason == "campanile":
        return (
            "Nothing to fulfil: the Campanile stands, and you must first seal it with a white "
            "tower of exactly 3 levels."
        )
    if reason == "no_towers":
        return "Nothing to fulfil: you have no towers."
    parts = []
    for tower in blocked["towers"]:
        color, height = tower["color"], tower["height"]
        reasons = "; ".join(_closed_words(color, lv, names) for lv in tower["levels"])
        if blocked["architect"]:
            parts.append(f"your {color} tower of {height} (±1 with the Architect): {reasons}")
        else:
            parts.append(f"your {color} tower of {height}: {reasons}")
    return (
        "Nothing to fulfil: no tower of yours is exactly as high as an open commission of its "
        "colour — " + "; ".join(parts) + "."
    )


# --- the board -----------------------------------------------------------------------------


@dataclass
class Highlights:
    """What the last turn changed (the turn in progress, or the one just ended if the current
    one has no step yet), from the public changes stored with its moves."""

    seat: int | None = None
    squares: set[tuple[str, int]] = field(default_factory=set)
    row: set[int] = field(default_factory=set)
    towers: set[tuple[int, int]] = field(default_factory=set)  # the last step's only
    stores: set[int] = field(default_factory=set)
    pp: dict[int, int] = field(default_factory=dict)
    pouch: bool = False
    church: bool = False

    @property
    def any(self) -> bool:
        return bool(self.squares or self.row or self.towers or self.stores or self.pp)


def highlights(moves: list[Any], turn_no: int) -> Highlights:
    """``moves``: the moves loaded for the log, oldest first (with turn, seat, changes)."""
    current = [m for m in moves if m.turn == turn_no]
    shown = current or [m for m in moves if m.turn == turn_no - 1]
    found = Highlights(seat=shown[-1].seat if shown else None)
    for move in shown:
        changes = move.changes or {}
        found.squares.update((c, lv) for c, lv in changes.get("sealed", []))
        found.row.update(changes.get("row", []))
        found.pouch = found.pouch or changes.get("pouch", False)
        found.church = found.church or changes.get("church", False)
        for seat, entry in changes.get("players", {}).items():
            seat = int(seat)
            if entry.get("store"):
                found.stores.add(seat)
            if entry.get("pp"):
                found.pp[seat] = found.pp.get(seat, 0) + entry["pp"]
    if shown:
        for seat, entry in (shown[-1].changes or {}).get("players", {}).items():
            found.towers.update((int(seat), i) for i in entry.get("towers", []))
    return found


def board_towers(
    view: dict[str, Any],
    names: list[str],
    colours: list[str],
    lit: Highlights,
    squares: dict[Any, Choice],
) -> list[dict]:
    """The six commission towers, top level first, with seals, balconies and openness."""
    marks = seal_marks(names)
    following = view["board"]["balcony_next"]
    towers = {c: [] for c in COLORS}
    for square in view["board"]["commissions"]:
        towers[square["color"]].append(
            _storey(square, following, names, colours, marks, lit, squares)
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


def _storey(
    square: dict[str, Any],
    following: str | None,
    names: list[str],
    colours: list[str],
    marks: list[str],
    lit: Highlights,
    squares: dict[Any, Choice],
) -> dict[str, Any]:
    """One commission square, its classes, tooltip and screen-reader text worked out here:
    the board is drawn for every new version, and a template is slow at string logic."""
    color, level, pp, seal, balcony = (
        square["color"],
        square["level"],
        square["pp"],
        square["seal"],
        square["balcony"],
    )
    key = (color, level)
    is_next = bool(balcony) and balcony == following
    changed = key in lit.squares
    choice = squares.get(key)
    css = ["storey"]
    words = [f"{pp} PP"]
    if square["open"]:
        css.append("open")
    if balcony:
        css.append("balcony next" if is_next else "balcony")
        later = " (next)" if is_next else f" (after balcony {following})" if seal is None else ""
        words.append(f"balcony {balcony}{later}")
    mark = mark_colour = ""
    if seal == "neutral":
        css.append("sealed")
        words.append("neutral seal")
        mark, mark_colour = "N", "neutral"
    elif isinstance(seal, int):
        css.append("sealed")
        words.append(f"sealed by {names[seal]}")
        mark, mark_colour = marks[seal], colours[seal]
    if changed:
        css.append("changed")
    if choice:
        css.append("playable")
    text = ", ".join(words)
    return {
        "level": level,
        "pp": pp,
        "balcony": balcony,
        "css": " ".join(css),
        "title": f"{color} {level}: {text}" + (" (last turn)" if changed else ""),
        "label": f"level {level}, {text}" + (", sealed last turn" if changed else ""),
        "mark": mark,
        "mark_colour": mark_colour,
        "next": is_next,
        "changed": changed,
        "choice": choice,
    }


def _row(view: dict[str, Any], lit: Highlights, found: dict[str, dict]) -> list[dict]:
    pending = view["pending"] or {}
    target = pending.get("slot") if pending.get("kind") in ("card_cost", "exchange_pay") else None
    if pending.get("kind") == "exchange_take":
        target = pending["slot"]
    receiving = pending.get("onto") if pending.get("kind") == "card_cost" else None
    row = []
    for r in view["row"]:
        slot = r["slot"]
        row.append(
            {
                **r,
                "text": CARD_TEXT[r["card"]],
                "anchor": card_anchor(r["card"]),
                "brick_list": [
                    {**b, "choice": found["row_bricks"].get((slot, b["color"]))}
                    for b in bricks_list(r["bricks"])
                ],
                "cost_tokens": range(r["cost"]),
                "choice": found["row"].get(slot),
                "target": slot == target,
                "receiving": slot == receiving,
                "changed": slot in lit.row,
            }
        )
    return row


def _players(
    view: dict[str, Any],
    viewer: int | None,
    names: list[str],
    colours: list[str],
    lit: Highlights,
    found: dict[str, dict],
    totals: list[int],
) -> list[dict[str, Any]]:
    acting = view["acting_seat"]
    marks = seal_marks(names)
    players = []
    for p in view["players"]:
        seat = p["seat"]
        # Bricks laid in the turn shown: the acting player's, or those of the turn just ended.
        marks_new = seat == acting or seat == lit.seat
        players.append(
            {
                **p,
                "name": names[seat],
                "colour": colours[seat],
                "initial": marks[seat],
                "seal_pips": range(p["seals_left"]),
                "is_me": seat == viewer,
                "is_acting": seat == acting,
                "store_bricks": [
                    {**b, "choice": found["store"].get((seat, b["color"]))}
                    for b in bricks_list(p["store"])
                ],
                "store_changed": seat in lit.stores,
                "pp_change": lit.pp.get(seat, 0),
                "towers": [
                    {
                        **t,
                        "letter": LETTER[t["color"]],
                        # one entry per brick, bottom first: True for those added this turn
                        "stack": [
                            marks_new and i >= t["height"] - t["added"] for i in range(t["height"])
                        ],
                        "building": seat == acting and t["added"] > 0,
                        "changed": (seat, i) in lit.towers,
                        "choice": found["towers"].get((seat, i)),
                    }
                    for i, t in enumerate(p["towers"])
                ],
                "score": totals[seat],
            }
        )
    return players


def game_context(
    state: rules.State,
    viewer: int | None,
    names: list[str],
    colours: list[str],
    moves: list[Any],
) -> dict[str, Any]:
    """Everything the board, panel and players partials need, from one seat's point of view.
    ``moves``: the moves loaded for the log (oldest first); their stored changes light up
    what the last turn did."""
    view = rules.player_view(state, viewer)
    acting = view["acting_seat"]
    my_turn = viewer is not None and acting == viewer
    legal = rules.legal_actions(state) if my_turn else []
    found = board_choices(view, legal, names)
    lit = highlights(moves, view["turn_no"])
    players = _players(view, viewer, names, colours, lit, found, rules.scores(state))
    me = players[viewer] if viewer is not None else None
    hand = (
        [
            {"card": c, "kind": CARD_KIND[c], "text": CARD_TEXT[c], "anchor": card_anchor(c)}
            for c in me["hand"]
        ]
        if me
        else []
    )
    towers = board_towers(view, names, colours, lit, found["squares"])
    return {
        "view": view,
        "my_turn": my_turn,
        "acting_name": names[acting] if acting is not None else None,
        "phase_steps": [{"key": k, "name": n, "current": k == view["phase"]} for k, n in PHASES],
        "prompt": prompt(view),
        "payment": payment(view) if my_turn else None,
        "build_costs": build_costs(view) if my_turn else None,
        "limits": limits(view) if my_turn else [],
        "fulfil_blocked": fulfil_blocked(view, names) if my_turn else "",
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
        "row": _row(view, lit, found),
        "event": (
            {
                **view["event"],
                "text": CARD_TEXT[view["event"]["card"]],
                "anchor": card_anchor(view["event"]["card"]),
                "brick_list": bricks_list(view["event"]["bricks"]),
            }
            if view["event"]
            else None
        ),
        "pouch": [
            {**b, "choice": found["pouch"].get(b["color"])} for b in bricks_list(view["pouch"])
        ],
        "pouch_changed": lit.pouch,
        "church": [
            {
                **c,
                "text": CARD_TEXT[c["card"]],
                "anchor": card_anchor(c["card"]),
                "sealed_names": [names[s] for s in c["sealed"]],
                "choice": found["church"].get(c["card"]),
            }
            for c in view["church"]
        ],
        "church_changed": lit.church,
        # The engine's final scoring per seat, for the score breakdown (games/scoresheet.py);
        # the ranking with places and resignations is games.results.standings.
        "final": (
            [
                {**f, "name": names[i], "winner": i in view["final"]["winners"]}
                for i, f in enumerate(view["final"]["players"])
            ]
            if view["final"]
            else None
        ),
        "highlight_name": names[lit.seat] if lit.seat is not None and lit.any else None,
        "end_tile_holder": (
            names[view["board"]["end_tile"]] if view["board"]["end_tile"] is not None else None
        ),
    }


def replay_hands(state: rules.State, names: list[str]) -> list[dict[str, Any]]:
    """Every player's hand, face up, for the replay of a finished game (never during play)."""
    return [
        {
            "name": names[i],
            "seat": i,
            "cards": [
                {"card": c, "kind": CARD_KIND[c], "text": CARD_TEXT[c]} for c in sorted(p["hand"])
            ],
        }
        for i, p in enumerate(rules.to_dict(state)["players"])
    ]
