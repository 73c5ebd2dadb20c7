"""The one exception a caller of the engine has to handle, and the reason it carries.

A refusal is language-free, like the rest of the engine: an English msgid with %(name)s
placeholders, marked with words.gettext_noop so `make messages` puts it in the catalogue, and
the values that fill it. The web layer translates the msgid and words the values that are
names; `str(IllegalAction)` is the English sentence, for tests, the command line and reports.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .data import COLOR_INDEX, COLORS
from .words import gettext_noop


class Refusal(NamedTuple):
    """Why an action is not allowed now.

    Params are plain values: ints, the player's own input shown back (``value``, ``keys``),
    and names by their engine key: ``color``/``color2`` a brick colour ("purple"), ``colors`` a
    tuple of them, ``phase``/``phase2`` a phase ("build"), ``card`` a card's key (worded in the
    reader's language, docs/rules.md §2.3).
    """

    msgid: str
    params: dict[str, Any] = {}

    def text(self) -> str:
        """The English sentence."""
        if not self.params:
            return self.msgid
        return self.msgid % {k: english(v) for k, v in self.params.items()}


def english(value: Any) -> Any:
    """A param as the English sentence shows it: a tuple of keys is listed with commas."""
    return ", ".join(value) if isinstance(value, tuple) else value


class IllegalAction(ValueError):
    """An action the rules do not allow now: `refusal` says why, `str()` says it in English."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.text())
        self.refusal = refusal


# --- reading what a player sent: any value may arrive, so every detail is type-checked -------


def quoted(value: Any, limit: int = 40) -> str:
    """A value the player sent, shown back safely: short, and whatever its type."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f'"{text}"'


def whole(action: dict[str, Any], key: str) -> int | None:
    """An index detail (tower, slot, level, seat) if it is a whole number, else None."""
    value = action.get(key)
    return value if type(value) is int else None  # not bool, not a subclass


def name(action: dict[str, Any], key: str) -> str | None:
    """A text detail (colour, card) if it is a string, else None."""
    value = action.get(key)
    return value if type(value) is str else None  # not a subclass: what is stored is plain


def color_refusal(action: dict[str, Any]) -> Refusal | None:
    """A "color" that is not one of the six brick colours."""
    if "color" in action and name(action, "color") not in COLOR_INDEX:
        return Refusal(
            gettext_noop("%(value)s is not a brick colour; the colours are %(colors)s."),
            {"value": quoted(action["color"]), "colors": COLORS},
        )
    return None


NO_SUCH_TOWER = Refusal(gettext_noop("You have no such tower."))
NAME_A_COLOUR = Refusal(gettext_noop('Say which brick: a move of bricks needs a "color".'))


NO_BRICK_IN_STORE = tuple(
    Refusal(gettext_noop("You have no %(color)s brick in your storehouse."), {"color": color})
    for color in COLORS
)


def no_card_at(s: dict[str, Any]) -> Refusal:
    """A row position that holds no card."""
    cards = len(s["row"])
    if cards == 0:
        return Refusal(gettext_noop("There is no card in the row."))
    if cards == 1:
        return Refusal(
            gettext_noop("There is no card in that position; only the leftmost is left.")
        )
    return Refusal(
        gettext_noop("There is no card in that position; the row has %(cards)s cards (0 is left)."),
        {"cards": cards},
    )
