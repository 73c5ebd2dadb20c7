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

from firenze_site.language import lazy_percent
from games import timecontrol
from games.models import GAME_NAME_MAX_LENGTH, TIME_LIMITS
from games.rules import protocol, registry
from games.timecontrol import TimeControl

LIMIT_CHOICES = [(str(int(limit.total_seconds())), text) for limit, text in TIME_LIMITS]
HOURS = timedelta(hours=1)
DAYS = timedelta(days=1)


def _choices(durations: list[timedelta]) -> list[tuple[str, Any]]:
    """Durations offered by seconds, worded when the form is drawn (in the reader's language)."""
    return [(str(int(d.total_seconds())), _Words(d)) for d in durations]


class _Words:
    """A duration's words, looked up lazily (choices are built once, read in any language)."""

    def __init__(self, value: timedelta) -> None:
        self.value = value

    def __str__(self) -> str:
        return timecontrol.duration_words(self.value)


BANK_CHOICES = _choices([d * DAYS for d in (1, 2, 3, 5, 7, 10, 14, 21, 30)])
BONUS_CHOICES = _choices([1 * HOURS, 3 * HOURS, 6 * HOURS, 12 * HOURS, DAYS, 2 * DAYS, 3 * DAYS])
CAP_CHOICES = [("", _("As much as it started with"))] + _choices(
    [d * DAYS for d in (3, 5, 7, 10, 14, 21, 30, 60)]
)


class _Weekday:
    def __init__(self, day: int) -> None:
        self.day = day

    def __str__(self) -> str:
        return timecontrol.weekday_name(self.day)


WEEKDAY_CHOICES = [(str(day), _Weekday(day)) for day in range(7)]


class ClockForm(forms.Form):
    """A game's time control (games.timecontrol.TimeControl), as the create form asks for it:
    the mode, its durations and the days off. Tournaments reuse it (a prefix keeps its names
    apart); `time_control()` gives the value once the form is valid."""

    clock_mode = forms.ChoiceField(
        label=_("Clock"),
        choices=[
            (timecontrol.PER_TURN, _("Per turn: the same time for every turn")),
            (
                timecontrol.BANK,
                _("Time bank: a reserve for the whole game, topped up after every turn"),
            ),
        ],
        initial=timecontrol.PER_TURN,
        required=False,  # left out (an older client): per turn
        widget=forms.RadioSelect,
        help_text=_(
            "Either way the bot plays a turn whose time runs out, and keeps the seat after "
            "three in a row until its player takes it back; the clock stops while a player is "
            "away."
        ),
    )
    time_limit = forms.ChoiceField(
        label=_("Time per turn"),
        choices=LIMIT_CHOICES,
        initial=str(3 * 86400),
        help_text=_("Per turn: every turn starts with this much time."),
    )
    bank = forms.ChoiceField(
        label=_("Starting time bank"),
        choices=BANK_CHOICES,
        initial=str(5 * 86400),
        required=False,
        help_text=_("Time bank: each player's reserve; it runs only on their own turns."),
    )
    bonus = forms.ChoiceField(
        label=_("Added after each turn"),
        choices=BONUS_CHOICES,
        initial=str(86400),
        required=False,
    )
    bank_cap = forms.ChoiceField(
        label=_("Most a bank can hold"),
        choices=CAP_CHOICES,
        initial="",
        required=False,
    )
    days_off = forms.MultipleChoiceField(
        label=_("Days off"),
        choices=WEEKDAY_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "The clock rests on these days, midnight to midnight in each player's own time "
            "zone. Tick Saturday and Sunday for weekends off, or any two days."
        ),
    )
    CLOCK_FIELDS = ("clock_mode", "time_limit", "bank", "bonus", "bank_cap", "days_off")
    BANK_FIELDS = ("bank", "bonus", "bank_cap")

    def clean_days_off(self) -> tuple[int, ...]:
        days = tuple(sorted({int(day) for day in self.cleaned_data["days_off"]}))
        if len(days) > timecontrol.MAX_DAYS_OFF:
            raise forms.ValidationError(_("Pick at most two days off."))
        return days

    def clean(self) -> dict[str, Any]:
        """Fields left out take their defaults (the form's initial values)."""
        super().clean()
        data = self.cleaned_data
        for name in ("clock_mode", "bank", "bonus"):
            if name in data and not data[name]:
                data[name] = self.fields[name].initial
        bank, cap = data.get("bank"), data.get("bank_cap")
        if data.get("clock_mode") == timecontrol.BANK and bank and cap and int(cap) < int(bank):
            self.add_error("bank_cap", _("A bank cannot hold less than it starts with: pick more."))
        return data

    def time_control(self) -> TimeControl:
        """The settings chosen (once the form is valid)."""
        data = self.cleaned_data
        bank = timedelta(seconds=int(data["bank"]))
        return TimeControl(
            mode=data["clock_mode"],
            per_turn=timedelta(seconds=int(data["time_limit"])),
            bank=bank,
            bonus=timedelta(seconds=int(data["bonus"])),
            cap=timedelta(seconds=int(data["bank_cap"])) if data.get("bank_cap") else bank,
            days_off=data.get("days_off", ()),
        )


def clean_game_name(value: str) -> str:
    """Printable text on one line: NFKC, no control or format characters, single spaces."""
    value = unicodedata.normalize("NFKC", value or "")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in value):
        raise forms.ValidationError(_("Use letters, digits, spaces and punctuation only."))
    return re.sub(r"\s+", " ", value).strip()


def game_choices() -> list[tuple[str, str]]:
    """The games new tables may play (registry.current), by engine name and title."""
    return [(engine.name, engine.look.title) for engine in registry.current()]


class GameChoiceForm(forms.Form):
    """Which of the site's games a page is about (?game=nim): the create form and the rules
    page. Missing or unknown: the site's default game."""

    game = forms.ChoiceField(choices=game_choices)

    def engine(self) -> protocol.Engine:
        if self.is_valid():
            return registry.get(self.cleaned_data["game"])
        return registry.default()


def chosen_engine(params: Any) -> protocol.Engine:
    return GameChoiceForm({"game": params.get("game", "")}).engine()


class CreateGameForm(ClockForm):
    name = forms.CharField(
        label=_("Name (optional)"),
        max_length=GAME_NAME_MAX_LENGTH,
        required=False,
        help_text=_("Shown instead of the game's number, e.g. “Friday towers”."),
    )
    num_players = forms.TypedChoiceField(label=_("Players"), choices=[], coerce=int, initial=3)
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
        """The platform's fields with the engine's options after the player count; with
        several games on the site, the chosen one rides along (`game`, see chosen_engine)."""
        super().__init__(*args, **kwargs)
        self.engine = engine or registry.default()
        if len(registry.current()) > 1:
            self.fields["game"] = forms.ChoiceField(  # read by chosen_engine: the default if none
                choices=game_choices,
                initial=self.engine.name,
                required=False,
                widget=forms.HiddenInput,
            )
        counts = range(self.engine.min_players, self.engine.max_players + 1)
        players = self.fields["num_players"]
        assert isinstance(players, forms.TypedChoiceField)
        players.choices = [(n, str(n)) for n in counts]
        fields = [(n, f) for n, f in self.fields.items() if n not in self.CLOCK_FIELDS]
        at = [name for name, _ in fields].index("num_players") + 1
        option_fields = list(self.engine.option_fields().items())
        clock = [(name, self.fields[name]) for name in self.CLOCK_FIELDS]
        self.fields = dict(fields[:at] + option_fields + clock + fields[at:])
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
                if number == 2  # the one seat field every player count shows
                else "",
            )
            self.bot_seat_names.append(name)

    def field_groups(self) -> dict[str, list[forms.BoundField]]:
        """The fields in the order drawn: the game, its clock (under its own heading), who
        may join."""
        names = [name for name in self.fields if not self[name].is_hidden]
        first, last = names.index(self.CLOCK_FIELDS[0]), names.index(self.CLOCK_FIELDS[-1])
        return {
            "game": [self[name] for name in names[:first]],
            "clock": [self[name] for name in names[first : last + 1]],
            "table": [self[name] for name in names[last + 1 :]],
        }

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
        return str(next(iter(e for errors in self.errors.values() for e in errors)))


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
        data = super().clean() or {}
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


class RevokeForm(forms.Form):
    """Which invitation the creator withdraws; none: the game's shared link is replaced."""

    invitation = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=2**63 - 1,
        error_messages={
            "invalid": _("There is no such invitation to withdraw."),
            "min_value": _("There is no such invitation to withdraw."),
            "max_value": _("There is no such invitation to withdraw."),
        },
    )


class BotsNowForm(forms.Form):
    """ "Play against bots now": how many players in all (the bots fill the other seats) and
    the bots' level (the engine's default, Standard, unless chosen)."""

    num_players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[],
        coerce=int,
        initial=2,
        error_messages={"invalid_choice": _("Choose how many players, bots included.")},
    )

    def __init__(self, *args: Any, engine: protocol.Engine | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        engine = engine or registry.default()
        counts = range(engine.min_players, engine.max_players + 1)
        players = self.fields["num_players"]
        assert isinstance(players, forms.TypedChoiceField)
        players.choices = [(n, str(n)) for n in counts]
        self.fields["level"] = bot_level_field(engine, label=_("The bots' level"))
        self.fields["level"].required = False  # left out (an older page): the default level

    def clean_level(self) -> str:
        return str(self.cleaned_data.get("level") or self.fields["level"].initial)


# --- bot levels: the one field offering an engine's levels (create form, "Seat a bot", quick
# play, the takeover preference in bots.forms) ------------------------------------------------


def level_choices(engine: protocol.Engine) -> list[tuple[str, Any]]:
    """(key, name in the reader's language) for each of the engine's levels, weakest first."""
    return [(level.key, level.label) for level in engine.bot_levels]


def bot_level_field(
    engine: protocol.Engine,
    *,
    label: Any = None,
    blank: Any = None,
    initial: str | None = None,
    help_text: Any = "",
) -> forms.ChoiceField:
    """A choice of the engine's bot levels; with `blank`, an empty choice first (labelled so)."""
    choices = level_choices(engine)
    if blank is not None:
        choices = [("", blank), *choices]
    return forms.ChoiceField(
        label=label if label is not None else _("Bot level"),
        choices=choices,
        required=blank is None,
        initial=initial
        if initial is not None
        else ("" if blank is not None else engine.default_bot),
        help_text=help_text,
    )


class BotLevelForm(forms.Form):
    """The level of a bot the creator seats (games: Seat a bot)."""

    def __init__(self, *args: Any, engine: protocol.Engine | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine or registry.default()
        self.fields["level"] = bot_level_field(self.engine)
