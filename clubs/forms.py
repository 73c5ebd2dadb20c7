"""The clubs' forms: every posted value is read through one."""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, Club

# Control, format (zero-width, bidi overrides), private-use, surrogate and unassigned
# characters: invisible or unreadable, they would let two names look alike or a name run
# backwards across the page.
ODD_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn"}
LINE_BREAKS = {"\n", "\r", "\t"}


def _odd(text: str, allowed: set[str] | None = None) -> bool:
    return any(
        unicodedata.category(ch) in ODD_CATEGORIES and ch not in (allowed or set()) for ch in text
    )


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
        name = unicodedata.normalize("NFC", " ".join(self.cleaned_data["name"].split()))
        if _odd(name):
            raise forms.ValidationError(
                _("A club's name may hold letters, digits, spaces and punctuation only.")
            )
        if not any(ch.isalnum() for ch in name):
            raise forms.ValidationError(_("A club's name needs a letter or a digit."))
        return name

    def clean_description(self) -> str:
        description = unicodedata.normalize("NFC", self.cleaned_data["description"])
        if _odd(description, LINE_BREAKS):
            raise forms.ValidationError(
                _("The description holds an invisible or control character; remove it.")
            )
        return description


class PlayerNameForm(forms.Form):
    """A player named by their display name (an admin's invitation, a challenge)."""

    display_name = forms.CharField(label=_("Player's name"), max_length=150)


class BackForm(forms.Form):
    """Where a door button came from: the inbox's buttons go back to the inbox."""

    back = forms.ChoiceField(choices=[("inbox", "inbox")], required=False)


class MemberForm(forms.Form):
    """A member or a player at the door, by their account's id (the admins' buttons)."""

    user = forms.IntegerField(min_value=1, max_value=2**31 - 1)
