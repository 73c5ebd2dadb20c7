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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.rules.firenze import rules, since_words
from games.rules.firenze.card_texts import card_help, card_text
from games.rules.firenze.rules.cards import CARDS
from games.rules.firenze.rules.data import COLORS
from games.rules.firenze.rules.decisions import DECISIONS
from games.rules.firenze.wording import card_name, colour_name
from games.rules.protocol import Seen
from games.rules.wording import ordinal

# The words of the game page, marked for translation (German in locale/de): the engine gives
# keys ("build", "botch"), these name them.
PHASES = [
    ("choose", gettext_lazy("Choose a card")),
    ("exchange", gettext_lazy("Exchange")),
    ("build", gettext_lazy("Build")),
    ("fulfil", gettext_lazy("Fulfil")),
    ("limits", gettext_lazy("Limits")),
]
PHASE_PROMPTS = {
    "choose": gettext_lazy(
        "Choose a card from the row. The leftmost is free; each card further right "
        "costs one brick more, paid onto the cards to its left."
    ),
    "exchange": gettext_lazy(
        "Exchange: once a turn, pay %(price)s bricks onto a row card that has bricks and "
        "take one of those. Or go on to building."
    ),
    "build": gettext_lazy("Build towers, one brick at a time (at most 6 this turn)."),
    "fulfil": gettext_lazy("Fulfil commissions with towers of exactly their height."),
    "limits": gettext_lazy("Check your limits."),
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
    is_finish: bool = False  # ends a phase or the turn: drawn last, apart


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


def tower_words(color: str, height: int) -> str:
    """ "blue tower of 3": German "Turm (blau, 3)" needs no declension of the colour."""
    return _("%(colour)s tower of %(height)s") % {"colour": colour_name(color), "height": height}


def _tower_name(view: dict[str, Any], seat: int, index: int) -> str:
    tower = view["players"][seat]["towers"][index]
    return tower_words(tower["color"], tower["height"])


def _row_card(view: dict[str, Any], slot: int) -> str:
    row = view["row"]
    return card_name(row[slot]["card"]) if 0 <= slot < len(row) else _("the card")


View = dict[str, Any]
Action = dict[str, Any]
_SLOT_ACTIONS = ("choose_card", "exchange", "pick_slot")  # actions on a row card
END_PHASE = {
    "choose": gettext_lazy("Go on"),
    "exchange": gettext_lazy("Done exchanging"),
    "build": gettext_lazy("Done building"),
    "fulfil": gettext_lazy("Done fulfilling"),
}


def _pay_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    pending = view["pending"] or {}
    where = {
        "card_cost": _("onto %(card)s") % {"card": _row_card(view, pending.get("onto", 0))},
        "exchange_pay": _("onto %(card)s") % {"card": _row_card(view, pending.get("slot", 0))},
        "build_cost": _("to the pouch"),
        "fire": _("to the fire"),
        "alchemist_give": _("to the pouch"),
        "smuggler_give": _("to the other player"),
        None: _("to the pouch"),  # outside a decision: a brick over the storehouse limit
    }.get(pending.get("kind"), "")
    return _("Pay a brick"), f"{colour_name(action['color'])} {where}".strip()


def _take_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    if "seat" in action:
        words = {"colour": colour_name(action["color"]), "name": names[action["seat"]]}
        return _("Take a brick"), _("%(colour)s from %(name)s") % words
    return _("Take a brick"), colour_name(action["color"])


def _pick_tower_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    me = view["acting_seat"]
    seat = int(action["seat"] if "seat" in action else me)  # noqa: SIM401 - typed
    tower = _tower_name(view, seat, action["tower"])
    if seat != me:
        tower = _("%(name)s's %(tower)s") % {"name": names[seat], "tower": tower}
    return _("Choose a tower"), tower


def _pick_slot_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    card = view["row"][action["slot"]]
    count = sum(card["bricks"].values())
    return _("Choose a row card"), f"{card_name(card['card'])} ({_bricks(count)})"


def _build_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    if "tower" in action:
        tower = view["players"][view["acting_seat"]]["towers"][action["tower"]]
        words = {
            "colour": colour_name(tower["color"]),
            "height": tower["height"],
            "next": tower["height"] + 1,
        }
        return _("Build"), _("%(colour)s tower: %(height)s → %(next)s") % words
    return _("Build"), _("New %(colour)s tower") % {"colour": colour_name(action["color"])}


def _fulfil_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    tower = view["players"][view["acting_seat"]]["towers"][action["tower"]]
    words = {
        "colour": colour_name(tower["color"]),
        "level": action["level"],
        "height": tower["height"],
    }
    return _("Fulfil"), _("%(colour)s %(level)s with the tower of %(height)s") % words


def _event_label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    if not view["event"]:
        return _("Event"), _("Resolve")
    return _("Event"), _("Resolve %(card)s") % {"card": card_name(view["event"]["card"])}


def _card_label(verb: Any) -> Any:
    """A label naming the card of the action (play, discard)."""
    return lambda v, a, n: (str(verb[0]), str(verb[1]) % {"card": card_name(a["card"])})


def FINISH() -> str:  # noqa: N802 (reads as the group's name)
    """The group of the buttons that end a phase or the turn: drawn last."""
    return _("Finish")


# (group, label) of each action type, in the words of the game (translated when drawn).
LABELS: dict[str, Any] = {
    "choose_card": lambda v, a, n: (
        _("Choose a card"),
        _("Take %(card)s") % {"card": card_name(v["row"][a["slot"]]["card"])},
    ),
    "pay_brick": _pay_label,
    "take_brick": _take_label,
    "resolve_event": _event_label,
    "play_card": _card_label((gettext_lazy("Play a card"), gettext_lazy("Play %(card)s"))),
    "pick_tower": _pick_tower_label,
    "pick_slot": _pick_slot_label,
    "discard_card": _card_label((gettext_lazy("Discard a card"), gettext_lazy("Discard %(card)s"))),
    "exchange": lambda v, a, n: (
        _("Exchange"),
        _("Exchange with %(card)s") % {"card": card_name(v["row"][a["slot"]]["card"])},
    ),
    "build": _build_label,
    "fulfil": _fulfil_label,
    "seal_campanile": lambda v, a, n: (_("Fulfil"), _("Seal the Campanile with the bell tower")),
    "end_phase": lambda v, a, n: (FINISH(), str(END_PHASE.get(v["phase"], _("Go on")))),
    "end_turn": lambda v, a, n: (FINISH(), _("End turn")),
}


def label(view: View, action: Action, names: list[str]) -> tuple[str, str]:
    """(group, label) for one legal action, in the words of the game."""
    labeller = LABELS.get(action["type"])
    return labeller(view, action, names) if labeller else (_("Other"), action["type"])


def brick_color(view: dict[str, Any], action: dict[str, Any]) -> str:
    """The colour a button is about: a brick's, or that of the tower it builds on or picks."""
    if "color" in action:
        return str(action["color"])
    if "tower" in action:
        seat = action.get("seat", view["acting_seat"])
        return str(view["players"][seat]["towers"][action["tower"]]["color"])
    return ""


def _bricks(count: int) -> str:
    return ngettext("%(count)s brick", "%(count)s bricks", count) % {"count": count}


def build_detail(view: dict[str, Any]) -> str:
    """What one more brick costs: "3rd brick this turn: cost 0 → 1"."""
    turn = view["turn"]
    built, costs = turn["built"], turn["build_costs"]
    now, then = costs[built], costs[built + 1]
    which = _("%(ordinal)s brick this turn") % {"ordinal": ordinal(built + 1)}
    if then == now:
        return (
            _("%(which)s: no extra cost") % {"which": which}
            if now
            else _("%(which)s: free") % {"which": which}
        )
    return _("%(which)s: cost %(now)s → %(then)s") % {"which": which, "now": now, "then": then}


def detail(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A second line for a button: what it costs ("free", "2 bricks", "cost 1 → 3"), or which
    row card it means (two copies of a card can lie in the row)."""
    kind = action["type"]
    if kind == "choose_card":
        cost = view["row"][action["slot"]]["cost"]
        return _("free") if cost == 0 else _bricks(cost)
    if kind == "exchange":
        words = {"ordinal": ordinal(action["slot"] + 1), "price": view["turn"]["exchange_price"]}
        return _("%(ordinal)s card · pay %(price)s, take 1") % words
    if kind == "pick_slot":
        return _("%(ordinal)s card") % {"ordinal": ordinal(action["slot"] + 1)}
    if kind == "build" and view["turn"]["built"] < len(view["turn"]["build_costs"]) - 1:
        return build_detail(view)
    if kind == "end_phase" and view["phase"] == "build" and view["turn"]["build_cost"]:
        return _("pay %(bricks)s") % {"bricks": _bricks(view["turn"]["build_cost"])}
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
    finish = groups.pop(FINISH(), None)
    ordered = list(groups.values())
    if finish:
        finish.is_finish = True
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
        return _("The game is over.")
    pending = view["pending"]
    if pending:
        # The registry's English question; its translation is in the catalogue (the engine marks
        # it with gettext_noop, which xgettext reads without Django).
        ask = DECISIONS[pending["kind"]].ask
        return _(ask) if ask else ""
    text = PHASE_PROMPTS.get(view["phase"])
    return str(text) % {"price": view["turn"]["exchange_price"]} if text else ""


def payment(view: dict[str, Any]) -> dict[str, Any] | None:
    """A payment in progress: what it is for, "2 of 3 paid", and the bricks paid so far."""
    pending = view["pending"]
    if not pending or "due" not in pending:
        return None
    kind, due, paid = pending["kind"], pending["due"], pending.get("paid", [])
    words = {
        "card": _row_card(view, pending.get("slot", 0)),
        "due": _bricks(due),
        "built": _bricks(view["turn"]["built"]),
    }
    what = {
        "card_cost": _("Pay for %(card)s: one brick onto each card to its left."),
        "exchange_pay": _(
            "Exchange with %(card)s: pay %(due)s onto it, then take one of the bricks that lay "
            "on it."
        ),
        "build_cost": _("Construction cost for %(built)s this turn: %(due)s to the pouch."),
        "fire": _("Storehouse Fire: %(due)s of your choice burn."),
    }.get(kind, "")
    what = what % words if what else ""
    counts = {"paid": len(paid), "due": due}
    progress = (
        _("%(paid)s of %(due)s burnt") if kind == "fire" else _("%(paid)s of %(due)s paid")
    ) % counts
    if kind == "card_cost" and len(paid) < due:
        progress += "; " + _("the next brick goes onto %(card)s") % {
            "card": _row_card(view, pending["onto"])
        }
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
        words = {"count": me["store_count"], "limit": me["store_limit"], "over": _bricks(over)}
        lines.append(
            _("Storehouse %(count)s of %(limit)s: return %(over)s of your choice to the pouch.")
            % words
        )
    limit = me["card_limit"]
    if limit is not None and me["card_count"] > limit:
        lines.append(
            _(
                "Cards %(count)s of %(limit)s: discard personnel or buildings down to %(limit)s "
                "(celebrations stay)."
            )
            % {"count": me["card_count"], "limit": limit}
        )
    return lines


def _closed_words(color: str, level: dict[str, Any], names: list[str]) -> str:
    why = level["why"]
    words = {"colour": colour_name(color), "level": level["level"]}
    if why == "below":
        return _("%(level)s is below the lowest commission (3)") % words
    if why == "above":
        return _("%(level)s is above the highest commission (8)") % words
    if why == "sealed":
        seat = level["seat"]
        words["by"] = _("a neutral seal") if seat < 0 else names[seat]
        return _("%(colour)s %(level)s is sealed by %(by)s") % words
    words.update(balcony=level["balcony"], later=level["balcony_next"])
    return _("%(colour)s %(level)s is balcony %(balcony)s, which comes after balcony %(later)s") % (
        words
    )


def fulfil_blocked(view: dict[str, Any], names: list[str]) -> str:
    """Why nothing can be fulfilled this turn, in words ("" when something can)."""
    blocked = view["turn"].get("fulfil_blocked")
    if not blocked:
        return ""
    reason = blocked["reason"]
    if reason == "no_seals":
        return _("Nothing to fulfil: you have no seals left.")
    if reason == "campanile":
        return _(
            "Nothing to fulfil: the Campanile stands, and you must first seal it with a white "
            "tower of exactly 3 levels."
        )
    if reason == "no_towers":
        return _("Nothing to fulfil: no tower stands on your construction site.")
    parts = []
    for tower in blocked["towers"]:
        color, height = tower["color"], tower["height"]
        reasons = "; ".join(_closed_words(color, lv, names) for lv in tower["levels"])
        words = {"tower": tower_words(color, height), "reasons": reasons}
        if blocked["architect"]:
            parts.append(_("your %(tower)s (±1 with the Architect): %(reasons)s") % words)
        else:
            parts.append(_("your %(tower)s: %(reasons)s") % words)
    return _(
        "Nothing to fulfil: no tower of yours is exactly as high as an open commission of its "
        "colour — %(parts)s."
    ) % {"parts": "; ".join(parts)}


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
) -> list[dict[str, Any]]:
    """The six commission towers, top level first, with seals, balconies and openness."""
    marks = seal_marks(names)
    following = view["board"]["balcony_next"]
    towers: dict[str, list[dict[str, Any]]] = {c: [] for c in COLORS}
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
    words = [_("%(pp)s PP") % {"pp": pp}]
    if square["open"]:
        css.append("open")
    if balcony:
        css.append("balcony next" if is_next else "balcony")
        if is_next:
            words.append(_("balcony %(number)s (next)") % {"number": balcony})
        elif seal is None:
            words.append(
                _("balcony %(number)s (after balcony %(before)s)")
                % {"number": balcony, "before": following}
            )
        else:
            words.append(_("balcony %(number)s") % {"number": balcony})
    mark = mark_colour = ""
    if seal == "neutral":
        css.append("sealed")
        words.append(_("neutral seal"))
        mark, mark_colour = "N", "neutral"
    elif isinstance(seal, int):
        css.append("sealed")
        words.append(_("sealed by %(name)s") % {"name": names[seal]})
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
        "title": f"{colour_name(color)} {level}: {text}"
        + (" " + _("(last turn)") if changed else ""),
        "label": _("level %(level)s, %(text)s") % {"level": level, "text": text}
        + (", " + _("sealed last turn") if changed else ""),
        "mark": mark,
        "mark_colour": mark_colour,
        "next": is_next,
        "changed": changed,
        "choice": choice,
    }


def _row(
    view: dict[str, Any], lit: Highlights, found: dict[str, dict[Any, Choice]]
) -> list[dict[str, Any]]:
    pending = view["pending"] or {}
    target = pending.get("slot") if pending.get("kind") in ("card_cost", "exchange_pay") else None
    if pending.get("kind") == "exchange_take":
        target = pending["slot"]
    receiving = pending.get("onto") if pending.get("kind") == "card_cost" else None
    row = []
    guessed = set(view.get("guessed", ()))
    for r in view["row"]:
        slot = r["slot"]
        if slot in guessed:  # drawn from a sandbox's guessed deck: shown face down
            row.append({"slot": slot, "unknown": True, "kind": "unknown", "cost": r["cost"],
                        "cost_tokens": range(r["cost"]), "brick_list": []})  # fmt: skip
            continue
        row.append(
            {
                **r,
                "text": card_text(r["card"]),
                "help": card_help(r["card"]),
                "help_id": f"help-row-{slot}",
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
    found: dict[str, dict[Any, Choice]],
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
                "score_change": lit.pp.get(seat, 0),
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


def game_context(seen: Seen) -> dict[str, Any]:
    """Everything the board, panel and players partials need, from one seat's point of view
    (its player_view and its choices: never the state). ``seen.moves``: the moves loaded for the
    log (oldest first); their stored changes light up what the last turn did. Not ``seen.live``
    (the game has ended, perhaps mid-turn by a resignation): no choices, no highlights, no
    prices or next balcony."""
    view, viewer, names, colours = seen.view, seen.viewer, seen.names, seen.colours
    live = seen.live and view["phase"] != "over"
    if not live:  # nobody acts any more, whatever the state was in the middle of
        view = {**view, "acting_seat": None, "pending": None}
    acting = view["acting_seat"]
    my_turn = live and seen.my_turn
    legal = seen.choices if my_turn else []
    guessed = set(view.get("guessed", ()))  # a planning sandbox's cards from its guessed deck
    if guessed:  # unknown there: nothing is offered on them, so a plan stops before them
        legal = [a for a in legal if not (a["type"] in _SLOT_ACTIONS and a["slot"] in guessed)]
    found = board_choices(view, legal, names)
    lit = highlights(list(seen.moves), view["turn_no"]) if live else Highlights()
    if live and seen.since_view is not None and viewer is not None:
        # What changed since the viewer's last move stays marked until they act (issue 30).
        marks = since_words.changes_since(seen.since_view, view, viewer, names).marks
        lit.squares.update((colour, level) for colour, level in marks["squares"])
        lit.stores.update(marks["seats"])
    players = _players(view, viewer, names, colours, lit, found, seen.scores)
    me = players[viewer] if viewer is not None else None
    hand = (
        [
            {
                "card": c,
                "kind": CARDS[c].kind,
                "text": card_text(c),
                "help": card_help(c),
                "help_id": f"help-hand-{i}",
                "anchor": card_anchor(c),
            }
            for i, c in enumerate(me["hand"])
        ]
        if me
        else []
    )
    towers = board_towers(view, names, colours, lit, found["squares"])
    return {
        "view": view,
        "live": live,
        "my_turn": my_turn,
        "acting_name": names[acting] if acting is not None else None,
        "phase_steps": [{"key": k, "name": n, "current": k == view["phase"]} for k, n in PHASES],
        "prompt": prompt(view),
        "payment": payment(view) if my_turn else None,
        "build_costs": build_costs(view) if my_turn else None,
        "limits": limits(view) if my_turn else [],
        "fulfil_blocked": fulfil_blocked(view, names) if my_turn else "",
        "groups": action_groups(view, legal, names),
        "can_undo": my_turn and seen.can_undo,
        "undo_note": undo_note(seen) if my_turn else "",
        "players": players,
        "me": me,
        "hand": hand,
        "towers": towers,
        "next_balcony": next(
            ({**sq, "color": t["color"]} for t in towers for sq in t["levels"] if sq["next"]), None
        )
        if live
        else None,
        "levels": sorted({sq["level"] for t in towers for sq in t["levels"]}, reverse=True),
        "row": _row(view, lit, found),
        "event": (
            {
                **view["event"],
                "text": card_text(view["event"]["card"]),
                "help": card_help(view["event"]["card"]),
                "help_id": "help-event",
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
                "text": card_text(c["card"]),
                "help": card_help(c["card"]),
                "help_id": f"help-church-{i}",
                "kind": CARDS[c["card"]].kind,
                "anchor": card_anchor(c["card"]),
                "sealed_names": [names[s] for s in c["sealed"]],
                "choice": found["church"].get(c["card"]),
            }
            for i, c in enumerate(view["church"])
        ],
        "church_changed": lit.church,
        # The engine's final scoring per seat, for the score breakdown (games/scoresheet.py);
        # the ranking with places and resignations is games.standings.standings.
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


def undo_note(seen: Seen) -> str:
    """Why the undo button went away in the middle of the player's turn: a step of theirs drew
    something at random (a card, a tile), which no undo may go back past."""
    if seen.can_undo:
        return ""
    turn_no = seen.view["turn_no"]
    if not any(m.turn == turn_no and m.seat == seen.viewer for m in seen.moves):
        return ""  # the turn has just begun: there is nothing to take back
    return _(
        "No undo: your last step revealed something new (a card or tile drawn at random), and "
        "no step can be taken back past that."
    )


def replay_hands(state: rules.State, names: list[str]) -> list[dict[str, Any]]:
    """Every player's hand, face up, for the replay of a finished game (never during play)."""
    return [
        {
            "name": names[i],
            "seat": i,
            "cards": [
                {"card": c, "kind": CARDS[c].kind, "text": card_text(c)} for c in sorted(p["hand"])
            ],
        }
        for i, p in enumerate(rules.to_dict(state)["players"])
    ]
