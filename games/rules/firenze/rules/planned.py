"""Planned turns: a seat's next turn in a sandbox of its own view, and what a step means.

The sandbox is a state sampled from the seat's view (determinize.sample_state: the hidden cards
dealt at random, never read from the real state) and moved to the start of the seat's turn. A
step's intent names the kind of card rather than its row slot, which shifts when an opponent
takes a card, and not the bricks lying on it: a brick joins every card left in the row each
turn, so a plan naming them would stop at step 1 almost always (the bench measured 80-92 %).
A plan stops after any step that drew a card other than the row's refill, as what follows
rests on a guess.
"""

from __future__ import annotations

import random
from typing import Any

from .determinize import sample_state
from .legal import legal_actions_of
from .refill import INTO_ROW
from .row import TAKEN_LINE
from .state import State
from .turns import start_turn

_SLOT_TYPES = ("choose_card", "exchange")
SANDBOX_DECK = "sandbox_deck"  # a sandbox's deck size at its start (view.py reads it)


def sandbox(view: dict[str, Any], seat: int, rng: random.Random) -> State | None:
    """The start of `seat`'s next turn as its view shows the game now; None once it is over."""
    if view.get("phase") == "over" or view.get("viewer") != seat:
        return None
    s = sample_state(view, rng)
    if s["seat"] != seat or s["phase"] != "choose" or s["turn"]["played"]:
        start_turn(s, seat)
    # The deck here is a guess: player_view marks every card drawn from it as unknown.
    s[SANDBOX_DECK] = len(s["deck"])
    return State(s)


def intent(state: State, action: dict[str, Any]) -> dict[str, Any]:
    """The action by what it touches: a row slot becomes the kind of card lying there."""
    if action.get("type") in _SLOT_TYPES:
        row = state._d["row"]
        slot = action.get("slot")
        if isinstance(slot, int) and 0 <= slot < len(row):
            entry = row[slot]
            return {"type": action["type"], "card": entry["card"]}
    return dict(action)


def stop(before: State, after: State, seat: int) -> str | None:
    """ "revealed" once a card came off the deck anywhere but into the open row (a draw, an
    event). A card refilling the row after a take is no guess: every later step is checked
    against the real row before it is played, so the plan goes on."""
    drawn = len(before._d["deck"]) - len(after._d["deck"])
    if drawn == 0:
        return None
    # Counted by the step's own log, not by the row's cards: a refill of the same kind as the
    # card just taken leaves the row's cards as they were, and must not read as a draw.
    refilled = sum(INTO_ROW in line for line in after._d["log"])
    return None if drawn == refilled else "revealed"


def why(state: State, intent: dict[str, Any], seat: int, since: list[str]) -> dict[str, Any]:
    """Why a planned step no longer holds, from the public log since the plan and the open row:
    another player took a card of the kind it names (by whom: a copy may still lie further
    right, dearer than the plan meant to pay), or none is left in the row."""
    card = intent.get("card")
    if intent.get("type") not in _SLOT_TYPES or not card:
        return {}
    for line in reversed(since):
        match = TAKEN_LINE.match(line)
        if match and match.group(2) == card and int(match.group(1)) != seat:
            return {"key": "taken", "card": card, "by": int(match.group(1))}
    if any(entry["card"] == card for entry in state._d["row"]):
        return {}
    return {"key": "gone", "card": card}


# Standing orders (rules.md §4: choose, exchange, build, tear down, fulfil, limits): each takes
# only a step that leaves the player no choice to lose.
SKIP_EXCHANGE, END_TURN = "skip_exchange", "end_turn"
_ENDINGS = {"end_phase", "end_turn"}


def standing_action(state: State, seat: int, order: str) -> dict[str, Any] | None:
    """skip_exchange: end the exchange phase (the plan before it planned none); end_turn: end
    the phase or the turn when ending is all that is left (no card to play, nothing to build,
    fulfil or pay)."""
    d = state._d
    if d["phase"] == "over" or d["seat"] != seat or d["pending"] is not None:
        return None
    legal = legal_actions_of(d)
    if order == SKIP_EXCHANGE and d["phase"] == "exchange":
        return next((a for a in legal if a["type"] == "end_phase"), None)
    if order == END_TURN and legal and all(a["type"] in _ENDINGS for a in legal):
        return next((a for a in legal if a["type"] == "end_turn"), legal[0])
    return None
