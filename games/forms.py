"""Every value posted to the games app is read here, through a form: the create-game form
(name, players, time limit, visibility and auto-start, plus the options of the game's
engine, each explained in a sentence), moves and undos, lobby actions, invitations,
resignations and absences. Nothing a client sends reaches the game code unparsed: a version
is 1-9 ASCII digits, a move a short JSON object of bounded depth, a date within reach, an id
a bounded integer; anything else is a form error with a message for the player.
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import date, timedelta
from typing import Any

from django import forms
from django.core.validators import validate_email
from django.utils import dateformat, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from bots.forms import bot_level_field
from firenze_site.language import lazy_percent
from games.models import GAME_NAME_MAX_LENGTH, TIME_LIMITS
from games.rules import protocol, registry

LIMIT_CHOICES = [(str(int(limit.total_seconds())), text) for limit, text in TIME_LIMITS]


def clean_game_name(value: str) -> str:
    """Printable text on one line: NFKC, no control or format characters, single spaces."""
    value = unicodedata.normalize("NFKC", value or "")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in value):
        raise forms.ValidationError(_("Use letters, digits, spaces and punctuation only."))
    return re.sub(r"\s+", " ", value).strip()


class CreateGameForm(forms.Form):
    name = forms.CharField(
        label=_("Name (optional)"),
        max_length=GAME_NAME_MAX_LENGTH,
        required=False,
        help_text=_("Shown instead of the game's number, e.g. “Friday towers”."),
    )
    num_players = forms.TypedChoiceField(label=_("Players"), choices=[], coerce=int, initial=3)
    time_limit = forms.ChoiceField(
        label=_("Time per turn"),
        choices=LIMIT_CHOICES,
        initial=str(3 * 86400),
        help_text=_("After that the bot plays the turn; the clock stops while a player is away."),
    )
    is_public = forms.TypedChoiceField(
        label=_("Who may join"),
        choices=[("1", _("Anyone (listed in the lobby)")), ("0", _("Invited players only"))],
        coerce=lambda v: v == "1",
        initial="1",
    )
    auto_start = forms.BooleanField(
        label=_("Start as soon as every seat is taken"),
        required=False,
        initial=True,
        help_text=_("Otherwise you get an email when the table is full, and start it yourself."),
    )

    def __init__(self, *args: Any, engine: protocol.Engine | None = None, **kwargs: Any) -> None:
        """The platform's fields with the engine's options after the player count."""
        super().__init__(*args, **kwargs)
        self.engine = engine or registry.default()
        counts = range(self.engine.min_players, self.engine.max_players + 1)
        self.fields["num_players"].choices = [(n, str(n)) for n in counts]
        fields = list(self.fields.items())
        at = [name for name, _ in fields].index("num_players") + 1
        option_fields = list(self.engine.option_fields().items())
        self.fields = dict(fields[:at] + option_fields + fields[at:])
        self.option_names = [name for name, _ in option_fields]
        self.bot_seat_names = []
        for number in range(2, self.engine.max_players + 1):  # seat 1 is the creator's
            name = f"bot_seat_{number}"
            self.fields[name] = bot_level_field(
                self.engine,
                label=lazy_percent(_("Seat %(number)s"), number=number),
                blank=_("A person (an open seat)"),
                help_text=_(
                    "Or a bot of this level; seats beyond the number of players stay empty."
                )
                if number == self.engine.max_players
                else "",
            )
            self.bot_seat_names.append(name)

    def clean_name(self) -> str:
        return clean_game_name(self.cleaned_data["name"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = data.get("num_players")
        if players:
            for name in self.bot_seat_names[players - 1 :]:
                if data.get(name):
                    self.add_error(
                        name, _("This game has only %(players)s seats.") % {"players": players}
                    )
        return data

    def options(self) -> dict[str, Any]:
        return self.engine.options_from_form(self.cleaned_data)

    def bot_levels(self) -> list[str]:
        """The levels of the bots to seat at once, one per seat chosen (in seat order)."""
        players = self.cleaned_data["num_players"]
        names = self.bot_seat_names[: players - 1]
        return [self.cleaned_data[name] for name in names if self.cleaned_data.get(name)]


class InviteForm(forms.Form):
    """A display name, or an email address (anything with an @)."""

    display_name = forms.CharField(
        label=_("Display name or email address"),
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
        label=_("Yes, I resign this game"),
        error_messages={"required": _("Tick the box to resign.")},
    )


# --- moves --------------------------------------------------------------------------------

MOVE_NOT_READ = _("The move could not be read; reload the page and try again.")
VERSION_MISSING = _("The move has no version; reload the page and try again.")
VERSION_NOT_READ = _("The move's version could not be read; reload the page and try again.")
# A legal action is a flat object of a few short values: room to spare, but bounded.
MAX_ACTION_LENGTH = 1000
MAX_ACTION_DEPTH = 4


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in a JSON text (strings skipped), without parsing
    it: the parser would recurse once per level, and thousands of levels exhaust the stack."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class VersionField(forms.RegexField):
    """The game version a page was drawn at: 1-9 ASCII digits (not "²", not 5,000 digits)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            regex=r"\A[0-9]{1,9}\Z",
            max_length=9,
            error_messages={
                "required": VERSION_MISSING,
                "invalid": VERSION_NOT_READ,
                "max_length": VERSION_NOT_READ,
            },
            **kwargs,
        )

    def clean(self, value: Any) -> int:
        return int(super().clean(value))


class VersionForm(forms.Form):
    """An undo: the version it was asked at, so a second click cannot take back two steps."""

    version = VersionField()

    def first_error(self) -> str:
        return next(iter(e for errors in self.errors.values() for e in errors))


class MoveForm(VersionForm):
    """A move: the action as JSON and the version it was chosen at (required: a move without
    one could be applied twice by a double submission)."""

    action = forms.CharField(
        strip=False,
        max_length=MAX_ACTION_LENGTH,
        error_messages={"required": MOVE_NOT_READ, "max_length": MOVE_NOT_READ},
    )
    field_order = ["action", "version"]

    def clean_action(self) -> Any:
        raw = self.cleaned_data["action"]
        if json_depth(raw) > MAX_ACTION_DEPTH:
            raise forms.ValidationError(MOVE_NOT_READ)
        try:
            action = json.loads(raw)
        except ValueError:
            raise forms.ValidationError(MOVE_NOT_READ) from None
        if action is None:
            raise forms.ValidationError(MOVE_NOT_READ)
        return action


# --- lobby ----------------------------------------------------------------------------------


class TokenForm(forms.Form):
    """The invite link's token, posted with the join form; absent for public games."""

    token = forms.CharField(required=False, max_length=64)


# --- absences -------------------------------------------------------------------------------

# An absence starts at most this far ahead (and the date arithmetic stays far from year 9999).
ABSENCE_HORIZON = timedelta(days=2 * 365)


class AbsenceForm(forms.Form):
    first_day = forms.DateField(
        label=_("First day away"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label=_("Last day away"), widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        latest = timezone.localdate() + ABSENCE_HORIZON
        for name in ("first_day", "last_day"):
            day: date | None = data.get(name)
            if day is not None and day > latest:
                text = gettext("Choose a day before %(day)s (two years ahead).")
                day_text = dateformat.format(latest, gettext("j F Y"))
                self.add_error(name, text % {"day": day_text})
        return data


class CancelAbsenceForm(forms.Form):
    cancel = forms.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        error_messages={
            "required": _("Say which absence to cancel."),
            "invalid": _("There is no such absence to cancel."),
            "min_value": _("There is no such absence to cancel."),
            "max_value": _("There is no such absence to cancel."),
        },
    )
