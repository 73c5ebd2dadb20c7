"""What the rules page (/rules/) shows: the game as this site plays it (docs/rules.md), in our own
words. Every number comes from the engine's data module and every card from its card registry
(firenze.rules.cards: kind, copies, phases, short text and longer help), so the page cannot
disagree with the game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.rules.firenze.card_texts import card_help, card_text
from games.rules.firenze.presenters import LETTER, card_anchor
from games.rules.firenze.rules.cards import CARDS, Card, Personnel
from games.rules.firenze.rules.data import (
    BALCONY_GROUPS,
    BRIDGE_EXCHANGE_PRICE,
    BUILD_COST,
    CARD_LIMIT,
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
    (
        "event",
        _("Events"),
        _(
            "Resolved the moment you take them, before the card's bricks reach your storehouse; "
            "then discarded (the Renaissance is shuffled into the new deck instead)."
        ),
    ),
    ("personnel", _("Personnel"), _("Go to your hand; play them on one of your turns.")),
    ("celebration", _("Celebrations"), _("Stay in your hand and score at the end.")),
    ("building", _("Buildings"), _("Lie in front of you and work from then on.")),
    ("church", _("Church cards"), _("Go onto a church space until their condition is met.")),
]

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


def _phases(card: Card) -> list[str]:
    return sorted(card.phases) if isinstance(card, Personnel) else []


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
                "count": card.count,
                "anchor": card_anchor(name),
                "short": card_text(name),
                "help": card_help(name),
                "phases": _phases(card),
                "phases_text": _or_list(_phases(card)),
                "start": START_CARDS.count(name),
            }
            for name, card in CARDS.items()
            if card.kind == kind
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
        "total_cards": sum(card.count for card in CARDS.values()),
        "without_campanile": sum(card.count for name, card in CARDS.items() if name != "Campanile"),
        "start_cards": START_CARDS,
        "start_summary": ", ".join(
            f"{name} ×{START_CARDS.count(name)}" if START_CARDS.count(name) > 1 else name
            for name in dict.fromkeys(START_CARDS)
        ),
        "supply_total": sum(SUPPLY),
        "page_title": _("Rules") + " · Firenze",
    }
