"""Forms of the table talk: every posted value goes through one (hostile input gets a clear
error, never a 500). The message text itself is checked by chat.services.clean_text."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from chat.models import MAX_LENGTH
from chat.services import ChatError, clean_text
from firenze_site.language import lazy_percent

# Far above any real message, so a 10,000-character post is refused by clean_text with the
# real limit in its sentence; anything bigger is cut off by this field first.
RAW_LIMIT = 20 * MAX_LENGTH


class MessageForm(forms.Form):
    text = forms.CharField(
        strip=False,
        max_length=RAW_LIMIT,
        error_messages={
            "required": _("Write something first."),
            "max_length": lazy_percent(
                _("A message can have at most %(max)s characters."), max=MAX_LENGTH
            ),
        },
    )

    def clean_text(self) -> str:
        try:
            return clean_text(self.cleaned_data["text"])
        except ChatError as exc:
            raise forms.ValidationError(exc.message) from None


class ReportForm(forms.Form):
    reason = forms.CharField(
        label=_("What is wrong with it? (optional)"),
        required=False,
        max_length=MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": MAX_LENGTH}),
    )


class GameField(forms.Form):
    """The game an unmute came from (to go back to it); optional."""

    game = forms.IntegerField(required=False, min_value=1, max_value=2**62)
