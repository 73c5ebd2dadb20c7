"""The engine's refusals in the reader's language.

The rules engine says why a move is refused as a Refusal: an English msgid (in the catalogue,
marked in firenze/rules with words.gettext_noop) and plain values, names by their engine key.
Here the msgid is translated and the names worded with the tables the pages already use:
colours (firenze.wording), phases as the game page's phase strip names them (presenters.PHASES:
the refusal is shown beside it), card names (docs/rules.md §2.3); numbers and balcony numerals
as they are.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.rules.firenze.presenters import PHASES
from games.rules.firenze.rules import IllegalAction, Refusal
from games.rules.firenze.rules.errors import english
from games.rules.firenze.wording import card_name, colour_name
from games.rules.wording import in_sentence

PHASE_NAMES = dict(PHASES)  # as the game page's phase strip names them


def refusal_text(refusal: Refusal) -> str:
    """The refusal as the player reads it, in the active language."""
    text = gettext(refusal.msgid)
    if not refusal.params:
        return text
    return text % {key: _worded(key, value) for key, value in refusal.params.items()}


def illegal_action_text(exc: Exception) -> str:
    """What apply_action raised, worded (an exception without a refusal as it says itself)."""
    refusal = getattr(exc, "refusal", None)
    if isinstance(exc, IllegalAction) and isinstance(refusal, Refusal):
        return refusal_text(refusal)
    return str(exc)


def _worded(key: str, value: Any) -> Any:
    if key.startswith("color"):  # color, color2, colors
        if isinstance(value, tuple):
            return ", ".join(colour_name(c) for c in value)
        return colour_name(value)
    if key.startswith("phase"):
        return in_sentence(str(PHASE_NAMES.get(value, value)))
    if key.startswith("card") and isinstance(value, str):
        return card_name(value)
    return english(value)  # numbers, numerals: as in the engine's English
