"""Personnel cards: played from the hand on one's own turn, each name once per turn.

Cards that need a choice (which brick, which tower, which row card) leave a `pending` decision
that the following step answers, so every click stays one small action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from .bricks import describe, draw_from_pouch
from .data import CARD_KIND, COLORS, PERSONNEL, PERSONNEL_PHASES
from .errors import Refusal, quoted
from .events import cancel_event
from .state import draw_rng
from .words import gettext_noop, ordinal, seat_ref

S = dict[str, Any]


def _others(s: S) -> list[dict[str, Any]]:
    return [p for i, p in enumerate(s["players"]) if i != s["seat"]]


def _mine(s: S) -> dict[str, Any]:
    return s["players"][s["seat"]]


def _flag(name: str, value: Any) -> Callable[[S], None]:
    def effect(s: S) -> None:
        s["turn"][name] = value

    return effect


def _decide(kind: str, card: str) -> Callable[[S], None]:
    def effect(s: S) -> None:
        s["pending"] = {"kind": kind, "card": card}

    return effect


@dataclass(frozen=True)
class Personnel:
    """A personnel card: whether playing it now could change anything (it is not offered when
    it could not), and what playing it does (a flag for the turn, or a pending decision that
    firenze.rules.decisions answers). Its phases are data.PERSONNEL_PHASES."""

    has_effect: Callable[[S], bool]
    effect: Callable[[S], None]


PERSONNEL_CARDS: dict[str, Personnel] = {
    "Architect": Personnel(lambda s: True, _flag("architect", 1)),
    "Mason": Personnel(lambda s: True, _flag("mason", True)),
    "Princess": Personnel(lambda s: True, _flag("princess", True)),
    "Alchemist": Personnel(
        lambda s: sum(_mine(s)["store"]) > 0, _decide("alchemist_give", "Alchemist")
    ),
    "Patrician": Personnel(lambda s: len(_mine(s)["hand"]) > 1, _decide("patrician", "Patrician")),
    "Saboteur": Personnel(
        lambda s: any(p["towers"] for p in _others(s)), _decide("saboteur", "Saboteur")
    ),
    "Smuggler": Personnel(
        lambda s: sum(_mine(s)["store"]) > 0 and any(sum(p["store"]) for p in _others(s)),
        _decide("smuggler_take", "Smuggler"),
    ),
    "Wholesaler": Personnel(
        lambda s: any(sum(r["bricks"]) for r in s["row"]), _decide("wholesaler", "Wholesaler")
    ),
}


def play_refusal(s: S, action: dict[str, Any]) -> Refusal | None:
    """The rule for playing a personnel card, in any phase: legal offers exactly the cards of
    the hand it passes. Each name once a turn, in its phases (data.PERSONNEL_PHASES), only when
    it could have an effect; while a decision is pending only a Patrician against an event."""
    return card_refusal(s, action.get("card"))


def card_refusal(s: S, card: Any) -> Refusal | None:
    """play_refusal for the card named `card` (any value a player sent)."""
    player = s["players"][s["seat"]]
    if type(card) is not str or card not in CARD_KIND:
        return Refusal(gettext_noop("There is no card called %(value)s."), {"value": quoted(card)})
    if CARD_KIND[card] != PERSONNEL:
        return Refusal(
            gettext_noop(
                "%(card)s is not a personnel card; only personnel cards are played from the hand."
            ),
            {"card": card},
        )
    if card not in player["hand"]:
        return Refusal(gettext_noop("You have no %(card)s in your hand."), {"card": card})
    if card in s["turn"]["played"]:
        return _played_already(card)
    pending = s["pending"]
    if pending is not None:
        if pending["kind"] == "event" and card == "Patrician":
            return None
        return _answer_first(pending["kind"])
    phases = PERSONNEL_PHASES[card]
    if s["phase"] not in phases:
        return _wrong_phase(card, s["phase"])
    if not PERSONNEL_CARDS[card].has_effect(s):
        return _no_effect(card)
    return None


@cache
def _answer_first(kind: str) -> Refusal:
    from .decisions import DECISIONS  # decisions reads this module's cards: imported late

    return Refusal(DECISIONS[kind].first)


# The refusals legal generation meets for every card in hand, built once (a Refusal is
# immutable by convention, so one may be shared).
@cache
def _played_already(card: str) -> Refusal:
    if card[0] in "AEIOU":
        return Refusal(
            gettext_noop("You have already played an %(card)s this turn."), {"card": card}
        )
    return Refusal(gettext_noop("You have already played a %(card)s this turn."), {"card": card})


@cache
def _no_effect(card: str) -> Refusal:
    return Refusal(gettext_noop("The %(card)s would have no effect now."), {"card": card})


@cache
def _wrong_phase(card: str, now: str) -> Refusal:
    phases = sorted(PERSONNEL_PHASES[card])
    if len(phases) == 1:
        return Refusal(
            gettext_noop("The %(card)s can only be played in the %(phase)s phase."),
            {"card": card, "phase": phases[0]},
        )
    if len(phases) == 2:
        return Refusal(
            gettext_noop("The %(card)s can only be played in the %(phase)s or %(phase2)s phase."),
            {"card": card, "phase": phases[0], "phase2": phases[1]},
        )
    return Refusal(
        gettext_noop("The %(card)s cannot be played in the %(phase)s phase."),
        {"card": card, "phase": now},
    )


def playable(s: S) -> list[str]:
    """Names of personnel cards the acting player may play right now (play_refusal passes)."""
    return [card for card in sorted(set(_mine(s)["hand"])) if card_refusal(s, card) is None]


def play(s: S, card: str) -> None:
    seat = s["seat"]
    player = s["players"][seat]
    player["hand"].remove(card)
    s["discard"].append(card)
    s["turn"]["played"].append(card)
    pending = s["pending"]
    if card == "Patrician" and pending is not None and pending["kind"] == "event":
        cancel_event(s)
        return
    s["log"].append(f"{seat_ref(seat)} plays {card}.")
    PERSONNEL_CARDS[card].effect(s)


def alchemist_give(s: dict[str, Any], color: int) -> None:
    s["players"][s["seat"]]["store"][color] -= 1
    s["pouch"][color] += 1
    s["pending"] = {"kind": "alchemist_take", "card": "Alchemist", "gave": color}


def alchemist_take(s: dict[str, Any], color: int) -> None:
    gave = s["pending"]["gave"]
    s["pouch"][color] -= 1
    s["players"][s["seat"]]["store"][color] += 1
    s["pending"] = None
    s["log"].append(
        f"Alchemist: {seat_ref(s['seat'])} swaps 1 {COLORS[gave]} for 1 {COLORS[color]} "
        "from the pouch."
    )


def smuggler_take(s: dict[str, Any], other: int, color: int) -> None:
    s["players"][other]["store"][color] -= 1
    s["players"][s["seat"]]["store"][color] += 1
    s["pending"] = {"kind": "smuggler_give", "card": "Smuggler", "from": other, "took": color}


def smuggler_give(s: dict[str, Any], color: int) -> None:
    pending = s["pending"]
    other = pending["from"]
    s["players"][s["seat"]]["store"][color] -= 1
    s["players"][other]["store"][color] += 1
    s["pending"] = None
    s["log"].append(
        f"Smuggler: {seat_ref(s['seat'])} takes 1 {COLORS[pending['took']]} from "
        f"{seat_ref(other)} and gives 1 {COLORS[color]} back."
    )


def saboteur(s: dict[str, Any], other: int, tower_index: int) -> None:
    player = s["players"][other]
    tower = player["towers"][tower_index]
    tower["h"] -= 1
    s["pouch"][tower["c"]] += 1
    if tower["h"] == 0:
        player["towers"].pop(tower_index)
    s["pending"] = None
    s["log"].append(
        f"Saboteur: {seat_ref(s['seat'])} takes a brick off {seat_ref(other)}'s "
        f"{COLORS[tower['c']]} tower, which now has {tower['h']}."
    )


def wholesaler(s: dict[str, Any], slot: int) -> None:
    entry = s["row"][slot]
    before = entry["bricks"]
    count = sum(before)
    for c in range(6):
        s["pouch"][c] += before[c]
    entry["bricks"] = draw_from_pouch(s["pouch"], count, draw_rng(s))
    s["pending"] = None
    s["log"].append(
        f"Wholesaler: the {ordinal(slot + 1)} card ({entry['card']}) trades {describe(before)} "
        f"for {describe(entry['bricks'])}."
    )


def patrician_discard(s: dict[str, Any], card: str) -> None:
    s["players"][s["seat"]]["hand"].remove(card)
    s["discard"].append(card)
    s["pending"] = None
    s["log"].append(f"Patrician: {seat_ref(s['seat'])} discards {card}.")
