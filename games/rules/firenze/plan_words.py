"""A planned step's intent (rules/planned.py) in words, in the active language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.rules.firenze.wording import colour_name
from games.rules.protocol import StandingOrder


def intent_text(intent: Mapping[str, Any]) -> str:
    kind = intent.get("type")
    card = str(intent.get("card", ""))
    if kind == "choose_card" and "bricks" not in intent:
        return gettext("Take the %(card)s") % {"card": card}
    if kind == "choose_card":
        bricks = sum(intent.get("bricks") or [])
        return gettext("Take the %(card)s with its %(n)s bricks") % {"card": card, "n": bricks}
    if kind == "exchange":
        return gettext("Exchange for the %(card)s") % {"card": card}
    if kind == "play_card":
        return gettext("Play the %(card)s") % {"card": card}
    if kind == "discard_card":
        return gettext("Discard the %(card)s") % {"card": card}
    if kind == "build" and "tower" in intent:
        return gettext("Build on my tower %(n)s") % {"n": int(intent["tower"]) + 1}
    if kind == "build":
        return gettext("Build a new %(colour)s tower") % {
            "colour": colour_name(str(intent.get("color")))
        }
    if kind == "fulfil":
        return gettext("Fulfil a commission with my tower %(n)s at level %(level)s") % {
            "n": int(intent.get("tower", 0)) + 1,
            "level": intent.get("level"),
        }
    if kind == "pay_brick":
        return gettext("Return a %(colour)s brick") % {"colour": colour_name(str(intent["color"]))}
    if kind == "end_phase":
        return gettext("End the phase")
    if kind == "end_turn":
        return gettext("End my turn")
    return gettext("Another step (%(kind)s)") % {"kind": kind}


def why_text(why: Mapping[str, Any], names: Sequence[str]) -> str:
    """Why a plan stopped (rules/planned.py why and stop), in words."""
    key, card = why.get("key"), str(why.get("card", ""))
    by = why.get("by")
    if key == "taken" and isinstance(by, int) and 0 <= by < len(names):
        return gettext("%(name)s took the %(card)s") % {"name": names[by], "card": card}
    if key in ("taken", "gone"):
        return gettext("the %(card)s is no longer in the row") % {"card": card}
    if key == "revealed":
        return gettext("a card was drawn that the plan could not know")
    return ""


STANDING_ORDERS = (
    StandingOrder("skip_exchange", gettext_lazy("Skip the exchange when I planned none")),
    StandingOrder("end_turn", gettext_lazy("End my turn when nothing is left to do")),
)
