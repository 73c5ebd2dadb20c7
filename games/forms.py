"""The create-game form: every option of RULINGS section 3 plus time limit and visibility."""

from __future__ import annotations

from typing import Any

from django import forms

from games.models import TIME_LIMITS
from games.rules.data import NEUTRAL_SEALS_DEFAULT, NEUTRAL_SEALS_MAX

LIMIT_CHOICES = [(str(int(limit.total_seconds())), text) for limit, text in TIME_LIMITS]
PLACEMENTS = [
    ("recommended", "Recommended (at most 2 per tower, 2-3 on levels 3 and 4)"),
    ("random", "Random (any free commission)"),
    ("dead_color", "Dead colour (one colour fully covered)"),
]


class CreateGameForm(forms.Form):
    num_players = forms.TypedChoiceField(
        label="Players", choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=3
    )
    campanile = forms.BooleanField(
        label="Play with the Campanile card", required=False, initial=False
    )
    neutral_seals = forms.IntegerField(
        label="Neutral seals",
        min_value=0,
        max_value=NEUTRAL_SEALS_MAX,
        initial=NEUTRAL_SEALS_DEFAULT,
    )
    seal_placement = forms.ChoiceField(label="Seal placement", choices=PLACEMENTS)
    time_limit = forms.ChoiceField(
        label="Time per turn", choices=LIMIT_CHOICES, initial=str(3 * 86400)
    )
    is_public = forms.TypedChoiceField(
        label="Who may join",
        choices=[("1", "Anyone (listed in the lobby)"), ("0", "Invited players only")],
        coerce=lambda v: v == "1",
        initial="1",
    )

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "campanile": data["campanile"],
            "neutral_seals": data["neutral_seals"],
            "seal_placement": data["seal_placement"],
        }


class InviteForm(forms.Form):
    display_name = forms.CharField(label="Invite a player by display name", max_length=40)


class AbsenceForm(forms.Form):
    first_day = forms.DateField(
        label="First day away", widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label="Last day away", widget=forms.DateInput(attrs={"type": "date"})
    )
