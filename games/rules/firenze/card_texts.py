"""A card's words in the reader's language: its one-line text and its rules-page help.

The English is the card's entry in the engine's registry (firenze.rules.cards), marked there
with gettext_noop so `make messages` collects it; the engine stays free of Django, and the
translation happens here, when a page is rendered (German from locale/de). Card names stay in
English in every language (docs/rules.md §2.3).
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.rules.firenze.rules.cards import CARDS


def card_text(card: str) -> str:
    """The card's short text in the active language."""
    return gettext(CARDS[card].text)


def card_help(card: str) -> str:
    """The card's longer help (the rules page) in the active language."""
    return gettext(CARDS[card].help)
