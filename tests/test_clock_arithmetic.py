"""The clock as pure arithmetic, at fixed instants: days off in each player's own time zone
across daylight-saving changes in both directions and over New Year, absences overlapping
weekends, time banks topped up and capped, and the settings' round trip."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest

from games import clock
from games.timecontrol import BANK, TimeControl

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
AUCKLAND = zoneinfo.ZoneInfo("Pacific/Auckland")
WEEKEND = (5, 6)
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


def local(zone, *args) -> datetime:
    return datetime(*args, tzinfo=zone)


def test_it_rests_over_the_weekend_when_summer_time_begins():
    """Berlin moves its clocks forward on Sunday 29 March 2026: that weekend lasts 47 hours,
    and a day's turn begun on Friday noon runs out on Monday noon, local time."""
    start = local(BERLIN, 2026, 3, 27, 12)
    plan = clock.plan_turn(start, DAY, absences=[], zone=BERLIN, days_off=WEEKEND)
    assert plan.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 3, 30, 12)
    assert plan.pauses == [(local(BERLIN, 2026, 3, 28), local(BERLIN, 2026, 3, 30))]
    assert plan.pauses[0][1] - plan.pauses[0][0] == 47 * HOUR
    assert clock.counted_between(start, plan.deadline, plan.pauses) == DAY


def test_it_rests_over_the_weekend_when_summer_time_ends():
    """Berlin moves its clocks back on Sunday 25 October 2026: that weekend lasts 49 hours."""
    start = local(BERLIN, 2026, 10, 23, 12)
    plan = clock.plan_turn(start, DAY, absences=[], zone=BERLIN, days_off=WEEKEND)
    assert plan.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 10, 26, 12)
    assert plan.pauses[0][1] - plan.pauses[0][0] == 49 * HOUR
    assert plan.left(start + 11 * HOUR) == 13 * HOUR  # Friday 23:00: running
    assert plan.left(start + 13 * HOUR) == 12 * HOUR  # Saturday 01:00: paused at 12 hours...
    assert plan.left(local(BERLIN, 2026, 10, 25, 12)) == 12 * HOUR  # ...still on Sunday noon
    assert plan.paused_until(start + 11 * HOUR) is None  # Friday 23:00: running
    assert plan.paused_until(local(BERLIN, 2026, 10, 25, 3)) == local(BERLIN, 2026, 10, 26)


def test_it_counts_real_hours_across_a_change_of_the_clocks_without_days_off():
    """Without days off a turn of three days is 72 real hours: one o'clock more or less on the
    wall when the clocks change, never an hour more or less to play."""
    start = local(BERLIN, 2026, 3, 28, 12)
    plan = clock.plan_turn(start, 3 * DAY, absences=[], zone=BERLIN)
    assert plan.deadline - start == 72 * HOUR
    assert plan.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 3, 31, 13)
    autumn = local(BERLIN, 2026, 10, 24, 12)
    plan = clock.plan_turn(autumn, 3 * DAY, absences=[], zone=BERLIN)
    assert plan.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 10, 27, 11)


def test_it_rests_over_a_weekend_spanning_new_year():
    """Saturday 31 December 2022 and Sunday 1 January 2023, in New York."""
    start = local(NEW_YORK, 2022, 12, 30, 18)
    plan = clock.plan_turn(start, DAY, absences=[], zone=NEW_YORK, days_off=WEEKEND)
    assert plan.deadline.astimezone(NEW_YORK) == local(NEW_YORK, 2023, 1, 2, 18)
    assert plan.pauses == [(local(NEW_YORK, 2022, 12, 31), local(NEW_YORK, 2023, 1, 2))]


def test_it_rests_on_the_two_days_the_creator_picked_over_new_year():
    """Thursday and Friday off: 31 December 2026 and 1 January 2027, in Auckland, whose year
    begins first; the same instants are Wednesday and Thursday in UTC."""
    start = local(AUCKLAND, 2026, 12, 30, 20)
    plan = clock.plan_turn(start, 2 * DAY, absences=[], zone=AUCKLAND, days_off=(3, 4))
    assert plan.pauses == [(local(AUCKLAND, 2026, 12, 31), local(AUCKLAND, 2027, 1, 2))]
    assert plan.deadline.astimezone(AUCKLAND) == local(AUCKLAND, 2027, 1, 3, 20)
    assert plan.pauses[0][0].astimezone(UTC) == datetime(2026, 12, 30, 11, tzinfo=UTC)


def test_it_counts_an_absence_overlapping_a_weekend_once():
    """Away Friday to Monday (whole days) with weekends off: four days of pause, not six."""
    start = local(BERLIN, 2026, 6, 3, 12)  # a Wednesday
    away = [(local(BERLIN, 2026, 6, 5), local(BERLIN, 2026, 6, 9))]  # Friday to Monday night
    plan = clock.plan_turn(start, 2 * DAY, absences=away, zone=BERLIN, days_off=WEEKEND)
    assert plan.pauses == away
    # Wednesday noon to Friday 00:00 is 36 hours; the other 12 on Tuesday from midnight.
    assert plan.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 6, 9, 12)
    weekend_only = clock.plan_turn(start, 2 * DAY, absences=[], zone=BERLIN, days_off=WEEKEND)
    assert weekend_only.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 6, 5, 12)


def test_it_counts_an_absence_starting_inside_a_weekend():
    start = local(BERLIN, 2026, 6, 5, 12)  # a Friday
    away = [(local(BERLIN, 2026, 6, 7), local(BERLIN, 2026, 6, 10))]  # Sunday to Tuesday night
    plan = clock.plan_turn(start, DAY, absences=away, zone=BERLIN, days_off=WEEKEND)
    assert plan.pauses == [(local(BERLIN, 2026, 6, 6), local(BERLIN, 2026, 6, 10))]
    assert plan.deadline.astimezone(BERLIN) == local(BERLIN, 2026, 6, 10, 12)


def test_it_uses_each_players_own_time_zone_for_days_off():
    """The same instant: Friday evening in New York is already Saturday in Auckland."""
    start = datetime(2026, 6, 5, 23, tzinfo=UTC)  # Friday 19:00 in New York
    in_new_york = clock.plan_turn(start, HOUR, absences=[], zone=NEW_YORK, days_off=WEEKEND)
    in_auckland = clock.plan_turn(start, HOUR, absences=[], zone=AUCKLAND, days_off=WEEKEND)
    assert in_new_york.deadline == start + HOUR
    assert in_auckland.deadline.astimezone(AUCKLAND) == local(AUCKLAND, 2026, 6, 8, 1)


def test_it_tops_up_a_bank_after_each_turn_up_to_its_cap():
    bank, cap = 5 * DAY, 6 * DAY
    assert clock.bank_after_turn(bank, 2 * DAY, bonus=DAY, cap=cap) == 4 * DAY
    assert clock.bank_after_turn(bank, HOUR, bonus=DAY, cap=bank) == bank
    assert clock.bank_after_turn(bank, 9 * DAY, bonus=DAY, cap=cap) == DAY  # ran dry: the bonus
    assert clock.bank_after_turn(bank, timedelta(seconds=0.4), bonus=0 * DAY, cap=cap) == bank


def test_it_falls_reminders_at_shares_of_the_bank_left_when_the_turn_began():
    """A bank down to two hours: reminders after one hour and after 108 minutes, even when a
    weekend lies between (then they fall after it)."""
    start = local(BERLIN, 2026, 6, 5, 23)  # Friday 23:00: one hour before the weekend
    plan = clock.plan_turn(start, 2 * HOUR, absences=[], zone=BERLIN, days_off=WEEKEND)
    assert plan.deadline == local(BERLIN, 2026, 6, 8, 1)
    first = clock.next_reminder(start, plan.allotted, plan.deadline, plan.pauses, after=start)
    assert first == local(BERLIN, 2026, 6, 6)  # the first hour ends at the weekend's start
    second = clock.next_reminder(start, plan.allotted, plan.deadline, plan.pauses, after=first)
    assert second == local(BERLIN, 2026, 6, 8, 0, 48)
    assert (
        clock.next_reminder(start, plan.allotted, plan.deadline, plan.pauses, after=second) is None
    )


def test_it_keeps_a_turn_plan_through_storage():
    start = local(BERLIN, 2026, 3, 27, 12, 0, 0, 123456)
    plan = clock.plan_turn(start, DAY, absences=[], zone=BERLIN, days_off=WEEKEND)
    again = clock.TurnPlan.from_dict(plan.to_dict(), start, plan.deadline)
    assert again == plan
    with pytest.raises(ValueError, match="no turn plan"):
        clock.TurnPlan.from_dict(None, start, plan.deadline)


def test_it_estimates_the_time_left_from_the_pace_so_far():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    assert clock.expected_end(start, start + 10 * DAY, 0.25) == 30 * DAY
    assert clock.expected_end(start, start + 10 * DAY, 1.0) == timedelta(0)
    assert clock.expected_end(start, start + 10 * DAY, 0.0) is None
    assert clock.expected_end(start, start + 10 * DAY, None) is None


def test_it_keeps_every_clock_setting_through_its_dictionary():
    control = TimeControl(mode=BANK, bank=7 * DAY, bonus=12 * HOUR, cap=10 * DAY, days_off=(4, 5))
    assert TimeControl.from_dict(control.to_dict()) == control
    stored = TimeControl.from_dict(control.storage(), per_turn=control.per_turn)
    assert stored == control
    assert TimeControl().storage() == {}
    assert TimeControl.from_dict({}, per_turn=2 * DAY) == TimeControl(per_turn=2 * DAY)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"mode": "hourglass"}, "mode"),
        ({"mode": BANK, "bank": -86400}, "bank must be from"),
        ({"mode": BANK, "bank": 10**12}, "bank must be from"),
        ({"mode": BANK, "bank": "432000"}, "whole number"),
        ({"mode": BANK, "bank": 4.5e5}, "whole number"),
        ({"mode": BANK, "bank": True}, "whole number"),
        ({"mode": BANK, "bank": 5 * 86400, "cap": 86400}, "at least the starting bank"),
        ({"days_off": [5, 6, 0]}, "at most 2"),
        ({"days_off": [7]}, "weekdays"),
        ({"days_off": [5, 5]}, "different days"),
        ({"days_off": "56"}, "weekdays"),
        ({"speed": 1}, "unknown"),
        ([], "object"),
    ],
)
def test_it_refuses_clock_settings_out_of_bounds(data, message):
    with pytest.raises(ValueError, match=message):
        TimeControl.from_dict(data)
