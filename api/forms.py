"""The forms of the API tokens page: a new token (name and access) and the bot-account switch."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from api.models import ApiToken
from games.forms import clean_game_name


class NewTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=40,
        help_text=_("What the token is for, e.g. “Discord bot” or “my phone”."),
        error_messages={"required": _("Give the token a name.")},
    )
    scope = forms.ChoiceField(
        label=_("Access"),
        choices=ApiToken.Scope.choices,
        initial=ApiToken.Scope.READ,
        widget=forms.RadioSelect,
        help_text=_("Read: see your games. Read and play: also move, talk and join games."),
    )

    def clean_name(self) -> str:
        name = clean_game_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the token a name."))
        return name


class BotAccountForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("Yes, this account is for a program, for good"),
        error_messages={"required": _("Tick the box to turn the account into a bot account.")},
    )
