"""The short text of every card as the pages show it, marked for translation.

The engine's data (firenze.rules.data.CARD_TEXT) holds the same English; it stays free of
Django, so the words players read are here, in the web layer, and German comes from
locale/de. tests/test_translations.py checks the two English versions never drift apart.
Card names stay in English in every language (RULINGS.md §2).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CARD_TEXTS: dict[str, Promise] = {
    "Botch": _("Event. Choose one of your towers; one brick of it goes to the pouch."),
    "Collapse": _(
        "Event. Tear down one of your towers completely; all its bricks go to the pouch."
    ),
    "Flood": _(
        "Event, all players. Each puts a third (rounded up) of their storehouse into the pouch."
    ),
    "Luxury Tax": _(
        "Event, all players. Pay 2 bricks for every tower of 5 or more levels; a tower "
        "that cannot be paid for is torn down."
    ),
    "Renaissance": _("Event. Shuffle the deck, the discard pile and this card into a new deck."),
    "Storehouse Fire": _("Event. Put 3 bricks of your choice from your storehouse into the pouch."),
    "Tribute": _(
        "Event, all players. Pay 1 brick of the tower's colour for every tower; a tower "
        "that cannot be paid for is torn down."
    ),
    "Alchemist": _("Swap one brick from your storehouse for any brick in the pouch."),
    "Architect": _("Fulfil phase: count one tower as one level taller or shorter this turn."),
    "Mason": _("Build phase: pay 3 bricks less construction cost this turn (4 with a Workshop)."),
    "Patrician": _("Cancel the event you just chose, or discard one card from your hand."),
    "Princess": _("Choose phase: pay no card cost this turn."),
    "Saboteur": _("Take one brick from another player's tower and put it into the pouch."),
    "Smuggler": _("Swap one brick from your storehouse with one from another player's storehouse."),
    "Wholesaler": _(
        "Choose or exchange phase: return a row card's bricks to the pouch and draw as "
        "many new ones."
    ),
    "Disgrace": _("Celebration: -2 PP in the final scoring."),
    "Fame": _("Celebration: +3 PP in the final scoring."),
    "Monument": _(
        "Celebration: goes to the player with the tallest tower; +3 PP in the final scoring."
    ),
    "Recognition": _("Celebration: +1 PP per commission of level 3 or 4 you fulfilled."),
    "Scandal": _("Celebration: -3 PP in the final scoring."),
    "Bridge": _("Building: exchange 2 bricks for 1 instead of 3 for 1."),
    "Warehouse": _("Building: keep up to 15 bricks and any number of cards."),
    "Workshop": _("Building: pay 1 brick less construction cost."),
    "Campanile": _(
        "Church: every player must first fulfil a white bell tower of exactly 3 levels "
        "before fulfilling anything else."
    ),
    "Major Privilege": _("Church: +4 PP to the first player to fulfil a commission of 7 levels."),
    "Minor Privilege": _("Church: +2 PP to the first player to fulfil a commission of 5 levels."),
    "Privilege": _("Church: +3 PP to the first player to fulfil a commission of 6 levels."),
}


def card_text(card: str) -> str:
    """The card's text in the active language."""
    return str(CARD_TEXTS[card])
