"""Every pending decision of the game, one entry each: what answers it, what an answer does,
and how the player is asked. legal, apply, checks, the bots and the page all read this table,
so a new decision (a new card's follow-up choice) is one entry here plus its tests.

A pending decision is left by a step that needs a further choice (paying a cost one brick at a
time, a card's follow-up); until it is answered only its answers are legal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import build, events, exchange, personnel, plays, row
from .data import COLOR_INDEX, COLORS
from .errors import Refusal
from .words import gettext_noop

S = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class Decision:
    answers: Callable[[S], list[Action]]  # the legal answers, in the order a page lists them
    handler: Callable[[S, Action], None]  # what one answer does to the state
    first: str  # what a refused move is told to do first: a msgid, marked for the catalogue
    ask: str = ""  # the page's prompt while it waits ("" : the payment box says it)
    pay_to: str = ""  # where a paid brick goes, as a page labels a pay_brick answer


def _store(s: S) -> list[int]:
    store: list[int] = s["players"][s["seat"]]["store"]
    return store


def bricks(counts: list[int], kind: str = "pay_brick") -> list[Action]:
    return [{"type": kind, "color": COLORS[c]} for c in range(6) if counts[c]]


def _pay(step: Callable[[S, int], None]) -> Callable[[S, Action], None]:
    return lambda s, action: step(s, COLOR_INDEX[action["color"]])


def _pay_answers(s: S) -> list[Action]:
    return bricks(_store(s))


def _event_answers(s: S) -> list[Action]:
    cards = [{"type": "play_card", "card": card} for card in plays.playable(s)]
    return [{"type": "resolve_event"}, *cards]


def _event_answer(s: S, action: Action) -> None:
    if action["type"] == "play_card":
        personnel.play(s, action["card"])
    else:
        events.resolve_event(s)


def _smuggler_takes(s: S) -> list[Action]:
    return [
        {"type": "take_brick", "seat": other, "color": COLORS[c]}
        for other, p in enumerate(s["players"])
        if other != s["seat"]
        for c in range(6)
        if p["store"][c]
    ]


def _own_towers(s: S) -> list[Action]:
    return [
        {"type": "pick_tower", "tower": i} for i in range(len(s["players"][s["seat"]]["towers"]))
    ]


def _others_towers(s: S) -> list[Action]:
    return [
        {"type": "pick_tower", "seat": other, "tower": i}
        for other, p in enumerate(s["players"])
        if other != s["seat"]
        for i in range(len(p["towers"]))
    ]


DECISIONS: dict[str, Decision] = {
    "card_cost": Decision(
        _pay_answers,
        _pay(row.pay_card_cost),
        first=gettext_noop("First pay for the card you chose, one brick at a time."),
        pay_to="onto {onto_card}",
    ),
    "event": Decision(
        _event_answers,
        _event_answer,
        first=gettext_noop("First resolve the event you took (or cancel it with a Patrician)."),
        ask=gettext_noop("Resolve the event, or cancel it with a Patrician."),
    ),
    "fire": Decision(
        _pay_answers,
        _pay(events.fire_pay),
        first=gettext_noop("First choose the bricks the Storehouse Fire burns."),
        pay_to="to the fire",
    ),
    "botch": Decision(
        _own_towers,
        lambda s, a: events.botch_or_collapse(s, a["tower"]),
        first=gettext_noop("First choose the tower the Botch hits."),
        ask=gettext_noop("Botch: choose the tower that loses a brick."),
    ),
    "collapse": Decision(
        _own_towers,
        lambda s, a: events.botch_or_collapse(s, a["tower"]),
        first=gettext_noop("First choose the tower that collapses."),
        ask=gettext_noop("Collapse: choose the tower that falls."),
    ),
    "exchange_pay": Decision(
        _pay_answers,
        _pay(exchange.pay),
        first=gettext_noop("First pay the bricks for your exchange."),
        pay_to="onto {slot_card}",
    ),
    "exchange_take": Decision(
        lambda s: [{"type": "take_brick", "color": COLORS[c]} for c in exchange.takeable(s)],
        _pay(exchange.take),
        first=gettext_noop("First take one brick from the card you exchanged with."),
        ask=gettext_noop("Exchange: take one of the bricks that lay on the card."),
    ),
    "build_cost": Decision(
        _pay_answers,
        _pay(build.pay_cost),
        first=gettext_noop("First pay the construction cost."),
        pay_to="to the pouch",
    ),
    "alchemist_give": Decision(
        _pay_answers,
        _pay(personnel.alchemist_give),
        first=gettext_noop("First choose the brick the Alchemist gives to the pouch."),
        ask=gettext_noop("Alchemist: choose a brick to give to the pouch."),
        pay_to="to the pouch",
    ),
    "alchemist_take": Decision(
        lambda s: bricks(s["pouch"], "take_brick"),
        _pay(personnel.alchemist_take),
        first=gettext_noop("First choose the brick the Alchemist takes from the pouch."),
        ask=gettext_noop("Alchemist: choose a brick to take from the pouch."),
    ),
    "smuggler_take": Decision(
        _smuggler_takes,
        lambda s, a: personnel.smuggler_take(s, a["seat"], COLOR_INDEX[a["color"]]),
        first=gettext_noop("First choose the brick the Smuggler takes from another player."),
        ask=gettext_noop("Smuggler: choose a brick to take from another player."),
    ),
    "smuggler_give": Decision(
        _pay_answers,
        _pay(personnel.smuggler_give),
        first=gettext_noop("First choose the brick the Smuggler gives in return."),
        ask=gettext_noop("Smuggler: choose a brick to give back."),
        pay_to="to the other player",
    ),
    "saboteur": Decision(
        _others_towers,
        lambda s, a: personnel.saboteur(s, a["seat"], a["tower"]),
        first=gettext_noop("First choose the tower the Saboteur takes a brick from."),
        ask=gettext_noop("Saboteur: choose another player's tower."),
    ),
    "wholesaler": Decision(
        lambda s: [
            {"type": "pick_slot", "slot": i} for i, r in enumerate(s["row"]) if sum(r["bricks"])
        ],
        lambda s, a: personnel.wholesaler(s, a["slot"]),
        first=gettext_noop("First choose the row card the Wholesaler trades bricks on."),
        ask=gettext_noop("Wholesaler: choose a row card to trade its bricks."),
    ),
    "patrician": Decision(
        lambda s: [
            {"type": "discard_card", "card": c}
            for c in sorted(set(s["players"][s["seat"]]["hand"]))
        ],
        lambda s, a: personnel.patrician_discard(s, a["card"]),
        first=gettext_noop("First choose the card the Patrician discards."),
        ask=gettext_noop("Patrician: choose a card to discard."),
    ),
}


def answers(s: S) -> list[Action]:
    return DECISIONS[s["pending"]["kind"]].answers(s)


def answer(s: S, action: Action) -> None:
    DECISIONS[s["pending"]["kind"]].handler(s, action)


def first_refusal(s: S) -> Refusal:
    """A move that does not answer the pending decision: answer it first."""
    return Refusal(DECISIONS[s["pending"]["kind"]].first)
