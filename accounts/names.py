"""Display names that cannot pass for the site, a seat label or another player.

A name is compared by its *skeleton*: NFKC-folded, case-folded, accents dropped, separators
dropped and every character replaced by an ASCII look-alike where Unicode's confusables data
(the ``confusable_homoglyphs`` package ships it) lists one, so "Аnna" (Cyrillic А), "ANNA",
"Anna_", "Ann.a" and "Ánna" all reduce to the same skeleton as "Anna". Accents are the marks
of Unicode's Combining Diacritical Marks block (what Latin, Greek and Cyrillic letters carry);
the vowel signs of other scripts are letters of their own and are kept. The skeleton is stored
on the user row (indexed) so the check against every other player is one query.

Reserved: what the pages print for seats that are not a player ("Player 3", "Bot Greedy 2",
"Open seat", "Former player") and names of the site and its staff ("admin", "Firenze"...).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from django.utils.translation import gettext_lazy as _

SEPARATORS = re.compile(r"[\s_.\-]+")
# First words that would make a name read like a seat label: "Bot …", "Player 7".
RESERVED_FIRST_WORDS = ("bot", "bots")
RESERVED_WHOLE = (
    "open seat",
    "former player",
    "deleted player",
    "anonymous",
    "nobody",
    "you",
    "spectator",
    "firenze",
    "firenze team",
    "team firenze",
)
# Words that claim to speak for the site, anywhere in the name.
RESERVED_WORDS = (
    "admin",
    "administrator",
    "moderator",
    "mod",
    "staff",
    "support",
    "system",
    "official",
    "root",
    "webmaster",
)
RESERVED_MESSAGE = _(
    "That name is kept for the site or for seats without a player; choose another."
)
CONFUSABLE_MESSAGE = _("That name looks too much like another player's name; choose another.")


@cache
def _lookalikes() -> dict[str, str]:
    """Each character with an ASCII letter or digit among its confusables, mapped to the
    smallest such (so l, I and 1 all become "1", O and 0 become "0")."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[str, str] = {}
    for char, glyphs in confusables_data.items():
        candidates = {char, *(g["c"].strip("\u200e\u200f") for g in glyphs)}
        ascii_ones = sorted(
            c.casefold() for c in candidates if len(c) == 1 and c.isascii() and c.isalnum()
        )
        if ascii_ones and len(char) == 1:
            table[char] = ascii_ones[0]
    return table


# Among themselves the ASCII look-alikes are O/0 and I/l/1; after case-folding, o and i too.
ASCII_FOLD = {"o": "0", "i": "1", "l": "1"}
# Latin letters with a stroke or ligatures, which no decomposition splits into letter + accent.
LATIN_FOLD = {"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t", "ı": "i", "ƚ": "l",
              "æ": "ae", "œ": "oe", "þ": "th", "ð": "d"}  # fmt: skip
ACCENTS = range(0x0300, 0x0370)  # the Combining Diacritical Marks block


def without_accents(text: str) -> str:
    """ "Alíce" -> "Alice", "Łukasz" -> "lukasz" (text already case-folded)."""
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if ord(c) not in ACCENTS)
    return "".join(LATIN_FOLD.get(c, c) for c in unicodedata.normalize("NFC", bare))


def skeleton(name: str) -> str:
    """What a name looks like, for comparing: equal skeletons mean easily mistaken names."""
    table = _lookalikes()
    text = unicodedata.normalize("NFKC", name or "")
    text = "".join(table.get(char, char) for char in text).casefold()  # "I" -> "1" first
    text = SEPARATORS.sub("", without_accents(text))
    for _round in range(2):  # mapped characters may map on ("Ｉ" -> "I" -> "1")
        text = "".join(ASCII_FOLD.get(c, table.get(c, c)) for c in text)
    return text


def _words(name: str) -> list[str]:
    folded = unicodedata.normalize("NFKC", name or "").casefold()
    return [w for w in SEPARATORS.split(folded) if w]


def is_reserved(name: str) -> bool:
    words = _words(name)
    if not words:
        return False
    skeletons = [skeleton(w) for w in words]
    first = skeletons[0]
    if first in {skeleton(w) for w in RESERVED_FIRST_WORDS}:
        return True
    if first == skeleton("player") and all(w.isdigit() for w in words[1:]):
        return True  # "Player", "Player 3" (how a seat without a name is shown)
    if re.fullmatch(skeleton("player") + r"[0-9]+", skeleton(name)):
        return True  # "Player3", "P1ayer 3"
    if skeleton(name) in {skeleton(w) for w in RESERVED_WHOLE}:
        return True
    reserved = {skeleton(w) for w in RESERVED_WORDS}
    return any(s in reserved for s in skeletons) or skeleton(name) in reserved
