"""Names of Firenze's things as pages and emails show them, marked for translation.

The engine speaks in keys ("purple", "building"); these are the words players read. The German
words live in locale/de/LC_MESSAGES/django.po, chosen once here and used everywhere; card
names too (docs/rules.md §2.3 says which German names were chosen and why).
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.functional import Promise
from django.utils.translation import npgettext, pgettext, pgettext_lazy

from games.rules.firenze.rules.cards import CARDS

COLOUR_NAMES: dict[str, Promise] = {
    "white": pgettext_lazy("brick colour", "white"),
    "yellow": pgettext_lazy("brick colour", "yellow"),
    "green": pgettext_lazy("brick colour", "green"),
    "red": pgettext_lazy("brick colour", "red"),
    "blue": pgettext_lazy("brick colour", "blue"),
    "purple": pgettext_lazy("brick colour", "purple"),
    # Seal colours of the seats (firenze.engine.SEAT_COLOURS) and the neutral seals.
    "black": pgettext_lazy("seal colour", "black"),
    "orange": pgettext_lazy("seal colour", "orange"),
    "teal": pgettext_lazy("seal colour", "teal"),
    "pink": pgettext_lazy("seal colour", "pink"),
    "grey": pgettext_lazy("seal colour", "grey"),
}


def _named(names: dict[str, Promise], key: str) -> str:
    """The key's name in the active language (the key itself if the table lacks it)."""
    name = names.get(key)
    return str(name) if name is not None else key


def colour_name(key: str) -> str:
    """The colour's name in the active language (the key itself if it is not a colour)."""
    return _named(COLOUR_NAMES, key)


# A number of bricks of one colour ("4 white"): the colour agrees with the number in Italian,
# French and Spanish ("4 bianchi", "4 blanches", "4 blancos").
BRICKS_OF_COLOUR: dict[str, Callable[[int], str]] = {
    "white": lambda n: npgettext("bricks", "%(count)s white", "%(count)s white", n),
    "yellow": lambda n: npgettext("bricks", "%(count)s yellow", "%(count)s yellow", n),
    "green": lambda n: npgettext("bricks", "%(count)s green", "%(count)s green", n),
    "red": lambda n: npgettext("bricks", "%(count)s red", "%(count)s red", n),
    "blue": lambda n: npgettext("bricks", "%(count)s blue", "%(count)s blue", n),
    "purple": lambda n: npgettext("bricks", "%(count)s purple", "%(count)s purple", n),
}


def bricks_of_colour(count: int, key: str) -> str:
    """ "4 white" in the active language ("4 <key>" for a key that is not a brick colour)."""
    worded = BRICKS_OF_COLOUR.get(key)
    if worded is None:
        return f"{count} {colour_name(key)}"
    return worded(count) % {"count": count}


CARD_KINDS: dict[str, Promise] = {
    "building": pgettext_lazy("card kind", "building"),
    "celebration": pgettext_lazy("card kind", "celebration"),
    "church": pgettext_lazy("card kind", "church"),
    "event": pgettext_lazy("card kind", "event"),
    "personnel": pgettext_lazy("card kind", "personnel"),
}


def card_kind(key: str) -> str:
    """A kind of card in the active language (the key itself if it is not one)."""
    return _named(CARD_KINDS, key)


# The engine names cards by their English names (the keys of firenze.rules.cards.CARDS, kept in
# stored logs, marked there with their context for `make messages`); players read them in their
# language.
def card_name(key: str) -> str:
    """A card's name in the active language (the key itself if it is not a card)."""
    return pgettext("card name", key) if key in CARDS else key


def card_names(keys: list[str] | tuple[str, ...]) -> str:
    """Several cards' names, comma-separated (a pile's tooltip, a bot's plan)."""
    return ", ".join(card_name(k) for k in keys)
