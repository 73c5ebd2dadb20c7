"""Words the platform and the engines put into sentences in the player's language: a label
inside a sentence, ordinals. Part of the seam (engines may import it, like the protocol); a
game's own words (its colours, its kinds of card) are its engine's."""

from __future__ import annotations

from django.contrib.humanize.templatetags.humanize import ordinal as humanize_ordinal
from django.utils.html import strip_tags
from django.utils.translation import get_language, pgettext


def in_sentence(label: object) -> str:
    """A label ("Your turn") inside a sentence: lower case ("your turn emails", Italian
    "e-mail di tocca a te"), but as it is in German, where nouns keep their capital
    ("E-Mails zu „Dein Zug“")."""
    return str(label) if (get_language() or "en").startswith("de") else str(label).lower()


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th in English; 1., 2., 3. in German: the suffixes are translated."""
    first, second, third, other = pgettext(
        "ordinal suffixes for 1, 2, 3 and the rest, separated by spaces", "st nd rd th"
    ).split()
    if 10 <= number % 100 <= 20:
        return f"{number}{other}"
    return f"{number}{ {1: first, 2: second, 3: third}.get(number % 10, other) }"


def place(number: int) -> str:
    """A finishing place as plain text, as Django's humanize words it: "1st", "1°", "1º", and
    "1er" where French humanize writes HTML ("1<sup>er</sup>"), which plain text (subjects,
    pushes, webhooks) and a string built around it (standings) would show as tags."""
    return strip_tags(humanize_ordinal(number) or str(number))
