"""Forms of the lobby: creating a game (every option of RULINGS section 3, explained in a
sentence each, plus name, time limit, visibility and auto-start), inviting, absences."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django import forms
from django.core.validators import validate_email

from games.models import GAME_NAME_MAX_LENGTH, TIME_LIMITS
from games.rules.data import NEUTRAL_SEALS_DEFAULT, NEUTRAL_SEALS_MAX

LIMIT_CHOICES = [(str(int(limit.total_seconds())), text) for limit, text in TIME_LIMITS]
PLACEMENTS = [
    ("recommended", "Recommended: at most 2 per tower, 2 or 3 of them on levels 3 and 4"),
    ("random", "Random: on any free commission"),
    ("dead_color", "Dead colour: all six commissions of one random colour are covered"),
]


def clean_game_name(value: str) -> str:
    """Printable text on one line: NFKC, no control or format characters, single spaces."""
    value = unicodedata.normalize("NFKC", value or "")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in value):
        raise forms.ValidationError("Use letters, digits, spaces and punctuation only.")
    return re.sub(r"\s+", " ", value).strip()


class CreateGameForm(forms.Form):
    name = forms.CharField(
        label="Name (optional)",
        max_length=GAME_NAME_MAX_LENGTH,
        required=False,
        help_text="Shown instead of the game's number, e.g. “Friday towers”.",
    )
    num_players = forms.TypedChoiceField(
        label="Players", choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=3
    )
    campanile = forms.BooleanField(
        label="Play with the Campanile card",
        required=False,
        initial=False,
        help_text="Once someone takes it, every player must first build a white bell tower of "
        "exactly 3 levels and seal the Campanile before fulfilling anything else. The rulebook "
        "leaves it out of a first game.",
    )
    neutral_seals = forms.IntegerField(
        label="Neutral seals",
        min_value=0,
        max_value=NEUTRAL_SEALS_MAX,
        initial=NEUTRAL_SEALS_DEFAULT,
        help_text=f"Grey seals that block commissions from the start (0 to {NEUTRAL_SEALS_MAX}"
        f"; {NEUTRAL_SEALS_DEFAULT} as in the rulebook). More seals, fewer commissions to race "
        "for. Ignored with the dead colour placement.",
    )
    seal_placement = forms.ChoiceField(
        label="Seal placement",
        choices=PLACEMENTS,
        initial="recommended",
        widget=forms.RadioSelect,
        help_text="Where the neutral seals go before the first turn; never on a balcony.",
    )
    time_limit = forms.ChoiceField(
        label="Time per turn",
        choices=LIMIT_CHOICES,
        initial=str(3 * 86400),
        help_text="After that the bot plays the turn; the clock stops while a player is away.",
    )
    is_public = forms.TypedChoiceField(
        label="Who may join",
        choices=[("1", "Anyone (listed in the lobby)"), ("0", "Invited players only")],
        coerce=lambda v: v == "1",
        initial="1",
    )
    auto_start = forms.BooleanField(
        label="Start as soon as every seat is taken",
        required=False,
        initial=True,
        help_text="Otherwise you get an email when the table is full, and start it yourself.",
    )

    def clean_name(self) -> str:
        return clean_game_name(self.cleaned_data["name"])

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "campanile": data["campanile"],
            "neutral_seals": data["neutral_seals"],
            "seal_placement": data["seal_placement"],
        }


class InviteForm(forms.Form):
    """A display name, or an email address (anything with an @)."""

    display_name = forms.CharField(
        label="Display name or email address",
        max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )

    def clean_display_name(self) -> str:
        value = self.cleaned_data["display_name"].strip()
        if "@" in value:
            validate_email(value)
        return value

    @property
    def email(self) -> str:
        value = self.cleaned_data.get("display_name", "")
        return value if "@" in value else ""


class ResignForm(forms.Form):
    confirm = forms.BooleanField(
        label="Yes, I resign this game", error_messages={"required": "Tick the box to resign."}
    )


class AbsenceForm(forms.Form):
    first_day = forms.DateField(
        label="First day away", widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label="Last day away", widget=forms.DateInput(attrs={"type": "date"})
    )
