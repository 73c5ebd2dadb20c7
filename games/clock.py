"""Turn deadlines and reminders as pure arithmetic: a time limit that does not run while the
player is away.

A turn's deadline is the moment the player has had `time_limit` of time outside their absences;
reminders fall at configurable shares of that time (settings.GAMES_REMINDER_SHARES). Nothing
here reads the database: Game.schedule_turn (games.models) gathers the absences and calls
these, and the sweep's queries live on the Game manager.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from django.conf import settings

Window = tuple[datetime, datetime]

# A bot's turn has no deadline; one still waiting after this long lost its task.
BOT_TURN_GRACE = timedelta(minutes=2)


def counted_time(start: datetime, amount: timedelta, absences: list[Window]) -> datetime:
    """When `amount` of time outside the absences has passed since `start`."""
    cursor, remaining = start, amount
    for away_from, away_to in sorted(absences):
        if away_to <= cursor:
            continue
        if away_from > cursor:
            available = away_from - cursor
            if available >= remaining:
                return cursor + remaining
            remaining -= available
        cursor = max(cursor, away_to)
    return cursor + remaining


def reminder_shares() -> list[float]:
    return sorted(getattr(settings, "GAMES_REMINDER_SHARES", [0.5, 0.9]))


def next_reminder(
    start: datetime,
    limit: timedelta,
    deadline: datetime,
    absences: list[Window],
    *,
    after: datetime,
) -> datetime | None:
    """The first reminder of a turn (started at `start`) that falls after `after`."""
    for share in reminder_shares():
        moment = counted_time(start, limit * share, absences)
        if after < moment < deadline:
            return moment
    return None


def alarm_moments(deadline: datetime, alarms: list[int]) -> list[datetime]:
    """A player's own alarms (minutes before the deadline), earliest first."""
    return sorted(deadline - timedelta(minutes=int(m)) for m in set(alarms) if int(m) > 0)


def next_alarm(
    start: datetime, deadline: datetime, alarms: list[int], *, after: datetime
) -> datetime | None:
    """The first of the player's alarms of a turn (started at `start`) that falls after
    `after`: one that falls before the turn began is skipped, not sent at once."""
    return next(
        (m for m in alarm_moments(deadline, alarms) if max(after, start) < m < deadline), None
    )


def alarm_number(deadline: datetime, alarms: list[int], now: datetime) -> int:
    """Which of the player's alarms is due now (0 for the first): once per alarm per turn."""
    passed = [m for m in alarm_moments(deadline, alarms) if m <= now]
    return max(0, len(passed) - 1)


def reminder_number(
    start: datetime, limit: timedelta, absences: list[Window], now: datetime
) -> int:
    """Which reminder of the turn is due now (0 for the first), for a stable dedupe key."""
    passed = [
        share for share in reminder_shares() if counted_time(start, limit * share, absences) <= now
    ]
    return max(0, len(passed) - 1)


def is_away(absences: list[Window], now: datetime) -> bool:
    return any(start <= now < end for start, end in absences)


# --- days off, pauses and the running turn ---------------------------------------------------

DAY = timedelta(days=1)
WEEK_DAYS = 7


def _local_midnight(day: date, zone: tzinfo) -> datetime:
    """The instant a local day begins (a zone that skips midnight for summer time begins the
    day at the first minute that exists: fold 0 reads it with the offset before the change)."""
    return datetime.combine(day, time.min, tzinfo=zone).astimezone(UTC)


def days_off_windows(
    zone: tzinfo, days_off: Iterable[int], start: datetime, end: datetime
) -> list[Window]:
    """Every local day in `days_off` (0 Monday ... 6 Sunday) that overlaps [start, end), as a
    window from its local midnight to the next: 23 or 25 hours on a day the clocks change."""
    wanted = set(days_off)
    if not wanted or end <= start:
        return []
    day = start.astimezone(zone).date() - DAY
    last = end.astimezone(zone).date() + DAY
    windows = []
    while day <= last:
        if day.weekday() in wanted:
            window = (_local_midnight(day, zone), _local_midnight(day + DAY, zone))
            if window[1] > start and window[0] < end:
                windows.append(window)
        day += DAY
    return merged(windows)


def merged(windows: Iterable[Window]) -> list[Window]:
    """Overlapping or touching windows joined (a weekend is one pause, not two days)."""
    result: list[Window] = []
    for begin, finish in sorted(windows):
        if result and begin <= result[-1][1]:
            result[-1] = (result[-1][0], max(result[-1][1], finish))
        else:
            result.append((begin, finish))
    return result


def counted_between(start: datetime, end: datetime, pauses: list[Window]) -> timedelta:
    """How much clock time runs from `start` to `end`: the wall time less the pauses in it."""
    if end <= start:
        return timedelta(0)
    paused = timedelta(0)
    for begin, finish in merged(pauses):
        overlap = min(end, finish) - max(start, begin)
        if overlap > timedelta(0):
            paused += overlap
    return end - start - paused


def paused_until(pauses: list[Window], now: datetime) -> datetime | None:
    """The end of the pause `now` falls in (touching pauses count as one), or None."""
    for begin, finish in merged(pauses):
        if begin <= now < finish:
            return finish
    return None


@dataclass(frozen=True)
class TurnPlan:
    """One turn's clock: the time it was given, when that runs out and the pauses before it
    (days off and absences). Stored with the game, so the time left is read without a query."""

    start: datetime
    allotted: timedelta
    deadline: datetime
    pauses: list[Window]

    def left(self, now: datetime) -> timedelta:
        """The clock time still left at `now` (all of it before the start, none after)."""
        return max(timedelta(0), self.allotted - counted_between(self.start, now, self.pauses))

    def used(self, now: datetime) -> timedelta:
        return self.allotted - self.left(now)

    def paused_until(self, now: datetime) -> datetime | None:
        return paused_until(self.pauses, now) if now < self.deadline else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "allotted": round(self.allotted.total_seconds()),
            "pauses": [[_epoch(begin), _epoch(finish)] for begin, finish in self.pauses],
        }

    @classmethod
    def from_dict(cls, data: Any, start: datetime, deadline: datetime) -> TurnPlan:
        """The stored plan of the turn that began at `start`; ValueError if unreadable."""
        if not isinstance(data, dict):
            raise ValueError("no turn plan")
        pauses = [(_instant(begin), _instant(finish)) for begin, finish in data["pauses"]]
        return cls(start, timedelta(seconds=int(data["allotted"])), deadline, pauses)


def _epoch(moment: datetime) -> int:
    return round(moment.timestamp())


def _instant(seconds: Any) -> datetime:
    return datetime.fromtimestamp(int(seconds), tz=UTC)


def plan_turn(
    start: datetime,
    allotted: timedelta,
    *,
    absences: list[Window],
    zone: tzinfo,
    days_off: Iterable[int] = (),
) -> TurnPlan:
    """The deadline of a turn given `allotted` clock time from `start`, where the clock rests
    during the player's absences and on their days off (in their own time zone)."""
    # In UTC: Python adds to an aware time as on the wall clock, an hour off across a change.
    start = start.astimezone(UTC)
    absences = [(a.astimezone(UTC), b.astimezone(UTC)) for a, b in absences]
    days_off = tuple(days_off)
    running_days = WEEK_DAYS - len(set(days_off))
    ahead = [(a, b) for a, b in absences if b > start]
    away = sum((b - max(a, start) for a, b in ahead), timedelta(0))
    # Far enough that every pause before the deadline is in: the allotted time spread over the
    # running days of each week, the absences, and two spare weeks.
    horizon = start + allotted * WEEK_DAYS / max(1, running_days) + away + 2 * WEEK_DAYS * DAY
    pauses = merged([*ahead, *days_off_windows(zone, days_off, start, horizon)])
    deadline = counted_time(start, allotted, pauses)
    kept = [(max(a, start), min(b, deadline)) for a, b in pauses if a < deadline and b > start]
    return TurnPlan(start, allotted, deadline, kept)


def bank_after_turn(
    bank: timedelta, used: timedelta, *, bonus: timedelta, cap: timedelta
) -> timedelta:
    """A time bank after a completed turn (Fischer): what was left, plus the bonus, at most
    the cap; a bank that ran dry starts again from the bonus. Whole seconds."""
    left = max(timedelta(0), bank - used)
    return timedelta(seconds=round(min(cap, left + bonus).total_seconds()))


def expected_end(started: datetime, now: datetime, progress: float | None) -> timedelta | None:
    """How long the game still runs at the pace so far: the time played per share of the
    game, times the share left. None before a pace can be told (nothing played yet)."""
    if progress is None or not 0 < progress <= 1 or now <= started:
        return None
    elapsed = now - started
    return elapsed * ((1 - progress) / progress)
