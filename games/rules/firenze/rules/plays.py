"""Playing a personnel card: the rule (which cards may be played now, and why not).

A card of the hand may be played once a turn by name, in its phases, only when it could have
an effect (both from its entry in cards.py); while a decision is pending only a Patrician
against an event. `play_refusal` is that rule for checks.check; `playable` offers
the cards it passes (legal.py, and the event decision's answers). This module sits below
decisions.py (whose event answers read `playable`): a card refused because a decision waits
gets ANSWER_PENDING, which checks.check words with the decision's own "first" message.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .cards import CARDS, Personnel
from .errors import Refusal, quoted
from .words import gettext_noop

S = dict[str, Any]


def play_refusal(s: S, action: dict[str, Any]) -> Refusal | None:
    """The rule for playing a personnel card, in any phase: legal offers exactly the cards of
    the hand it passes. Each name once a turn, in its phases (its registry entry), only when
    it could have an effect; while a decision is pending only a Patrician against an event."""
    return card_refusal(s, action.get("card"))


def card_refusal(s: S, card: Any) -> Refusal | None:
    """play_refusal for the card named `card` (any value a player sent)."""
    player = s["players"][s["seat"]]
    if type(card) is not str or card not in CARDS:
        return Refusal(gettext_noop("There is no card called %(value)s."), {"value": quoted(card)})
    entry = CARDS[card]
    if not isinstance(entry, Personnel):
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
        return ANSWER_PENDING
    if s["phase"] not in entry.phases:
        return _wrong_phase(card, s["phase"])
    if not entry.has_effect(s):
        return _no_effect(card)
    return None


# A decision is pending (checks.check replaces this with decisions.first_refusal's words).
ANSWER_PENDING = Refusal(gettext_noop("First answer the decision that is pending."))


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
    entry = CARDS[card]
    assert isinstance(entry, Personnel), card
    phases = sorted(entry.phases)
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
    return [
        card
        for card in sorted(set(s["players"][s["seat"]]["hand"]))
        if card_refusal(s, card) is None
    ]
