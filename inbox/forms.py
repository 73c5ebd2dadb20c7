"""What the player's desk reads from requests: a note's text, a calendar action."""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from inbox.models import NOTE_MAX_LENGTH


class NoteForm(forms.Form):
    text = forms.CharField(
        label=_("Your notes (only you can see them)"),
        required=False,
        strip=False,
        max_length=NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "true"}),
        error_messages={"max_length": _("Notes can be at most %(limit_value)d characters long.")},
    )

    def clean_text(self) -> str:
        """Printable text and line breaks: no NUL or other control characters."""
        text = self.cleaned_data["text"].replace("\r\n", "\n")
        if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in text):
            raise forms.ValidationError(_("The notes contain characters that cannot be saved."))
        if any(unicodedata.category(c) == "Cs" for c in text):
            raise forms.ValidationError(_("The notes contain characters that cannot be saved."))
        return text


class CalendarForm(forms.Form):
    calendar = forms.ChoiceField(
        choices=[("on", "on"), ("renew", "renew"), ("off", "off")],
        error_messages={
            "required": _("Say what to do with the calendar address."),
            "invalid_choice": _("Say what to do with the calendar address."),
        },
    )
