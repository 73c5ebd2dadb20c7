"""The options of a new Firenze game (rules.md §3), one form field each with a sentence
of explanation: the platform's create form adds these to its own fields."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.rules.firenze.rules.data import NEUTRAL_SEALS_DEFAULT, NEUTRAL_SEALS_MAX

PLACEMENTS = [
    ("recommended", _("Recommended: at most 2 per tower, 2 or 3 of them on levels 3 and 4")),
    ("random", _("Random: on any free commission")),
    ("dead_color", _("Dead colour: all six commissions of one random colour are covered")),
]


def option_fields() -> dict[str, forms.Field]:
    """Fresh fields for each form (a form class copies them, but each form gets its own)."""
    return {
        "campanile": forms.BooleanField(
            label=_("Play with the Campanile card"),
            required=False,
            initial=False,
            help_text=_(
                "Once someone takes it, every player must first build a white bell tower of "
                "exactly 3 levels and seal the Campanile before fulfilling anything else. The "
                "rulebook leaves it out of a first game."
            ),
        ),
        "neutral_seals": forms.IntegerField(
            label=_("Neutral seals"),
            min_value=0,
            max_value=NEUTRAL_SEALS_MAX,
            initial=NEUTRAL_SEALS_DEFAULT,
            # Worded now: the fields are made per form, in the language of its request.
            help_text=gettext(
                "Grey seals that block commissions from the start (0 to %(max)s; %(default)s "
                "as in the rulebook). More seals, fewer commissions to race for. Ignored with "
                "the dead colour placement."
            )
            % {"max": NEUTRAL_SEALS_MAX, "default": NEUTRAL_SEALS_DEFAULT},
        ),
        "seal_placement": forms.ChoiceField(
            label=_("Seal placement"),
            choices=PLACEMENTS,
            initial="recommended",
            widget=forms.RadioSelect,
            help_text=_("Where the neutral seals go before the first turn; never on a balcony."),
        ),
    }


def options_from_form(data: Any) -> dict[str, Any]:
    return {name: data[name] for name in ("campanile", "neutral_seals", "seal_placement")}
