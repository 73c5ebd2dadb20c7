"""Every value posted to tournaments is read here, through a form.

The create form is the create-game form (games.forms.CreateGameForm) with the tournament's own
fields: the engine's options and the time control (games.forms.ClockForm: per turn or a time
bank, days off) come from that form unchanged, so a tournament's games get whatever the games
gain there. Hostile input gets a specific
error: a sign-up window in the past or years ahead, a rating range upside down, ten thousand
players, a knock-out at 4-player tables.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.forms import CreateGameForm, clean_game_name
from games.rules import registry
from tournaments.models import DESCRIPTION_MAX_LENGTH, NAME_MAX_LENGTH, Tournament
from tournaments.schedules import MAX_GROUP

MAX_PLAYERS = 1024
MAX_ROUNDS = 15
RATING_LIMIT = 5000
SIGNUP_AT_LEAST = timedelta(minutes=10)
SIGNUP_AT_MOST = timedelta(days=90)
TABLE_SIZES = (2, 3, 4)
FORMATS = [
    (Tournament.Format.SWISS, _("Swiss: every round, tables of players with the same score")),
    (
        Tournament.Format.GROUPS,
        _("Round robin in groups: everyone in a group meets everyone, all games at once"),
    ),
    (Tournament.Format.KNOCKOUT, _("Knock-out: 2-player games, the winner goes through")),
]


def _bounded_int(label: Any, low: int, high: int, **kwargs: Any) -> forms.IntegerField:
    words = {"low": low, "high": high}
    message = _("Enter a whole number from %(low)s to %(high)s.")
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        error_messages={
            "invalid": message % words,
            "min_value": message % words,
            "max_value": message % words,
        },
        **kwargs,
    )


class TournamentForm(CreateGameForm):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    description = forms.CharField(
        label=_("Description (optional)"),
        max_length=DESCRIPTION_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Who it is for, prizes, anything players should know."),
    )
    format = forms.ChoiceField(
        label=_("Format"), choices=FORMATS, initial="swiss", widget=forms.RadioSelect
    )
    rounds = _bounded_int(
        _("Rounds (Swiss)"),
        1,
        MAX_ROUNDS,
        required=False,
        initial=5,
        help_text=_("Each round starts when every game of the one before has ended."),
    )
    group_size = _bounded_int(
        _("Players per group (round robin)"),
        2,
        max(MAX_GROUP.values()),
        required=False,
        initial=4,
        help_text=_("At most 8 at 2-player tables, 6 at 3- or 4-player tables."),
    )
    final_table = forms.BooleanField(
        label=_("Then a final table of the group winners (round robin)"),
        required=False,
        help_text=_("The winners of two to four groups play one more game for the top places."),
    )
    max_players = _bounded_int(
        _("Most players"),
        2,
        MAX_PLAYERS,
        initial=32,
        help_text=_("Sign-up stops when this many have signed up (at most 1024)."),
    )
    signup_closes = forms.DateTimeField(
        label=_("Sign-up closes"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("In your time zone. The first round starts then."),
        error_messages={"invalid": _("Enter a date and time, e.g. 2030-05-17 18:00.")},
    )
    min_rating = _bounded_int(_("Lowest rating (optional)"), 0, RATING_LIMIT, required=False)
    max_rating = _bounded_int(
        _("Highest rating (optional)"),
        0,
        RATING_LIMIT,
        required=False,
        help_text=_("Players without a rating count as newcomers (about 1000)."),
    )
    min_finished = _bounded_int(
        _("Least share of games finished, in percent (optional)"),
        0,
        100,
        required=False,
        help_text=_("New players, with too few games to show a share, cannot sign up then."),
    )

    FIELD_ORDER = [
        "name", "description", "format", "num_players", "*options", "*clock", "rounds",
        "group_size", "final_table", "max_players", "signup_closes", "min_rating",
        "max_rating", "min_finished", "is_public",
    ]  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["auto_start"]
        engine = self.engine
        sizes = [n for n in TABLE_SIZES if engine.min_players <= n <= engine.max_players]
        table = self.fields["num_players"]
        table.label = _("Players per table")
        table.choices = [(n, str(n)) for n in sizes]  # type: ignore[attr-defined]
        table.initial = 2
        public = self.fields["is_public"]
        public.label = _("Who may sign up")
        public.choices = [  # type: ignore[attr-defined]
            ("1", _("Anyone (listed with the tournaments)")),
            ("0", _("Players with the invitation link only")),
        ]
        if "signup_closes" not in self.initial:
            later = timezone.localtime() + timedelta(days=3)
            self.initial["signup_closes"] = later.replace(minute=0, second=0, microsecond=0)
        order = []
        groups = {"*options": self.option_names, "*clock": list(self.CLOCK_FIELDS)}
        for name in self.FIELD_ORDER:
            order += groups.get(name, [name])
        self.fields = {name: self.fields[name] for name in order if name in self.fields}

    def clean_name(self) -> str:
        name = clean_game_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the tournament a name."))
        return name

    def clean_signup_closes(self) -> datetime:
        closes: datetime = self.cleaned_data["signup_closes"]
        now = timezone.now()
        if closes < now + SIGNUP_AT_LEAST:
            raise forms.ValidationError(
                _("Choose a time in the future: sign-up stays open at least 10 minutes.")
            )
        if closes > now + SIGNUP_AT_MOST:
            raise forms.ValidationError(_("Choose a time within the next 90 days."))
        return closes

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        fmt, size = data.get("format"), data.get("num_players")
        low, high = data.get("min_rating"), data.get("max_rating")
        if low is not None and high is not None and low > high:
            self.add_error(
                "max_rating", _("The lowest rating is above the highest: swap them round.")
            )
        most = data.get("max_players")
        if size and most is not None and most < size:
            self.add_error(
                "max_players",
                _("Allow at least as many players as one table seats (%(size)s).") % {"size": size},
            )
        if fmt == Tournament.Format.KNOCKOUT and size and size != 2:
            self.add_error("num_players", _("A knock-out is played at 2-player tables."))
        if fmt == Tournament.Format.SWISS and data.get("rounds") is None:
            self.add_error("rounds", _("Say how many rounds the Swiss has."))
        if fmt == Tournament.Format.GROUPS and size:
            self._check_groups(data, size)
        return data

    def _check_groups(self, data: dict[str, Any], size: int) -> None:
        group = data.get("group_size")
        if group is None:
            self.add_error("group_size", _("Say how many players each group has."))
            return
        if not size <= group <= MAX_GROUP[size]:
            self.add_error(
                "group_size",
                _("At %(size)s-player tables a group has %(low)s to %(high)s players.")
                % {"size": size, "low": size, "high": MAX_GROUP[size]},
            )
            return
        most = data.get("max_players")
        if data.get("final_table") and most is not None and most > group * size:
            self.add_error(
                "max_players",
                _(
                    "A final table seats the winners of at most %(size)s groups: with groups of "
                    "%(group)s, allow at most %(most)s players."
                )
                % {"size": size, "group": group, "most": group * size},
            )

    def clock(self) -> dict[str, Any]:
        """The games' time control as the create-game form reads it (games.forms.ClockForm),
        stored as games.timecontrol.TimeControl.to_dict()."""
        return self.time_control().to_dict()

    def tournament_fields(self) -> dict[str, Any]:
        """What tournaments.signup.create takes."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "description": data.get("description", "").strip(),
            "fmt": data["format"],
            "table_size": data["num_players"],
            "options": self.options(),
            "clock": self.clock(),
            "engine_name": self.engine.name,
            "rounds": data.get("rounds") or 0,
            "group_size": data.get("group_size"),
            "final_table": bool(data.get("final_table")),
            "signup_closes": data["signup_closes"],
            "max_players": data["max_players"],
            "min_rating": data.get("min_rating"),
            "max_rating": data.get("max_rating"),
            "min_finished": data.get("min_finished"),
            "is_public": data["is_public"],
        }


class TokenForm(forms.Form):
    token = forms.CharField(required=False, max_length=64)


class FeatureForm(forms.Form):
    featured = forms.TypedChoiceField(
        choices=[("1", "on"), ("0", "off")], coerce=lambda v: v == "1"
    )


class LadderForm(forms.Form):
    size = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in TABLE_SIZES],
        coerce=int,
        error_messages={"invalid_choice": _("There is no ladder for tables of that size.")},
    )


class ListFilterForm(forms.Form):
    """The list's filters: table size and the game's options (the history's facets)."""

    size = forms.TypedChoiceField(
        label=_("Players per table"),
        choices=[("", _("Any"))] + [(str(n), str(n)) for n in TABLE_SIZES],
        coerce=int,
        required=False,
        empty_value=None,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for facet in registry.default().record_facets:
            self.fields[facet.key] = forms.ChoiceField(
                label=facet.label, choices=list(facet.choices), required=False
            )

    def facet_fields(self) -> list[Any]:
        return [self[facet.key] for facet in registry.default().record_facets]

    def filters(self) -> dict[str, Any]:
        """The valid filters; an invalid value is ignored (a hand-edited address)."""
        if not self.is_valid():
            return {}
        return {key: value for key, value in self.cleaned_data.items() if value}
