"""The options of a new Firenze game (rules.md §3), one form field each with a sentence
of explanation: the platform's create form adds these to its own fields."""

from __future__ import annotations

from typing import Any

from django import forms

from firenze.rules.data import NEUTRAL_SEALS_DEFAULT, NEUTRAL_SEALS_MAX

PLACEMENTS = [
    ("recommended", "Recommended: at most 2 per tower, 2 or 3 of them on levels 3 and 4"),
    ("random", "Random: on any free commission"),
    ("dead_color", "Dead colour: all six commissions of one random colour are covered"),
]


def option_fields() -> dict[str, forms.Field]:
    """Fresh fields (a form class copies them, but each form gets its own to be safe)."""
    return {
        "campanile": forms.BooleanField(
            label="Play with the Campanile card",
            required=False,
            initial=False,
            help_text="Once someone takes it, every player must first build a white bell tower "
            "of exactly 3 levels and seal the Campanile before fulfilling anything else. The "
            "rulebook leaves it out of a first game.",
        ),
        "neutral_seals": forms.IntegerField(
            label="Neutral seals",
            min_value=0,
            max_value=NEUTRAL_SEALS_MAX,
            initial=NEUTRAL_SEALS_DEFAULT,
            help_text=f"Grey seals that block commissions from the start (0 to "
            f"{NEUTRAL_SEALS_MAX}; {NEUTRAL_SEALS_DEFAULT} as in the rulebook). More seals, "
            "fewer commissions to race for. Ignored with the dead colour placement.",
        ),
        "seal_placement": forms.ChoiceField(
            label="Seal placement",
            choices=PLACEMENTS,
            initial="recommended",
            widget=forms.RadioSelect,
            help_text="Where the neutral seals go before the first turn; never on a balcony.",
        ),
    }


def options_from_form(data: Any) -> dict[str, Any]:
    return {name: data[name] for name in ("campanile", "neutral_seals", "seal_placement")}
