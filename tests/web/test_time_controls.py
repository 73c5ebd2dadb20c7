"""Time controls (issue 22): the clock per turn or a time bank with a bonus per turn, days off in
each player's own time zone, everyone's clock on the page and in My games, abandoned games
ended, and every setting kept through export, import and replay."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games import lobby, transfer
from games.models import Game, Move, Seat
from games.play import run_bots
from games.rules.firenze.rules.bots import greedy
from games.timecontrol import BANK, PER_TURN, TimeControl
from games.timeouts import due_games, remind, time_out
from notifications.models import Notification
from players.models import SeatResult
from tests.web.helpers import fast_forward, game_page, post_move, signed_in

pytestmark = pytest.mark.django_db

HOUR, DAY = timedelta(hours=1), timedelta(days=1)
FISCHER = TimeControl(mode=BANK, bank=5 * DAY, bonus=DAY, cap=6 * DAY)
BERLIN = ZoneInfo("Europe/Berlin")


def timed_game(creator, *others, control: TimeControl, bots: int = 0, seed: int = 7) -> Game:
    game = lobby.create_game(creator, num_players=1 + len(others) + bots, time_control=control)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in others:
        lobby.join(game, user)
    for _ in range(bots):
        lobby.add_bot(game, creator)
    game.refresh_from_db()
    return game


def acting(game: Game) -> Seat:
    return game.seats.select_related("user").get(number=game.acting_seat)


def play_turn(game: Game) -> None:
    """The acting player plays their whole turn through the move view."""
    seat = acting(game)
    browser = signed_in(seat.user)
    rng = random.Random(game.version)
    while game.is_active and game.acting_seat == seat.number:
        post_move(browser, game, greedy(game.load_state(), rng), game.version)
        game.refresh_from_db()


def started_at(game: Game, moment: datetime) -> Game:
    """The running turn as if it had begun at ``moment`` (its plan and deadline too)."""
    game.schedule_turn(moment)
    game.save_clock()
    game.refresh_from_db()
    return game


# --- the create form ----------------------------------------------------------------------


def create_form(**fields) -> dict[str, str]:
    return {
        "num_players": "2",
        "neutral_seals": "5",
        "seal_placement": "recommended",
        "time_limit": str(3 * 86400),
        "is_public": "1",
        **fields,
    }


def test_it_offers_the_clocks_in_clear_words_with_the_clock_per_turn_chosen(anna):
    page = signed_in(anna).get(reverse("games:create")).content.decode()
    for words in (
        "Time control",
        "Per turn: the same time for every turn",
        "Time bank: a reserve for the whole game, topped up after every turn",
        "Starting time bank",
        "Added after each turn",
        "Most a bank can hold",
        "Days off",
        "Tick Saturday and Sunday for weekends off",
    ):
        assert words in page
    assert re.search(r'<input type="radio" name="clock_mode" value="turn"[^>]* checked', page)
    assert '<option value="432000" selected>5\xa0days</option>' in page
    assert not re.search(r'name="days_off" value="\d"[^>]* checked', page)


def test_it_creates_a_time_bank_game_with_weekends_off(anna):
    browser = signed_in(anna)
    form = create_form(
        clock_mode="bank", bank=str(7 * 86400), bonus=str(12 * 3600), bank_cap=str(10 * 86400)
    )
    response = browser.post(reverse("games:create"), {**form, "days_off": ["5", "6"]})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.time_control == TimeControl(
        mode=BANK, bank=7 * DAY, bonus=12 * HOUR, cap=10 * DAY, days_off=(5, 6)
    )
    page = browser.get(response["Location"]).content.decode()
    assert "time bank 7\xa0days, +12\xa0hours per turn (up to 10\xa0days), weekends off" in page


def test_it_keeps_the_clock_per_turn_for_a_form_without_the_new_fields(anna):
    signed_in(anna).post(reverse("games:create"), create_form(time_limit=str(86400)))
    game = Game.objects.get()
    assert game.time_control == TimeControl(mode=PER_TURN, per_turn=DAY)
    assert game.clock == {}


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"clock_mode": "bank", "bank": "-86400"}, "bank", "Select a valid choice"),
        ({"clock_mode": "bank", "bank": "9" * 40}, "bank", "Select a valid choice"),
        ({"clock_mode": "bank", "bank": "４３２０００"}, "bank", "Select a valid choice"),
        ({"clock_mode": "bank", "bonus": "1e309"}, "bonus", "Select a valid choice"),
        ({"clock_mode": "bank", "bank_cap": "259200"}, "bank_cap", "cannot hold less"),
        ({"clock_mode": "hourglass"}, "clock_mode", "Select a valid choice"),
        ({"days_off": ["5", "6", "0"]}, "days_off", "at most two days"),
        ({"days_off": ["7"]}, "days_off", "Select a valid choice"),
        ({"days_off": ["-1"]}, "days_off", "Select a valid choice"),
        ({"days_off": ["５"]}, "days_off", "Select a valid choice"),
        ({"time_limit": "99999999999999999999"}, "time_limit", "Select a valid choice"),
        ({"time_limit": "9999-12-31"}, "time_limit", "Select a valid choice"),
    ],
)
def test_it_answers_hostile_clock_values_with_a_form_error(anna, fields, field, message):
    response = signed_in(anna).post(reverse("games:create"), create_form(**fields))
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors[field])
    assert not Game.objects.exists()


# --- the time bank --------------------------------------------------------------------------


def test_it_gives_each_turn_the_players_bank_and_pays_the_bonus_after_it(anna, ben):
    game = timed_game(anna, ben, control=FISCHER)
    first = acting(game)
    assert game.deadline - game.turn_started_at == 5 * DAY  # the whole starting bank
    # Two days into the turn: the player moves; the bank keeps 3 days, plus 1 day of bonus.
    started_at(game, timezone.now() - 2 * DAY)
    play_turn(game)
    first.refresh_from_db()
    assert abs(first.bank - 4 * DAY) < timedelta(seconds=5)
    # The other player, with 5.5 days in the bank, moves at once: capped at 6 days.
    second = acting(game)
    Seat.objects.filter(pk=second.pk).update(bank=5 * DAY + 12 * HOUR)
    started_at(game, timezone.now())
    play_turn(game)
    second.refresh_from_db()
    assert second.bank == 6 * DAY
    # The first player's next turn starts with their 4 days.
    game.refresh_from_db()
    assert acting(game).pk == first.pk
    assert abs(game.deadline - game.turn_started_at - 4 * DAY) < timedelta(seconds=5)


def test_it_has_the_bot_play_when_a_bank_runs_dry_during_a_reminder(
    anna, ben, django_capture_on_commit_callbacks
):
    """A bank down to two hours: the reminders fall at one hour and at 108 minutes of it; the
    sweep comes late, after the bank ran dry: the turn times out (the bot plays it, the player
    is told) and no stale reminder follows; the next turn has the bonus."""
    game = timed_game(anna, ben, control=FISCHER)
    late = acting(game)
    Seat.objects.filter(pk=late.pk).update(bank=2 * HOUR)
    start = timezone.now() - 3 * HOUR
    game = started_at(game, start)
    assert game.deadline == start + 2 * HOUR
    assert game.next_reminder_at == start + HOUR
    assert remind(game.pk, now=start + HOUR + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.next_reminder_at == start + timedelta(minutes=108)
    now = timezone.now()
    timeouts, reminders = due_games(now)
    assert timeouts == [game.pk] and reminders == []  # past its deadline: no reminder now
    with django_capture_on_commit_callbacks(execute=True):
        assert time_out(game.pk, now=now)
    late.refresh_from_db()
    assert late.timeouts_in_row == 1 and late.bank == DAY  # ran dry: the bonus only
    assert Move.objects.filter(game=game, seat=late.number, timeout=True).exists()
    told = Notification.objects.filter(
        game=game, user=late.user, channel="email", kind__in=["reminder", "timed_out"]
    )
    assert sorted(told.values_list("kind", flat=True)) == ["reminder", "timed_out"]


def test_it_puts_a_player_on_autopilot_after_three_dry_banks(anna, ben):
    game = timed_game(anna, ben, control=FISCHER)
    seat = game.seats.get(user=anna)
    while not seat.autopilot:
        if acting(game).user == ben:
            play_turn(game)
        assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
        game.refresh_from_db()
        seat.refresh_from_db()
    assert seat.timeouts_in_row == 3


# --- days off -------------------------------------------------------------------------------


def test_it_rests_the_clock_on_the_acting_players_own_weekend(anna, ben):
    """Anna lives in Berlin: her turn begun on Friday noon with a day to play runs out on
    Monday noon, Berlin time, and the page says the clock rests on Saturday."""
    game = timed_game(anna, ben, control=TimeControl(per_turn=DAY, days_off=(5, 6)))
    seat = acting(game)
    seat.user.time_zone = "Europe/Berlin"
    seat.user.save(update_fields=["time_zone"])
    friday = datetime(2026, 3, 27, 12, tzinfo=BERLIN)
    game = started_at(game, friday)
    assert game.deadline.astimezone(BERLIN) == datetime(2026, 3, 30, 12, tzinfo=BERLIN)
    saturday = datetime(2026, 3, 28, 15, tzinfo=BERLIN)
    [shown] = [c for c in game.seat_clocks(list(game.seats.all()), saturday).values()]
    assert shown.left == 12 * HOUR and not shown.running
    assert shown.paused_until == datetime(2026, 3, 30, tzinfo=BERLIN)


# --- everyone sees the clock --------------------------------------------------------------------


def test_every_player_sees_each_seats_time_left_and_the_expected_end(anna, ben, carla):
    game = timed_game(anna, ben, carla, control=FISCHER)
    play_turn(game)
    play_turn(game)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - 7 * DAY, progress=0.25)
    page = game_page(signed_in(carla), game)
    strip = page.split('id="players"')[1]
    clocks = re.findall(r'<span class="seat-clock[^"]*"[^>]*>([^<]+)</span>', strip)
    assert len(clocks) == 3
    assert sum("bank" in text for text in clocks) == 2  # the two waiting seats' banks
    assert any(re.fullmatch(r"\d+\xa0days?, \d+\xa0hours? left", text) for text in clocks)
    assert "The game at this pace: about 3 weeks left" in page
    mine = signed_in(carla).get(reverse("games:mine")).content.decode()
    assert "about 3 weeks left" in mine
    assert re.search(r"\d+\xa0days?(, \d+\xa0\w+)? left", mine)


def test_it_says_whose_clock_and_what_the_pace_is_about(anna, ben):
    """The acting player reads "Your clock", the others read whose clock runs; the pace line
    says it is the whole game's, so the two figures never read as a contradiction."""
    game = timed_game(anna, ben, control=FISCHER)
    me, other = (
        acting(game),
        game.seats.select_related("user").exclude(number=game.acting_seat).get(),
    )
    Game.objects.filter(pk=game.pk).update(started_at=timezone.now() - 7 * DAY, progress=0.5)
    mine = game_page(signed_in(me.user), game)
    theirs = game_page(signed_in(other.user), game)
    assert re.search(r"Your clock: \d+\xa0days?(, \d+\xa0hours?)? left", mine)
    assert "Time left" not in mine
    assert (
        f"{me.user.display_name}&#x27;s clock: " in theirs
        or f"{me.user.display_name}'s clock: " in theirs
    )
    assert "Your clock" not in theirs
    assert "The game at this pace: " in mine


def test_the_cached_page_follows_the_clock(anna, ben):
    """The drawn page is kept per version, but a clock that reads differently is redrawn."""
    game = timed_game(anna, ben, control=FISCHER)
    browser = signed_in(anna)
    first = game_page(browser, game)
    started_at(game, game.turn_started_at - 3 * HOUR)
    again = game_page(browser, game)
    assert re.search(r"4\xa0days, 2\d\xa0hours left|4\xa0days, 21\xa0hours left", again)
    assert first != again


def test_the_helpers_show_nothing_for_bots_and_finished_games(anna):
    game = timed_game(anna, control=FISCHER, bots=1)
    seats = list(game.seats.all())
    bot = next(s for s in seats if s.bot)
    assert game.time_left(bot) is None
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    assert game.seat_clocks(seats) == {} and game.expected_end() is None


# --- abandoned games ------------------------------------------------------------------------


def abandon(game: Game) -> None:
    """Every person's seat on autopilot (after three timeouts each): the bots play on until
    a person's seat is to act again, and stop there."""
    Seat.objects.filter(game=game, bot="").update(autopilot=True, timeouts_in_row=3)
    played = run_bots(game.pk)
    game.refresh_from_db()
    assert 0 < played < 100 and game.is_halted


def test_it_halts_a_game_whose_people_all_left_it_to_the_bot(anna, ben):
    game = timed_game(anna, ben, control=FISCHER, bots=1)
    abandon(game)
    assert game.is_halted
    assert game.deadline - game.turn_started_at == 7 * DAY
    assert due_games(timezone.now())[0] == []
    page = game_page(signed_in(ben), game)
    assert "Every player's seat is on autopilot, so the game waits" in page


def test_it_ends_an_abandoned_game_after_a_week_absent_players_last(
    anna, ben, django_capture_on_commit_callbacks
):
    game = timed_game(anna, ben, control=FISCHER, bots=1)
    abandon(game)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    game.refresh_from_db()
    assert game.is_finished and game.ended_abandoned and not game.ended_by_resignation
    results = list(SeatResult.objects.filter(record__game=game).order_by("place", "seat"))
    assert results[0].bot  # the bot first; the two absent players after it, by points
    assert {r.user for r in results[1:]} == {anna, ben}
    assert results[1].score >= results[2].score
    told = Notification.objects.filter(game=game, kind="game_over", channel="email")
    assert {n.user for n in told} == {anna, ben}
    [email] = [m for m in mail.outbox if m.to == [anna.email]]
    assert "every player's seat was left to the bot for 7 days" in email.body
    assert "(absent)" in email.body
    page = game_page(signed_in(anna), game)
    assert "every player's seat had been left to the bot for a week" in page


def test_it_tells_the_creator_of_an_abandoned_game_who_has_no_seat(anna, ben, carla):
    game = timed_game(anna, ben, control=FISCHER, bots=1)
    Game.objects.filter(pk=game.pk).update(creator=carla)
    game.refresh_from_db()
    abandon(game)
    assert time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    told = Notification.objects.filter(game=game, kind="game_over", channel="email")
    assert {n.user for n in told} == {anna, ben, carla}


def test_a_player_who_takes_their_seat_back_restarts_a_halted_game(
    anna, ben, django_capture_on_commit_callbacks
):
    game = timed_game(anna, ben, control=FISCHER, bots=1)
    abandon(game)
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(ben).post(reverse("games:reclaim", args=[game.pk]))
    game.refresh_from_db()
    assert not game.is_halted and game.is_active
    assert acting(game).user == ben  # the bots played Anna's seat and the bot's up to Ben
    assert game.deadline - game.turn_started_at == FISCHER.allotment(acting(game).bank)
    assert game.turn_started_at > timezone.now() - timedelta(minutes=1)  # from now on


# --- export, import and replay -------------------------------------------------------------------


def test_every_clock_setting_survives_export_import_and_replay(anna, ben):
    control = TimeControl(mode=BANK, bank=3 * DAY, bonus=6 * HOUR, cap=7 * DAY, days_off=(3, 4))
    game = timed_game(anna, ben, control=control)
    fast_forward(game)
    record = json.loads(signed_in(anna).get(reverse("games:export", args=[game.pk])).content)
    assert record["clock"] == {
        "mode": "bank",
        "per_turn": 3 * 86400,
        "bank": 3 * 86400,
        "bonus": 6 * 3600,
        "cap": 7 * 86400,
        "days_off": [3, 4],
    }
    copy = transfer.import_game(json.dumps(record))
    assert copy.time_control == control
    call_command("replay_games", "--fix", stdout=StringIO())
    for stored in (game, copy):
        stored.refresh_from_db()
        assert stored.time_control == control
    old_record = {k: v for k, v in record.items() if k != "clock"}
    assert transfer.import_game(json.dumps(old_record)).time_control == TimeControl()
    with pytest.raises(transfer.ImportRefused, match="clock cannot be read: bank must be from"):
        transfer.import_game(json.dumps({**record, "clock": {"mode": "bank", "bank": -1}}))


def test_the_lobby_and_forming_page_state_the_time_control(anna):
    control = TimeControl(mode=BANK, bank=5 * DAY, bonus=DAY, cap=5 * DAY, days_off=(5, 6))
    game = lobby.create_game(anna, num_players=3, time_control=control)
    text = "time bank 5\xa0days, +1\xa0day per turn (up to 5\xa0days), weekends off"
    assert text in signed_in(anna).get(reverse("games:lobby")).content.decode()
    assert text in game_page(signed_in(anna), game)


def test_the_reminder_states_the_deadline_in_the_recipients_time_zone(
    anna, ben, django_capture_on_commit_callbacks
):
    game = timed_game(anna, ben, control=FISCHER)
    seat = acting(game)
    seat.user.time_zone = "Asia/Kolkata"
    seat.user.save(update_fields=["time_zone"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert remind(game.pk, now=game.next_reminder_at + timedelta(seconds=1))
    [email] = [m for m in mail.outbox if m.to == [seat.user.email]]
    india = game.deadline.astimezone(ZoneInfo("Asia/Kolkata"))
    assert f"{india:%H:%M} IST" in email.body
    assert datetime.now(UTC) < game.deadline


@pytest.mark.postgres
def test_the_clock_reads_its_plan_and_ends_abandoned_games_on_postgresql(
    anna, ben, django_capture_on_commit_callbacks
):
    """The page's key reads the plan as PostgreSQL answers it (jsonb, interval), and the
    sweep ends a halted game there too."""
    test_the_cached_page_follows_the_clock(anna, ben)
    Game.objects.all().delete()
    test_it_ends_an_abandoned_game_after_a_week_absent_players_last(
        anna, ben, django_capture_on_commit_callbacks
    )


def test_a_new_time_zone_moves_the_days_off_of_the_running_turn(anna, ben):
    game = timed_game(anna, ben, control=TimeControl(per_turn=DAY, days_off=(5, 6)))
    player = acting(game).user
    game = started_at(game, datetime(2026, 6, 5, 12, tzinfo=UTC))  # Friday noon, UTC
    assert game.deadline == datetime(2026, 6, 8, 12, tzinfo=UTC)
    browser = signed_in(player)
    browser.post(reverse("accounts:profile"), {"form": "time_zone", "time_zone": "Asia/Tokyo"})
    game.refresh_from_db()
    # In Tokyo the weekend began at 15:00 UTC on Friday: 3 hours played, 21 on Monday.
    assert game.deadline.astimezone(ZoneInfo("Asia/Tokyo")) == datetime(
        2026, 6, 8, 21, tzinfo=ZoneInfo("Asia/Tokyo")
    )
