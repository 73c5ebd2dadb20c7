"""The clubs' forms: every posted value is read through one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, Club


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH, min_length=3)
    description = forms.CharField(
        label=_("What the club is about"),
        max_length=DESCRIPTION_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    door = forms.ChoiceField(
        label=_("Who may join"),
        choices=Club.Door.choices,
        initial=Club.Door.OPEN,
        widget=forms.RadioSelect,
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not any(ch.isalnum() for ch in name):
            raise forms.ValidationError(_("A club's name needs a letter or a digit."))
        return name


class PlayerNameForm(forms.Form):
    """A player named by their display name (an admin's invitation, a challenge)."""

    display_name = forms.CharField(label=_("Player's name"), max_length=150)


class MemberForm(forms.Form):
    """A member or a player at the door, by their account's id (the admins' buttons)."""

    user = forms.IntegerField(min_value=1, max_value=2**31 - 1)
