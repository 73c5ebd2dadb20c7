"""A game's time control: the settings of its clock as one small serialisable value.

Two modes, as correspondence sites offer them: **per turn** (a fixed time for every turn, the
site's original clock and the default) and **time bank** (Fischer: a reserve for the whole
game that runs only on the player's own turns, topped up by a bonus after every turn, up to a
cap). Either may rest on two days of the week (weekends off), counted in each player's own
time zone. The game stores `per_turn` in Game.time_limit and the rest in Game.clock
(`storage()`); exports carry `to_dict()`; tournaments and the API build one from
games.forms.ClockForm or `from_dict`. The arithmetic lives in games.clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext

PER_TURN = "turn"
BANK = "bank"
MODES = (PER_TURN, BANK)
WEEKEND = (5, 6)  # Saturday and Sunday

MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
# Bounds of any stored or imported value (the create form offers fewer, see games.forms).
LIMITS = {
    "per_turn": (HOUR, 60 * DAY),
    "bank": (HOUR, 90 * DAY),
    "bonus": (timedelta(0), 30 * DAY),
    "cap": (HOUR, 180 * DAY),
}
MAX_DAYS_OFF = 2


@dataclass(frozen=True)
class TimeControl:
    mode: str = PER_TURN
    per_turn: timedelta = 3 * DAY
    bank: timedelta = 5 * DAY
    bonus: timedelta = DAY
    cap: timedelta = 5 * DAY
    days_off: tuple[int, ...] = field(default=())

    @property
    def is_bank(self) -> bool:
        return self.mode == BANK

    def allotment(self, bank_left: timedelta | None) -> timedelta:
        """The clock time a turn starts with: the limit per turn, or what is in the bank (a
        seat that has not played yet has the whole starting bank)."""
        if not self.is_bank:
            return self.per_turn
        return self.bank if bank_left is None else bank_left

    # --- storage --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every setting, durations in whole seconds (exports, the API, tournaments)."""
        return {
            "mode": self.mode,
            "per_turn": _seconds(self.per_turn),
            "bank": _seconds(self.bank),
            "bonus": _seconds(self.bonus),
            "cap": _seconds(self.cap),
            "days_off": list(self.days_off),
        }

    def storage(self) -> dict[str, Any]:
        """What Game.clock keeps (Game.time_limit keeps per_turn): empty for the default."""
        data = self.to_dict()
        del data["per_turn"]
        if not self.is_bank:
            data = {"mode": PER_TURN, "days_off": data["days_off"]} if self.days_off else {}
        return data

    @classmethod
    def from_dict(cls, data: Any, *, per_turn: timedelta | None = None) -> TimeControl:
        """Read and check stored or imported settings; ValueError says what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("the clock must be an object")
        unknown = set(data) - {"mode", "per_turn", "bank", "bonus", "cap", "days_off"}
        if unknown:
            raise ValueError(f"unknown clock settings: {', '.join(sorted(unknown))[:100]}")
        mode = data.get("mode", PER_TURN)
        if mode not in MODES:
            raise ValueError(f"the clock's mode must be one of {', '.join(MODES)}")
        values: dict[str, Any] = {"mode": mode}
        for name in LIMITS:
            if name in data:
                values[name] = _duration(name, data[name])
        if per_turn is not None and "per_turn" not in data:
            values["per_turn"] = per_turn
        if mode == BANK and "cap" not in values:
            values["cap"] = values.get("bank", cls.bank)
        values["days_off"] = _days_off(data.get("days_off", []))
        control = cls(**values)
        control.check()
        return control

    def check(self) -> None:
        """ValueError if a setting is out of bounds (whatever built this value)."""
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise ValueError(f"{name} must be from {_seconds(low)} to {_seconds(high)} s")
        if self.is_bank and self.cap < self.bank:
            raise ValueError("the cap must be at least the starting bank")
        _days_off(list(self.days_off))

    def with_days_off(self, days: tuple[int, ...]) -> TimeControl:
        return replace(self, days_off=tuple(sorted(days)))

    # --- words ----------------------------------------------------------------------------

    def label(self) -> str:
        """The whole time control in a short line, in the active language."""
        if self.is_bank:
            text = gettext("time bank %(bank)s, +%(bonus)s per turn (up to %(cap)s)") % {
                "bank": duration_words(self.bank),
                "bonus": duration_words(self.bonus),
                "cap": duration_words(self.cap),
            }
        else:
            text = gettext("%(limit)s per turn") % {"limit": duration_words(self.per_turn)}
        if self.days_off:
            text = gettext("%(clock)s, %(days)s off") % {"clock": text, "days": self.days_label()}
        return text

    def days_label(self) -> str:
        if tuple(sorted(self.days_off)) == WEEKEND:
            return gettext("weekends")
        names = [weekday_name(day) for day in sorted(self.days_off)]
        if len(names) == 1:
            return names[0]
        return gettext("%(first)s and %(second)s") % {"first": names[0], "second": names[1]}


def weekday_name(day: int) -> str:
    """Monday (0) ... Sunday (6) in the active language (Django's own translations)."""
    return date_format(date(2024, 1, 1 + day), "l")  # 1 January 2024 was a Monday


def duration_words(value: timedelta) -> str:
    """A duration as people say it: "12 hours", "1 day", "5 days", "1 day, 6 hours"."""
    seconds = max(0, _seconds(value))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(ngettext("%(n)s day", "%(n)s days", days) % {"n": days})
    if hours:
        parts.append(ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours})
    if minutes and not days:
        parts.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    # As Django's timeuntil: a number kept with its unit, the units apart ("2 days, 3 hours").
    return ", ".join(part.replace(" ", "\xa0") for part in parts) or gettext("no time")


def clock_words(left: timedelta | None) -> str:
    """Clock time left in two units at most: "2 days, 3 hours", "5 hours, 10 minutes"."""
    if left is None:
        return ""
    if left < MINUTE:
        return gettext("less than a minute") if left > timedelta(0) else gettext("no time")
    whole = timedelta(seconds=int(left.total_seconds()) // 60 * 60)
    if whole >= DAY:
        whole = timedelta(hours=int(whole.total_seconds()) // 3600)
    return duration_words(whole)


def pace_words(left: timedelta | None) -> str:
    """How long a game still runs, roughly: "about 4 days left", "about 3 weeks left"."""
    if left is None:
        return ""
    days = left / DAY
    if days < 1:
        return gettext("less than a day left")
    if days < 14:
        n = round(days)
        return ngettext("about %(n)s day left", "about %(n)s days left", n) % {"n": n}
    if days < 63:
        n = round(days / 7)
        return ngettext("about %(n)s week left", "about %(n)s weeks left", n) % {"n": n}
    n = round(days / 30.4)
    return ngettext("about %(n)s month left", "about %(n)s months left", n) % {"n": n}


def _seconds(value: timedelta) -> int:
    return round(value.total_seconds())


def _duration(name: str, value: Any) -> timedelta:
    if type(value) is not int:
        raise ValueError(f"{name} must be a whole number of seconds")
    low, high = LIMITS[name]
    if not _seconds(low) <= value <= _seconds(high):
        raise ValueError(f"{name} must be from {_seconds(low)} to {_seconds(high)} s")
    return timedelta(seconds=value)


def _days_off(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        type(day) is int and 0 <= day <= 6 for day in value
    ):
        raise ValueError("days_off must be a list of weekdays, 0 (Monday) to 6 (Sunday)")
    days = tuple(sorted(set(value)))
    if len(days) > MAX_DAYS_OFF or len(days) != len(value):
        raise ValueError(f"days_off must name at most {MAX_DAYS_OFF} different days")
    return days
