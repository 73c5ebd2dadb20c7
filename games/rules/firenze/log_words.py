"""The engine's log lines in the reader's language.

The engine writes each public log line as one English sentence with seat tokens ({0}, {1}) and
stores it with the move (games.models.Move.log), so a log read years later must still be worded
from that stored text. Each sentence below is a template whose pieces have a type (a seat, a
card, a colour, a set of bricks, a number, a position in the row): the line is matched against
the templates, its pieces are worded in the active language (card names too,
docs/rules.md §2.3) and the translated template (locale/de) puts them together. English lines
are left as they are, and a line no template knows is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from functools import cache

from django.utils.translation import get_language, gettext, gettext_noop

from games.rules.firenze.rules.cards import CARDS
from games.rules.firenze.rules.data import COLORS
from games.rules.firenze.wording import bricks_of_colour, card_name, colour_name
from games.rules.wording import ordinal

_COLOUR = "(?:" + "|".join(COLORS) + ")"
_CARD = "(?:" + "|".join(sorted(map(re.escape, CARDS), key=len, reverse=True)) + ")"
_BRICKS = rf"(?:nothing|\d+ {_COLOUR}(?:, \d+ {_COLOUR})*)"
PIECES = {
    "seat": r"\{\d\}",
    "card": _CARD,
    "colour": _COLOUR,
    "bricks": _BRICKS,
    "n": r"-?\d+",
    "pp": r"[+-]\d+",
    "ord": r"\d+(?:st|nd|rd|th)",
    "numeral": r"I|II|III|IV",
}

# The engine's sentences (firenze/rules: every s["log"].append), in its words.
TEMPLATES = [
    gettext_noop("%(seat)s returns %(bricks)s to the pouch (storehouse limit)."),
    gettext_noop("%(seat)s discards %(card)s (card limit)."),
    gettext_noop("%(seat)s finds no card in the row to take."),
    gettext_noop("%(seat)s adds a %(colour)s brick: tower of %(n)s."),
    gettext_noop("%(seat)s starts a %(colour)s tower."),
    gettext_noop("%(seat)s pays %(bricks)s construction cost for %(n)s brick."),
    gettext_noop("%(seat)s pays %(bricks)s construction cost for %(n)s bricks."),
    gettext_noop(
        "%(seat)s's abandoned %(colour)s tower of %(n)s is torn down: %(n2)s to the pouch, "
        "%(bricks)s back to the storehouse."
    ),
    gettext_noop("%(card)s: %(seat)s has no tower; nothing happens."),
    gettext_noop("Storehouse Fire: %(seat)s loses %(bricks)s."),
    gettext_noop("Flood: %(seat)s loses %(bricks)s."),
    gettext_noop("Renaissance: the deck, the discard pile and the card make a new deck."),
    gettext_noop("%(seat)s plays Patrician and cancels %(card)s."),
    gettext_noop("Collapse: %(seat)s's %(colour)s tower of %(n)s falls."),
    gettext_noop("Botch: %(seat)s's %(colour)s tower loses a brick."),
    gettext_noop(
        "Tribute: %(seat)s cannot pay for the %(colour)s tower of %(n)s; it is torn down."
    ),
    gettext_noop("Tribute: %(seat)s pays %(bricks)s."),
    gettext_noop(
        "Luxury Tax: %(seat)s cannot pay for the %(colour)s tower of %(n)s; it is torn down."
    ),
    gettext_noop("Luxury Tax: %(seat)s pays %(bricks)s."),
    gettext_noop("%(seat)s exchanges %(bricks)s for 1 %(colour)s on the %(ord)s card."),
    gettext_noop(
        "%(seat)s places their last seal and takes the end-of-game tile (%(n)s PP); everyone "
        "else has one more turn."
    ),
    gettext_noop("%(seat)s completes the bell tower and seals the Campanile."),
    gettext_noop("Every player has sealed the Campanile; it is discarded."),
    gettext_noop("%(seat)s plays %(card)s."),
    gettext_noop("Alchemist: %(seat)s swaps 1 %(colour)s for 1 %(colour2)s from the pouch."),
    gettext_noop(
        "Smuggler: %(seat)s takes 1 %(colour)s from %(seat2)s and gives 1 %(colour2)s back."
    ),
    gettext_noop(
        "Saboteur: %(seat)s takes a brick off %(seat2)s's %(colour)s tower, which now has %(n)s."
    ),
    gettext_noop("Wholesaler: the %(ord)s card (%(card)s) trades %(bricks)s for %(bricks2)s."),
    gettext_noop("Patrician: %(seat)s discards %(card)s."),
    gettext_noop("%(seat)s takes %(card)s (%(ord)s card) with %(bricks)s, paying %(bricks2)s."),
    gettext_noop("%(seat)s takes %(card)s (%(ord)s card) with %(bricks)s."),
    gettext_noop("%(seat)s already owns a %(card)s; the copy is discarded."),
    gettext_noop("The Campanile stands: everyone must seal it with a bell tower first."),
    gettext_noop("Nobody has the single tallest tower: the Monument is discarded."),
    gettext_noop("The Monument goes to %(seat)s, who has the tallest tower."),
    gettext_noop("The discard pile is shuffled into a new deck."),
    gettext_noop("%(card)s comes into the row with %(bricks)s."),
    gettext_noop("%(seat)s wins the %(colour)s majority for %(n)s PP."),
    gettext_noop("%(seat)s reveals %(card)s: %(pp)s PP."),
    gettext_noop("%(seat)s ends the turn."),
    gettext_noop("The game is over."),
    # Fulfilling: what was fulfilled and what came with it are worded piece by piece below.
    gettext_noop("%(seat)s fulfils %(what)s for %(n)s PP%(extras)s."),
]
WHAT = [
    gettext_noop("balcony %(numeral)s (%(colour)s %(n)s)"),
    gettext_noop("%(colour)s %(n)s"),
]
ARCHITECT = gettext_noop("%(what)s with the Architect (tower of %(n)s)")
EXTRAS = [
    gettext_noop(" and the level-%(n)s tile for %(n2)s PP"),
    gettext_noop(" and the %(card)s for %(n)s PP"),
]
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pattern(template: str, special: dict[str, str] | None = None) -> re.Pattern[str]:
    """The regular expression of an English template: its pieces become named groups."""
    parts, last = [], 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[last : match.start()]))
        name = match.group(1)
        kind = (special or {}).get(name) or PIECES[name.rstrip("0123456789")]
        parts.append(f"(?P<{name}>{kind})")
        last = match.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts) + r"\Z")


@cache
def _compiled() -> list[tuple[str, re.Pattern[str]]]:
    special = {"what": r".+?", "extras": r"(?: and .+?)*"}
    return [(t, _pattern(t, special)) for t in TEMPLATES]


@cache
def _pieces(templates: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
    return [(t, _pattern(t)) for t in templates]


def _bricks(text: str) -> str:
    if text == "nothing":
        return gettext("nothing")
    counts = (part.split(" ", 1) for part in text.split(", "))
    return ", ".join(bricks_of_colour(int(count), colour) for count, colour in counts)


def _value(name: str, text: str) -> str:
    kind = name.rstrip("0123456789")
    if kind == "colour":
        return colour_name(text)
    if kind == "bricks":
        return _bricks(text)
    if kind == "ord":
        digits = re.match(r"\d+", text)
        return ordinal(int(digits.group())) if digits else text
    if kind == "card":
        return card_name(text)
    return text  # seats, numbers, numerals


def _word(template: str, match: re.Match[str]) -> str:
    values = {name: _value(name, text) for name, text in match.groupdict().items()}
    return gettext(template) % values


def _what(text: str) -> str | None:
    architect = _pattern(ARCHITECT, {"what": r".+?"}).match(text)
    if architect:
        inner = _what(architect.group("what"))
        if inner is None:
            return None
        return gettext(ARCHITECT) % {"what": inner, "n": architect.group("n")}
    for template, pattern in _pieces(tuple(WHAT)):
        match = pattern.match(text)
        if match:
            return _word(template, match)
    return None


def _extras(text: str) -> str | None:
    worded = []
    for part in re.findall(r" and .+?(?= and |\Z)", text):
        for template, pattern in _pieces(tuple(EXTRAS)):
            match = pattern.match(part)
            if match:
                worded.append(_word(template, match))
                break
        else:
            return None
    return "".join(worded)


def word_line(line: str) -> str:
    """The log line (seat tokens kept) in the active language; unchanged in English or when no
    template knows it."""
    if (get_language() or "en").startswith("en"):
        return line
    for template, pattern in _compiled():
        match = pattern.match(line)
        if not match:
            continue
        values = match.groupdict()
        if "what" in values:
            what, extras = _what(values["what"]), _extras(values["extras"])
            if what is None or extras is None:
                return line
            words = {"seat": values["seat"], "what": what, "n": values["n"], "extras": extras}
            return gettext(template) % words
        return _word(template, match)
    return line
