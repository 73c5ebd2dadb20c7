"""What the rules page (/rules/) shows: the game as this site plays it (docs/rules.md), in our own
words. Every number comes from the engine's data module, so the page cannot disagree with the
game; the card descriptions below are the longer help texts (the cards themselves carry the
short ones, firenze.rules.data.CARD_TEXT)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from firenze.card_texts import card_text
from firenze.presenters import LETTER, card_anchor
from firenze.rules.data import (
    BALCONY_GROUPS,
    BRIDGE_EXCHANGE_PRICE,
    BUILD_COST,
    CARD_LIMIT,
    CARDS,
    COLORS,
    END_TILE_PP,
    EXCHANGE_PRICE,
    LEVEL_TILE_PP,
    LEVELS,
    MAJORITY_BONUS,
    MASON_AND_WORKSHOP_DISCOUNT,
    MASON_DISCOUNT,
    MAX_BUILD_PER_TURN,
    NEUTRAL_SEALS_DEFAULT,
    NEUTRAL_SEALS_MAX,
    PERSONNEL_PHASES,
    PRINTED_PP,
    SEALS_PER_PLAYER,
    START_CARDS,
    START_WHITE_BRICKS,
    STORE_LIMIT,
    SUPPLY,
    WAREHOUSE_STORE_LIMIT,
    WORKSHOP_DISCOUNT,
)

KINDS = [
    ("event", _("Events"), _("Resolved the moment you take them, then discarded.")),
    ("personnel", _("Personnel"), _("Go to your hand; play them on one of your turns.")),
    ("celebration", _("Celebrations"), _("Stay in your hand and score at the end.")),
    ("building", _("Buildings"), _("Lie in front of you and work from then on.")),
    ("church", _("Church cards"), _("Go onto a church space until their condition is met.")),
]

CARD_HELP: dict[str, Promise] = {
    "Botch": _(
        "You pick one of your own towers and one brick of it goes back to the pouch. "
        "A tower that loses its only brick is gone. With no tower, nothing happens."
    ),
    "Collapse": _(
        "You pick one of your own towers and all of its bricks go to the pouch. With "
        "no tower, nothing happens."
    ),
    "Flood": _(
        "Every player puts a third of their storehouse (rounded up) into the pouch. The "
        "site chooses the bricks for everyone by the house rule below. The bricks on the Flood "
        "card itself reach your storehouse only afterwards, so they are safe."
    ),
    "Luxury Tax": _(
        "Every player pays 2 bricks for each of their towers of 5 or more levels, "
        "tallest tower first. A tower that cannot be paid for is torn down: half its bricks "
        "(rounded up) to the pouch, the rest back to the storehouse. The bricks paid are chosen "
        "by the house rule below."
    ),
    "Renaissance": _(
        "The deck, the discard pile and the Renaissance itself are shuffled into a "
        "new deck; then the gap in the row is filled as usual. The row itself stays."
    ),
    "Storehouse Fire": _(
        "You choose 3 bricks of your storehouse and they go to the pouch. With "
        "3 or fewer, you lose them all. The card's own bricks are not touched."
    ),
    "Tribute": _(
        "Every player pays one brick of the tower's colour for each of their towers, "
        "tallest first. A tower that cannot be paid for is torn down (half, rounded up, to the "
        "pouch; the rest to the storehouse)."
    ),
    "Alchemist": _(
        "Swap one brick of your storehouse for any brick in the pouch (the pouch's "
        "contents are shown on the board). You give first, then take; you may take back the "
        "colour you gave."
    ),
    "Architect": _(
        "Play it in the fulfil phase: for one fulfilment this turn, one of your towers "
        "counts as one level taller or shorter. A white tower of 2 or 4 does not become a bell "
        "tower for the Campanile."
    ),
    "Mason": _(
        "Play it in the build phase: your construction cost this turn is 3 bricks lower "
        "(4 if you also own a Workshop), never below nothing. Since the cost is paid when you "
        "finish building, it counts for every brick of the turn."
    ),
    "Patrician": _(
        "Either cancel the event you have just taken (for every player), or discard "
        "any one card from your hand, for instance a Disgrace or Scandal."
    ),
    "Princess": _(
        "Play it in the choose phase, before you choose: this turn any card of the row is free."
    ),
    "Saboteur": _("Take one brick from another player's tower and put it into the pouch."),
    "Smuggler": _(
        "Take one brick from another player's storehouse, then give them one of yours (any colour)."
    ),
    "Wholesaler": _(
        "Play it in the choose or exchange phase: all bricks of one row card go back "
        "to the pouch and as many are drawn anew onto it. You need not take that card."
    ),
    "Disgrace": _(
        "-2 PP in the final scoring. It cannot be discarded at the card limit; only a "
        "Patrician gets rid of it."
    ),
    "Fame": _("+3 PP in the final scoring."),
    "Monument": _(
        "Whoever has the single tallest tower at the moment it is taken gets it, even "
        "if it is not their turn; on a tie it is discarded. +3 PP in the final scoring."
    ),
    "Recognition": _(
        "In the final scoring, +1 PP for each commission of level 3 or 4 you fulfilled."
    ),
    "Scandal": _("-3 PP in the final scoring. Only a Patrician gets rid of it."),
    "Bridge": _("Your exchange costs 2 bricks instead of 3 (still one exchange a turn)."),
    "Warehouse": _("Your storehouse holds 15 bricks instead of 10, and you have no card limit."),
    "Workshop": _("Your construction cost is 1 brick lower every turn."),
    "Campanile": _(
        "(Only with the Campanile option.) Once it lies on a church space, nobody may "
        "fulfil a commission before sealing it: build a white tower of exactly 3 levels and, in "
        "the fulfil phase, return its bricks to the pouch to put your seal on the Campanile; more "
        "commissions may follow in the same turn. The bell tower is a tower like any other: build "
        "on it every turn or it is torn down. When everyone has sealed it, it is discarded."
    ),
    "Major Privilege": _(
        "+4 PP to the first player, whoever took the card, to fulfil a "
        "commission of exactly 7 levels (balconies count)."
    ),
    "Minor Privilege": _("+2 PP to the first player to fulfil a commission of exactly 5 levels."),
    "Privilege": _("+3 PP to the first player to fulfil a commission of exactly 6 levels."),
}


# The phases as a card's line names them ("choose or exchange phase").
PHASE_WORDS = {
    "choose": pgettext_lazy("phase", "choose"),
    "exchange": pgettext_lazy("phase", "exchange"),
    "build": pgettext_lazy("phase", "build"),
    "fulfil": pgettext_lazy("phase", "fulfil"),
    "limits": pgettext_lazy("phase", "limits"),
}


def _or_list(phases: list[str]) -> str:
    """The phases a card is played in, by name: "choose or exchange"."""
    names = [str(PHASE_WORDS.get(phase, phase)) for phase in phases]
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(names)s or %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _cost_rows() -> list[dict[str, int]]:
    return [{"bricks": n, "cost": BUILD_COST[n]} for n in range(1, MAX_BUILD_PER_TURN + 1)]


def rules_context() -> dict[str, Any]:
    colours = [
        {"name": c, "letter": LETTER[c], "supply": SUPPLY[i], "bonus": MAJORITY_BONUS[i]}
        for i, c in enumerate(COLORS)
    ]
    kinds = []
    for kind, title, summary in KINDS:
        cards = [
            {
                "name": name,
                "count": count,
                "anchor": card_anchor(name),
                "short": card_text(name),
                "help": CARD_HELP[name],
                "phases": sorted(PERSONNEL_PHASES.get(name, ())),
                "phases_text": _or_list(sorted(PERSONNEL_PHASES.get(name, ()))),
                "start": START_CARDS.count(name),
            }
            for name, (card_kind, count) in CARDS.items()
            if card_kind == kind
        ]
        kinds.append({"kind": kind, "title": title, "summary": summary, "cards": cards})
    return {
        "colours": colours,
        "levels": list(reversed(LEVELS)),
        "pp_rows": [
            {"level": level, "pp": [PRINTED_PP[i][level - 3] for i in range(6)]}
            for level in reversed(LEVELS)
        ],
        "balcony_groups": [
            {"numeral": numeral, "tiles": group}
            for numeral, group in zip(("I", "II", "III", "IV"), BALCONY_GROUPS, strict=True)
        ],
        "level_tiles": sorted(LEVEL_TILE_PP.items()),
        "end_tile_pp": END_TILE_PP,
        "cost_rows": _cost_rows(),
        "workshop": WORKSHOP_DISCOUNT,
        "mason": MASON_DISCOUNT,
        "both": MASON_AND_WORKSHOP_DISCOUNT,
        "exchange_price": EXCHANGE_PRICE,
        "bridge_price": BRIDGE_EXCHANGE_PRICE,
        "store_limit": STORE_LIMIT,
        "warehouse_limit": WAREHOUSE_STORE_LIMIT,
        "card_limit": CARD_LIMIT,
        "max_build": MAX_BUILD_PER_TURN,
        "seals": sorted(SEALS_PER_PLAYER.items()),
        "start_bricks": START_WHITE_BRICKS,
        "neutral_default": NEUTRAL_SEALS_DEFAULT,
        "neutral_max": NEUTRAL_SEALS_MAX,
        "kinds": kinds,
        "total_cards": sum(count for _, count in CARDS.values()),
        "start_cards": START_CARDS,
        "start_summary": ", ".join(
            f"{name} ×{START_CARDS.count(name)}" if START_CARDS.count(name) > 1 else name
            for name in dict.fromkeys(START_CARDS)
        ),
        "supply_total": sum(SUPPLY),
        "page_title": _("Rules") + " · Firenze",
    }
