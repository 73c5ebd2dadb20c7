"""Forms for the player account: the display name, chosen at sign-up and changed later.

The display name is what other players see (the email address never is), so it is
validated the same way everywhere: 3-24 characters, letters, digits, spaces and ``_-.``,
trimmed, unique regardless of case, not reserved for the site or seat labels ("Bot …",
"Player 3", "admin") and not a look-alike of another player's name (accounts/names.py).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from accounts.models import TIME_ZONE_MAX_LENGTH, time_zone_names
from accounts.names import CONFUSABLE_MESSAGE, RESERVED_MESSAGE, is_reserved, skeleton
from firenze_site.language import lazy_percent

DISPLAY_NAME_MIN_LENGTH = 3
DISPLAY_NAME_MAX_LENGTH = 24  # the length of User.display_name

DISPLAY_NAME_TAKEN = _("That display name is taken.")
DISPLAY_NAME_TOO_SHORT = lazy_percent(
    _("A display name needs at least %(min)s characters."), min=DISPLAY_NAME_MIN_LENGTH
)
DISPLAY_NAME_TOO_LONG = lazy_percent(
    _("A display name can have at most %(max)s characters."), max=DISPLAY_NAME_MAX_LENGTH
)
DISPLAY_NAME_HELP = lazy_percent(
    _("What other players see. %(min)s-%(max)s characters: letters, digits, spaces and _ - ."),
    min=DISPLAY_NAME_MIN_LENGTH,
    max=DISPLAY_NAME_MAX_LENGTH,
)

# \w is Unicode-aware: letters and digits of any script, plus the underscore.
_ALLOWED_CHARACTERS = re.compile(r"[\w .-]+")


def normalize_display_name(value: str) -> str:
    """Trim, fold look-alike Unicode forms (NFKC) and collapse runs of spaces."""
    value = unicodedata.normalize("NFKC", value or "").strip()
    return re.sub(r" {2,}", " ", value)


def validate_display_name_characters(value: str) -> None:
    if not _ALLOWED_CHARACTERS.fullmatch(value):
        raise forms.ValidationError(
            _("Use only letters, digits, spaces and the characters _ - ."), code="invalid"
        )
    if not any(character.isalnum() for character in value):
        raise forms.ValidationError(
            _("A display name needs at least one letter or digit."), code="invalid"
        )


def _others(exclude_user=None):
    others = get_user_model().objects.all()
    if exclude_user is not None and exclude_user.pk is not None:
        others = others.exclude(pk=exclude_user.pk)
    return others


def display_name_taken(name: str, *, exclude_user=None) -> bool:
    """Whether another account already uses this name, ignoring case."""
    return _others(exclude_user).filter(display_name__iexact=name).exists()


def display_name_confusable(name: str, *, exclude_user=None) -> bool:
    """Whether another account's name looks the same (Cyrillic а for a, l for I, 0 for O...)."""
    return _others(exclude_user).filter(display_name_skeleton=skeleton(name)).exists()


class DisplayNameField(forms.CharField):
    default_error_messages = {
        "required": _("Choose a display name."),
    }

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("label", _("Display name"))
        kwargs.setdefault("help_text", DISPLAY_NAME_HELP)
        super().__init__(
            min_length=DISPLAY_NAME_MIN_LENGTH,
            max_length=DISPLAY_NAME_MAX_LENGTH,
            strip=True,
            validators=[validate_display_name_characters],
            error_messages={
                "min_length": DISPLAY_NAME_TOO_SHORT,
                "max_length": DISPLAY_NAME_TOO_LONG,
            },
            **kwargs,
        )
        self.widget.attrs.update(
            {"autocomplete": "nickname", "placeholder": _("Display name"), "spellcheck": "false"}
        )

    def to_python(self, value):
        return normalize_display_name(super().to_python(value) or "")


class DisplayNameMixin:
    """Adds the case-insensitive uniqueness check; ``display_name_owner`` may keep theirs."""

    display_name_owner = None
    cleaned_data: dict[str, Any]  # a mixin of forms

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        owner = self.display_name_owner
        if is_reserved(name) and not (owner is not None and owner.display_name == name):
            raise forms.ValidationError(RESERVED_MESSAGE, code="reserved")
        if display_name_taken(name, exclude_user=owner):
            raise forms.ValidationError(DISPLAY_NAME_TAKEN, code="taken")
        if display_name_confusable(name, exclude_user=owner):
            raise forms.ValidationError(CONFUSABLE_MESSAGE, code="confusable")
        return name


def time_zone_choices() -> list[tuple[str, Any]]:
    return [("", _("UTC (not set)"))] + [
        (name, name.replace("_", " ")) for name in sorted(time_zone_names())
    ]


class BrowserTimeZoneField(forms.CharField):
    """The zone the browser reports (static/js/site.js fills the hidden field); anything that
    is not a known zone name is dropped rather than refused: sign-up must not fail on it."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs) -> None:
        super().__init__(max_length=None, required=False, **kwargs)

    def to_python(self, value) -> str:
        value = super().to_python(value)
        if len(value) > TIME_ZONE_MAX_LENGTH or value not in time_zone_names():
            return ""
        return value


class SignupForm(DisplayNameMixin, AllauthSignupForm):
    """allauth's sign-up form (email, password twice) plus the display name, and the
    browser's time zone.

    The adapter (accounts/adapter.py) copies the name and zone onto the new user before it is
    first saved, so the username allauth needs internally is derived from the name, not from
    the email.
    """

    display_name = DisplayNameField()
    time_zone = BrowserTimeZoneField()
    field_order = ["email", "display_name", "password1", "password2", "time_zone"]


class DisplayNameForm(DisplayNameMixin, forms.Form):
    """Changes the display name on the account page."""

    display_name = DisplayNameField()

    def __init__(self, *args, user, **kwargs) -> None:
        self.display_name_owner = user
        kwargs.setdefault("initial", {"display_name": user.display_name})
        super().__init__(*args, **kwargs)


class TimeZoneForm(forms.ModelForm):
    """The time zone times are shown in, on the site and in emails."""

    class Meta:
        model = get_user_model()
        fields = ["time_zone"]
        help_texts = {"time_zone": _("Times on the site and in your emails use this zone.")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].widget = forms.Select(choices=time_zone_choices())


class LanguageForm(forms.ModelForm):
    """The language of the site and of the player's emails (account page)."""

    class Meta:
        model = get_user_model()
        fields = ["language"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["language"]
        assert isinstance(field, forms.ChoiceField)
        field.required = True
        field.choices = settings.LANGUAGES
        field.error_messages["required"] = _("Choose a language.")
        if not self.instance.language:
            self.initial["language"] = get_language()


class SwitchLanguageForm(forms.Form):
    """The footer switcher: a language and the page to go back to."""

    language = forms.ChoiceField(choices=settings.LANGUAGES)
    next = forms.CharField(required=False, max_length=2000)
