"""Firenze's bots as people read about them: the levels' names and what each plays like, and a
post-game review's entries in words (rules/review.py writes them language-free)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.rules.firenze.wording import card_name, card_names, colour_name
from games.rules.protocol import BotLevel
from games.rules.wording import ordinal

LEVELS: tuple[BotLevel, ...] = (
    BotLevel(
        "beginner",
        pgettext_lazy("bot level", "Beginner"),
        gettext_lazy(
            "Plays sensible moves with a learner's habits: it often grabs a cheap card, never "
            "exchanges or uses a Princess, Mason or Architect, and builds at most two bricks a "
            "turn. A good first opponent."
        ),
    ),
    BotLevel(
        "standard",
        pgettext_lazy("bot level", "Standard"),
        gettext_lazy(
            "Plans one turn at a time: takes the card whose bricks and effect help its towers "
            "most, builds towards open commissions and fulfils what it can. It also plays the "
            "turns of players who ran out of time."
        ),
        aliases=("greedy",),
    ),
    BotLevel(
        "strong",
        pgettext_lazy("bot level", "Strong"),
        gettext_lazy(
            "Thinks ahead: for its card, exchange, build and fulfilment it plays each promising "
            "choice two turns ahead many times, with the hidden cards dealt afresh each time "
            "(it never sees your hand or the deck), and keeps the choice that comes out best."
        ),
    ),
)

DECISIONS = {
    "card": pgettext_lazy("review", "Card"),
    "build": pgettext_lazy("review", "Build"),
}


def review_text(entry: Mapping[str, Any]) -> dict[str, str]:
    """A review entry's decision, the player's plan and the bot's plan, in words."""
    return {
        "decision": str(DECISIONS.get(entry.get("decision", ""), "")),
        "played": plan_text(entry.get("played") or {}),
        "suggested": plan_text(entry.get("suggested") or {}),
    }


def plan_text(summary: Mapping[str, Any]) -> str:
    """One plan: the cards played, the card taken, the exchange, the towers built."""
    parts: list[str] = []
    cards = [c for c in summary.get("cards", []) if c != "Princess"]
    if cards:
        parts.append(gettext("plays %(cards)s") % {"cards": card_names(cards)})
    if "card" in summary:
        taken = {"card": card_name(summary["card"]), "position": ordinal(summary["slot"] + 1)}
        if "Princess" in summary.get("cards", []):
            parts.append(gettext("takes %(card)s (%(position)s card) with a Princess") % taken)
        else:
            parts.append(gettext("takes %(card)s (%(position)s card)") % taken)
    if "towers" in summary:
        parts.append(_towers_text(summary["towers"]))
    return "; ".join(parts) or gettext("nothing")


def _towers_text(towers: list[list[Any]]) -> str:
    if not towers:
        return gettext("builds nothing")
    built = []
    for colour, before, after in towers:
        words = {"colour": colour_name(colour), "before": before, "after": after}
        if before == 0:
            built.append(gettext("new %(colour)s tower of %(after)s") % words)
        else:
            built.append(gettext("%(colour)s tower %(before)s → %(after)s") % words)
    return gettext("builds %(towers)s") % {"towers": ", ".join(built)}
