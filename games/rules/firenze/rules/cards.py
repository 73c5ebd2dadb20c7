"""The card registry: one entry per card holds everything about it.

An entry says what kind of card it is, how many copies the deck holds, its one-line text and
its longer help on the rules page (English, marked with gettext_noop so `make messages` puts
them in the catalogue; the web layer translates them when it renders), what the greedy bot
thinks it is worth, and what it does: a personnel card's phases, whether playing it now could
change anything and what playing it does; an event's handler; a celebration's final PP; a
church privilege's commission level and PP. The deck, the legal plays, the rules page and the
bots all read these entries, so a card of an existing pattern is added here and nowhere else
(plus its section in docs/rules.md and its tests). Buildings, and cards with a one-off rule of
their own (Monument, Recognition, Campanile), also change a rule of the module that plays it.

The registry's order is the deck's build order: new_game shuffles the cards in this order, so
reordering it would deal stored games differently (tests/rules/test_rules_version.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from . import event_effects
from .data import ALL_PHASES, BUILDING, CELEBRATION, CHURCH, EVENT, PERSONNEL
from .words import gettext_noop as _  # marks the English for `make messages`; the web translates
from .words import pgettext  # marks a card's name, with its context, the same way

S = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Card:
    """What every card has: copies in the deck, its text, its rules-page help, its bot worth
    (what the greedy bot adds to a row card's bricks when choosing, and keeps when discarding)."""

    kind: ClassVar[str]
    count: int
    text: str
    help: str
    worth: float = 0.0


@dataclass(frozen=True, kw_only=True)
class Event(Card):
    """Resolved when taken: handler(state, card name) resolves it or leaves a pending decision
    (firenze.rules.decisions answers it); every handler ends in events.finish_event."""

    kind: ClassVar[str] = EVENT
    handler: Callable[[S, str], None]


@dataclass(frozen=True, kw_only=True)
class Personnel(Card):
    """Played from the hand in one of its phases: it is offered only when has_effect says
    playing it now could change anything; effect sets a flag for the turn or leaves a pending
    decision (firenze.rules.decisions)."""

    kind: ClassVar[str] = PERSONNEL
    phases: frozenset[str]
    has_effect: Callable[[S], bool]
    effect: Callable[[S], None]


@dataclass(frozen=True, kw_only=True)
class Celebration(Card):
    """Kept in the hand and scored at the end: final_pp, or None when scoring counts it from the
    board (Recognition)."""

    kind: ClassVar[str] = CELEBRATION
    final_pp: int | None


@dataclass(frozen=True, kw_only=True)
class Building(Card):
    """Lies in front of its owner (one of each name); its effect is a rule of the module it
    changes (players: Warehouse, Workshop; exchange: Bridge)."""

    kind: ClassVar[str] = BUILDING


@dataclass(frozen=True, kw_only=True)
class Church(Card):
    """Goes onto a church space: a privilege (commission level, PP) pays the first player to
    fulfil that level; None for the Campanile (firenze.rules.fulfil)."""

    kind: ClassVar[str] = CHURCH
    privilege: tuple[int, int] | None = None


def _mine(s: S) -> dict[str, Any]:
    mine: dict[str, Any] = s["players"][s["seat"]]
    return mine


def _others(s: S) -> list[dict[str, Any]]:
    return [p for i, p in enumerate(s["players"]) if i != s["seat"]]


def _always(s: S) -> bool:
    return True


def _flag(name: str, value: Any) -> Callable[[S], None]:
    """A card that changes the rest of the turn: the turn remembers it."""

    def effect(s: S) -> None:
        s["turn"][name] = value

    return effect


def _decide(kind: str, card: str) -> Callable[[S], None]:
    """A card that asks a follow-up question: its DECISIONS entry answers it."""

    def effect(s: S) -> None:
        s["pending"] = {"kind": kind, "card": card}

    return effect


CARDS: dict[str, Card] = {
    pgettext("card name", "Botch"): Event(
        count=1,
        text=_("Event. Choose one of your towers; one brick of it goes to the pouch."),
        help=_(
            "You pick one of your own towers and one brick of it goes back to the pouch. "
            "A tower that loses its only brick is gone. With no tower, nothing happens."
        ),
        worth=-0.5,
        handler=event_effects.ask_for_tower,
    ),
    pgettext("card name", "Collapse"): Event(
        count=1,
        text=_("Event. Tear down one of your towers completely; all its bricks go to the pouch."),
        help=_(
            "You pick one of your own towers and all of its bricks go to the pouch. With "
            "no tower, nothing happens."
        ),
        worth=-1.5,
        handler=event_effects.ask_for_tower,
    ),
    pgettext("card name", "Flood"): Event(
        count=1,
        text=_(
            "Event, all players. Each puts a third (rounded up) of their storehouse into the pouch."
        ),
        help=_(
            "Every player puts a third of their storehouse (rounded up) into the pouch. The "
            "site chooses the bricks for everyone by the house rule below. The bricks on the "
            "Flood card itself reach your storehouse only afterwards, so they are safe."
        ),
        worth=-1.5,
        handler=event_effects.flood,
    ),
    pgettext("card name", "Luxury Tax"): Event(
        count=1,
        text=_(
            "Event, all players. Pay 2 bricks for every tower of 5 or more levels; a tower "
            "that cannot be paid for is torn down."
        ),
        help=_(
            "Every player pays 2 bricks for each of their towers of 5 or more levels, "
            "tallest tower first. A tower that cannot be paid for is torn down: half its bricks "
            "(rounded up) to the pouch, the rest back to the storehouse. The bricks paid are "
            "chosen by the house rule below. The bricks on the Luxury Tax card itself reach your "
            "storehouse only afterwards, so they are not used to pay."
        ),
        worth=-0.5,
        handler=event_effects.luxury_tax_all,
    ),
    pgettext("card name", "Renaissance"): Event(
        count=1,
        text=_("Event. Shuffle the deck, the discard pile and this card into a new deck."),
        help=_(
            "The deck, the discard pile and the Renaissance itself are shuffled into a "
            "new deck; then the gap in the row is filled as usual. The row itself stays."
        ),
        worth=0.0,
        handler=event_effects.renaissance,
    ),
    pgettext("card name", "Storehouse Fire"): Event(
        count=2,
        text=_("Event. Put 3 bricks of your choice from your storehouse into the pouch."),
        help=_(
            "You choose 3 bricks of your storehouse and they go to the pouch. With "
            "3 or fewer, you lose them all. The card's own bricks are not touched."
        ),
        worth=-2.0,
        handler=event_effects.storehouse_fire,
    ),
    pgettext("card name", "Tribute"): Event(
        count=2,
        text=_(
            "Event, all players. Pay 1 brick of the tower's colour for every tower; a tower "
            "that cannot be paid for is torn down."
        ),
        help=_(
            "Every player pays one brick of the tower's colour for each of their towers, "
            "tallest first. A tower that cannot be paid for is torn down (half, rounded up, to "
            "the pouch; the rest to the storehouse). The bricks on the Tribute card itself reach "
            "your storehouse only afterwards, so they are not used to pay."
        ),
        worth=-1.0,
        handler=event_effects.tribute_all,
    ),
    pgettext("card name", "Alchemist"): Personnel(
        count=4,
        text=_("Swap one brick from your storehouse for any brick in the pouch."),
        help=_(
            "Swap one brick of your storehouse for any brick in the pouch (the pouch's "
            "contents are shown on the board). You give first, then take; you may take back the "
            "colour you gave."
        ),
        worth=1.0,
        phases=ALL_PHASES,
        has_effect=lambda s: sum(_mine(s)["store"]) > 0,
        effect=_decide("alchemist_give", "Alchemist"),
    ),
    pgettext("card name", "Architect"): Personnel(
        count=3,
        text=_("Fulfil phase: count one tower as one level taller or shorter this turn."),
        help=_(
            "Play it in the fulfil phase: for one fulfilment this turn, one of your towers "
            "counts as one level taller or shorter. A white tower of 2 or 4 does not become a "
            "bell tower for the Campanile."
        ),
        worth=2.0,
        phases=frozenset({"fulfil"}),
        has_effect=_always,
        effect=_flag("architect", 1),
    ),
    pgettext("card name", "Mason"): Personnel(
        count=3,
        text=_("Build phase: pay 3 bricks less construction cost this turn (4 with a Workshop)."),
        help=_(
            "Play it in the build phase: your construction cost this turn is 3 bricks lower "
            "(4 if you also own a Workshop), never below nothing. Since the cost is paid when you "
            "finish building, it counts for every brick of the turn."
        ),
        worth=2.0,
        phases=frozenset({"build"}),
        has_effect=_always,
        effect=_flag("mason", True),
    ),
    pgettext("card name", "Patrician"): Personnel(
        count=3,
        text=_("Cancel the event you just chose, or discard one card from your hand."),
        help=_(
            "Either cancel the event you have just taken (for every player), or discard "
            "any one card from your hand, for instance a Disgrace or Scandal."
        ),
        worth=1.5,
        phases=ALL_PHASES,
        has_effect=lambda s: len(_mine(s)["hand"]) > 1,
        effect=_decide("patrician", "Patrician"),
    ),
    pgettext("card name", "Princess"): Personnel(
        count=2,
        text=_("Choose phase: pay no card cost this turn."),
        help=_(
            "Play it in the choose phase, before you choose: this turn any card of the row is free."
        ),
        worth=1.0,
        phases=frozenset({"choose"}),
        has_effect=_always,
        effect=_flag("princess", True),
    ),
    pgettext("card name", "Saboteur"): Personnel(
        count=1,
        text=_("Take one brick from another player's tower and put it into the pouch."),
        help=_("Take one brick from another player's tower and put it into the pouch."),
        worth=0.5,
        phases=ALL_PHASES,
        has_effect=lambda s: any(p["towers"] for p in _others(s)),
        effect=_decide("saboteur", "Saboteur"),
    ),
    pgettext("card name", "Smuggler"): Personnel(
        count=3,
        text=_("Swap one brick from your storehouse with one from another player's storehouse."),
        help=_(
            "Take one brick from another player's storehouse, then give them one of yours "
            "(any colour)."
        ),
        worth=0.8,
        phases=ALL_PHASES,
        has_effect=lambda s: (
            sum(_mine(s)["store"]) > 0 and any(sum(p["store"]) for p in _others(s))
        ),
        effect=_decide("smuggler_take", "Smuggler"),
    ),
    pgettext("card name", "Wholesaler"): Personnel(
        count=2,
        text=_(
            "Choose or exchange phase: return a row card's bricks to the pouch and draw as "
            "many new ones."
        ),
        help=_(
            "Play it in the choose or exchange phase: all bricks of one row card go back "
            "to the pouch and as many are drawn anew onto it. You need not take that card."
        ),
        worth=0.3,
        phases=frozenset({"choose", "exchange"}),
        has_effect=lambda s: any(sum(r["bricks"]) for r in s["row"]),
        effect=_decide("wholesaler", "Wholesaler"),
    ),
    pgettext("card name", "Disgrace"): Celebration(
        count=2,
        text=_("Celebration: -2 PP in the final scoring."),
        help=_(
            "-2 PP in the final scoring. It cannot be discarded at the card limit; only a "
            "Patrician gets rid of it."
        ),
        worth=-2.0,
        final_pp=-2,
    ),
    pgettext("card name", "Fame"): Celebration(
        count=2,
        text=_("Celebration: +3 PP in the final scoring."),
        help=_("+3 PP in the final scoring."),
        worth=3.0,
        final_pp=3,
    ),
    pgettext("card name", "Monument"): Celebration(
        count=2,
        text=_(
            "Celebration: goes to the player with the tallest tower; +3 PP in the final scoring."
        ),
        help=_(
            "Whoever has the single tallest tower at the moment it is taken gets it, even "
            "if it is not their turn; on a tie for the tallest, or when nobody has a tower, it "
            "is discarded. Either way its bricks go to the player who took it. +3 PP in the "
            "final scoring."
        ),
        worth=1.5,
        final_pp=3,
    ),
    pgettext("card name", "Recognition"): Celebration(
        count=2,
        text=_("Celebration: +1 PP per commission of level 3 or 4 you fulfilled."),
        help=_("In the final scoring, +1 PP for each commission of level 3 or 4 you fulfilled."),
        worth=1.5,
        final_pp=None,
    ),
    pgettext("card name", "Scandal"): Celebration(
        count=2,
        text=_("Celebration: -3 PP in the final scoring."),
        help=_("-3 PP in the final scoring. Only a Patrician gets rid of it."),
        worth=-3.0,
        final_pp=-3,
    ),
    pgettext("card name", "Bridge"): Building(
        count=1,
        text=_("Building: exchange 2 bricks for 1 instead of 3 for 1."),
        help=_("Your exchange costs 2 bricks instead of 3 (still one exchange a turn)."),
        worth=1.0,
    ),
    pgettext("card name", "Warehouse"): Building(
        count=3,
        text=_("Building: keep up to 15 bricks and any number of cards."),
        help=_("Your storehouse holds 15 bricks instead of 10, and you have no card limit."),
        worth=2.0,
    ),
    pgettext("card name", "Workshop"): Building(
        count=4,
        text=_("Building: pay 1 brick less construction cost."),
        help=_("Your construction cost is 1 brick lower every turn."),
        worth=3.0,
    ),
    pgettext("card name", "Campanile"): Church(
        count=1,
        text=_(
            "Church: every player must first build a white bell tower of exactly 3 levels and "
            "seal the Campanile with it (small seal) before fulfilling anything else."
        ),
        help=_(
            "(Only with the Campanile option.) Once it lies on a church space, nobody may "
            "fulfil a commission before sealing it: build a white tower of exactly 3 levels and, "
            "in the fulfil phase, return its bricks to the pouch to put your small seal on the "
            "Campanile (it is not one of your seals); more commissions may follow in the same "
            "turn. The bell tower is a tower "
            "like any other: build on it every turn or it is torn down. When everyone has "
            "sealed it, it is discarded."
        ),
        worth=-1.0,
    ),
    pgettext("card name", "Major Privilege"): Church(
        count=1,
        text=_("Church: +4 PP to the first player to fulfil a commission of 7 levels."),
        help=_(
            "+4 PP to the first player, whoever took the card, to fulfil a "
            "commission of exactly 7 levels (balconies count)."
        ),
        worth=0.5,
        privilege=(7, 4),
    ),
    pgettext("card name", "Minor Privilege"): Church(
        count=1,
        text=_("Church: +2 PP to the first player to fulfil a commission of 5 levels."),
        help=_("+2 PP to the first player to fulfil a commission of exactly 5 levels."),
        worth=0.5,
        privilege=(5, 2),
    ),
    pgettext("card name", "Privilege"): Church(
        count=1,
        text=_("Church: +3 PP to the first player to fulfil a commission of 6 levels."),
        help=_("+3 PP to the first player to fulfil a commission of exactly 6 levels."),
        worth=0.5,
        privilege=(6, 3),
    ),
}


# Plain tables (the docs tests read them): derived from the entries above once, at import. The
# engine's own modules read CARDS itself, so a card registered later is seen everywhere.
CARD_KIND: dict[str, str] = {name: card.kind for name, card in CARDS.items()}
PERSONNEL_PHASES: dict[str, frozenset[str]] = {
    name: card.phases for name, card in CARDS.items() if isinstance(card, Personnel)
}


def privilege(name: str) -> tuple[int, int] | None:
    """A church card's (commission level, PP), or None for any other card."""
    card = CARDS[name]
    return card.privilege if isinstance(card, Church) else None


def final_pp(name: str) -> int | None:
    """A celebration's fixed PP in the final scoring, or None (Recognition, other kinds)."""
    card = CARDS[name]
    return card.final_pp if isinstance(card, Celebration) else None
