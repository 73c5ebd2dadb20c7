"""Games, seats and moves. The moves are the truth; the stored state is a cache of them.

A game is its seed, options and ordered moves (like Terra Mystica's site): `state` is rebuilt
from those by `replay_games` and must always match. The state holds hidden information
(hands, deck order), so it is only ever turned into a page through the engine's player_view.
"""

from __future__ import annotations

import logging
import secrets
import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import Any, NamedTuple

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import clock
from games.clock import TurnPlan
from games.rules import moves, protocol, registry
from games.timecontrol import TimeControl

log = logging.getLogger(__name__)

TIME_LIMITS = [
    (timedelta(hours=12), _("12 hours")),
    (timedelta(days=1), _("1 day")),
    (timedelta(days=2), _("2 days")),
    (timedelta(days=3), _("3 days")),
    (timedelta(days=7), _("7 days")),
    (timedelta(days=14), _("14 days")),
]
GAME_NAME_MAX_LENGTH = 60
FORMER_PLAYER = _("Former player")  # the seat of a player who deleted their account


def time_limit_label(limit: timedelta) -> str:
    """A turn's time limit in words, in the active language ("3 days", "3 Tage")."""
    label = dict(TIME_LIMITS).get(limit)
    return str(label) if label is not None else str(limit)


def abandoned_after() -> timedelta:
    """How long a game waits with every person's seat on autopilot before it is ended."""
    return getattr(settings, "GAMES_ABANDONED_AFTER", timedelta(days=7))


def player_zone(name: str | None) -> tzinfo:
    """A player's time zone by its IANA name; the site's zone if unset or unknown."""
    if name:
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    return timezone.get_default_timezone()


@dataclass(frozen=True)
class SeatClock:
    """What one seat's clock shows (Game.seat_clocks): the clock time it has left, the bank
    between turns or the turn's time while it plays, and whether that runs now."""

    seat: int
    left: timedelta
    running: bool  # this seat is to act and its clock is not resting
    acting: bool
    is_bank: bool
    deadline: datetime | None = None  # when the time left runs out (the acting seat)
    paused_until: datetime | None = None  # the end of the day off or absence it rests in

    @property
    def low(self) -> bool:
        """Less than a fifth of a day left while it runs: shown in warning colours."""
        return self.acting and self.left < timedelta(hours=5)


class ActingSeat(NamedTuple):
    user_id: int | None
    bot_plays: bool
    is_bot: bool
    zone: tzinfo
    bank: timedelta | None
    alarms: list[int] = []  # the player's deadline alarms, minutes before (accounts.User)


def new_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbits(48)


class GameQuerySet(models.QuerySet):
    """The clock's sweep: each question is one query on a partial index (order_by(): no sort
    by Meta.ordering, the indexes serve the ranges)."""

    def past_deadline(self, now: datetime) -> list[int]:
        return list(self.order_by().filter(deadline__lte=now).values_list("pk", flat=True))

    def due_reminder(self, now: datetime) -> list[int]:
        due = self.order_by().filter(next_reminder_at__lte=now, deadline__gt=now)
        return list(due.values_list("pk", flat=True))

    def stalled_bot_turns(self, now: datetime) -> list[int]:
        """Active games whose bot turn began a while ago yet is still waiting: its task was
        queued when the turn passed, and if the broker was down then nothing else would ever
        play it, so the sweep queues it again."""
        stalled = self.order_by().filter(
            status=Game.Status.ACTIVE,
            deadline=None,
            turn_started_at__lte=now - clock.BOT_TURN_GRACE,
        )
        return list(stalled.values_list("pk", flat=True))


class Game(models.Model):
    # The clock's fields: schedule_turn sets them together, save_clock stores them together.
    CLOCK_FIELDS = (
        "turn_started_at",
        "deadline",
        "next_reminder_at",
        "turn_plan",
        "started_at",
        "progress",
    )
    # Not stored: My games sets them on each row it lists (the other seats, the acting one).
    opponents: list[Seat]
    mine: Seat
    acting: Seat | None

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    # Null once the creator deleted their account: the game stays for the other players.
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
    )
    name = models.CharField(
        max_length=GAME_NAME_MAX_LENGTH, blank=True, help_text="Optional; shown as the title."
    )
    num_players = models.PositiveSmallIntegerField()
    auto_start = models.BooleanField(
        default=True, help_text="Start by itself when the last seat is taken."
    )
    engine_name = models.CharField(
        max_length=40,
        default=registry.default_name,
        help_text="The game played: the name of its engine in games.rules.registry.",
    )
    rules_version = models.CharField(
        max_length=20,
        blank=True,
        help_text="The engine's rules version the game is played under (set when created).",
    )
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField(default=new_seed)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    is_public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    time_limit = models.DurationField(default=timedelta(days=3))
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped on every change (move or undo): what pages poll for."
    )
    chat_version = models.PositiveIntegerField(
        default=0,
        help_text="Bumped when the table talk changes (chat/); the poll compares it too. Apart "
        "from version, so a chat message never makes a move stale.",
    )
    acting_seat = models.SmallIntegerField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True, editable=False)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # Indexed by the partial indexes below: only games with a clock running are in them.
    deadline = models.DateTimeField(null=True, blank=True)
    next_reminder_at = models.DateTimeField(null=True, blank=True)
    # The time control beyond time_limit (games.timecontrol.TimeControl.storage(): empty for
    # the plain clock per turn), and the running turn's plan (games.clock.TurnPlan: the time
    # it was given and its pauses), so the time left is read without a query.
    clock = models.JSONField(default=dict, blank=True)
    turn_plan = models.JSONField(null=True, blank=True, editable=False)
    # The pace: when play began and the share of the game played (the engine's progress).
    started_at = models.DateTimeField(null=True, blank=True)
    progress = models.FloatField(null=True, blank=True, editable=False)
    abandoned_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the game was ended because every person's seat was on autopilot.",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated"]
        indexes = [
            models.Index(fields=["status", "is_public"]),
            # The lobby: open public games, newest first, read from the index in its order.
            # Partial on is_public: SQLite tests a boolean as the bare column, which an
            # equality column of an index cannot serve; the index's own condition can.
            models.Index(
                fields=["status", "-created"],
                name="game_lobby",
                condition=models.Q(is_public=True),
            ),
            # The deadline sweep: only games whose clock runs, so its range scans stay as
            # short as the due games however many games there are (games.clock.due_games).
            models.Index(
                fields=["deadline"],
                name="game_deadline_running",
                condition=models.Q(deadline__isnull=False),
            ),
            models.Index(
                fields=["next_reminder_at"],
                name="game_reminder_pending",
                condition=models.Q(next_reminder_at__isnull=False),
            ),
            # Bot turns have no deadline: the sweep re-queues those that stalled.
            models.Index(
                fields=["turn_started_at"],
                name="game_bot_turn_started",
                condition=models.Q(status="active", deadline=None),
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self.rules_version:  # a new game plays the current rules of its engine
            self.rules_version = registry.get(self.engine_name).rules_version
        super().save(*args, **kwargs)

    @property
    def engine(self) -> protocol.Engine:
        """The engine of the rules this game is played under: everything the platform asks
        about the game goes through it. UnknownEngine if this site cannot play it."""
        return registry.get(self.engine_name, self.rules_version or None)

    @property
    def option_tags(self) -> list[str]:
        """The game's notable options as short tags (the list of open games)."""
        return self.engine.option_tags(self.options or {})

    @property
    def title(self) -> str:
        """The game's name if it has one, else its number."""
        return self.name or gettext("Game %(number)s") % {"number": self.pk}

    @property
    def time_limit_label(self) -> str:
        return time_limit_label(self.time_limit)

    # --- engine state -----------------------------------------------------------------------

    def initial_state(self) -> protocol.State:
        return self.engine.new_game(self.num_players, self.seed, self.options)

    def load_state(self) -> protocol.State:
        """The cached state, or the log's replay when the cache is from an older schema of the
        engine's state (or unreadable): the move log is the truth, the state only a cache."""
        try:
            return self.engine.from_dict(self.state)
        except ValueError:
            log.warning("game %s: stored state unreadable, replaying its move log", self.pk)
            return self.replayed_state()

    def store_state(self, state: protocol.State) -> None:
        engine = self.engine
        self.state = engine.to_dict(state)
        self.acting_seat = engine.acting_seat(state)
        self.progress = protocol.progress(engine, state)
        if engine.is_over(state):
            self.status = self.Status.FINISHED
            self.deadline = self.next_reminder_at = None

    def replayed_state(self, actions: list[dict[str, Any]] | None = None) -> protocol.State:
        """The state rebuilt from seed, options and the move log alone."""
        if actions is None:
            actions = list(self.moves.order_by("seq").values_list("action", flat=True))
        return moves.replay(self.engine, self.initial_state(), actions)

    def first_seat(self) -> int | None:
        """The seat that played first (public): e-mails about the start name them. Read from
        the move log (or the acting seat before the first move), never from the seed: the seed
        also deals the hidden cards."""
        first = self.moves.order_by("seq").values_list("seat", flat=True).first()
        return self.acting_seat if first is None else first

    def seat_colour(self, number: int) -> str:
        return self.engine.look.seat_colours[number]

    # --- seats ------------------------------------------------------------------------------

    def seats_for_page(self) -> list[Seat]:
        """The seats with their players, and when each player's current absence ends (if away):
        one query."""
        now = timezone.now()
        away = Absence.objects.filter(user=OuterRef("user_id"), starts__lte=now, ends__gt=now)
        return list(
            self.seats.select_related("user")
            .annotate(away_until=Subquery(away.values("ends")[:1]))
            .order_by("number", "joined", "pk")
        )

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def admits(self, token: str) -> bool:
        """Whether an invite link's token still opens this game to its holder: only while a
        seat is free (used, the table full or revoked, it opens nothing any more), either the
        game's shared link or an emailed invitee's own."""
        if not token or not self.is_open or self.seats.count() >= self.num_players:
            return False
        # Bytes: compare_digest refuses str with non-ASCII characters (a hostile token).
        if secrets.compare_digest(token.encode(), self.invite_token.encode()):
            return True
        return self.invitations.filter(token=token).exists()

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def ended_by_resignation(self) -> bool:
        """Finished without the engine's end: a resignation ended it (see games.resign)."""
        return (
            self.is_finished
            and self.abandoned_at is None
            and not self.engine.is_over(self.load_state())
        )

    @property
    def ended_abandoned(self) -> bool:
        """Ended because every person's seat was on autopilot for a week (games.timeouts)."""
        return self.is_finished and self.abandoned_at is not None

    # --- the turn clock ----------------------------------------------------------------------

    def start_turn_clock(self, seats: list[Seat] | None = None) -> None:
        """A new turn: the turn that ended pays into its seat's time bank (if the game has
        one), then the new turn gets its deadline and first reminder. ``seats``: the game's
        seats, if the caller read them already (a move does)."""
        now = timezone.now()
        self.settle_bank(now, seats)
        self.schedule_turn(now, seats)

    def schedule_turn(self, start: datetime, seats: list[Seat] | None = None) -> None:
        """Set the clock fields for the turn that starts at `start` (not saved: save_clock, or
        the move's conditional update, stores them): its deadline, pushed back by the player's
        absences and days off, its first reminder, and its plan (games.clock.TurnPlan).

        A bot's turn has no clock. When every person's seat is on autopilot the bots stop at
        the next such seat and the game waits: if nobody takes a seat back within
        GAMES_ABANDONED_AFTER, the sweep ends it (games.timeouts.end_abandoned)."""
        self.turn_started_at = start
        self.deadline = self.next_reminder_at = self.turn_plan = None
        if not self.is_active or self.acting_seat is None:
            return
        if self.started_at is None:
            self.started_at = start
        acting = self.acting_row(seats)
        if acting.bot_plays:
            if not acting.is_bot and self.every_person_on_autopilot(seats):
                self.turn_plan = {"seat": self.acting_seat, "halted": True}
                self.deadline = start + abandoned_after()
            return  # a bot moves at once; it needs no clock
        control = self.time_control
        plan = clock.plan_turn(
            start,
            control.allotment(acting.bank),
            absences=Absence.objects.windows(acting.user_id, start),
            zone=acting.zone,
            days_off=control.days_off,
        )
        self.deadline = plan.deadline
        self.turn_plan = {"seat": self.acting_seat, **plan.to_dict()}
        if acting.alarms:  # the player's own alarms, kept with the turn's plan
            self.turn_plan["alarms"] = acting.alarms
        self.schedule_next_reminder(start)

    def settle_bank(self, now: datetime, seats: list[Seat] | None = None) -> None:
        """The turn of the plan's seat ended at `now`: its bank keeps what was left, plus the
        bonus, up to the cap (time banks only; a bot's turn has no plan and pays nothing)."""
        control = self.time_control
        plan = self.current_plan()
        if not control.is_bank or plan is None or self.turn_plan is None:
            return
        number = self.turn_plan.get("seat")
        bank = clock.bank_after_turn(
            plan.allotted, plan.used(now), bonus=control.bonus, cap=control.cap
        )
        Seat.objects.filter(game=self, number=number).update(bank=bank)
        for seat in seats or []:
            if seat.number == number:
                seat.bank = bank

    def current_plan(self) -> TurnPlan | None:
        """The running turn's plan (None for a bot's turn, a halted or a finished game). A turn
        scheduled before plans were stored counts plainly to its deadline."""
        if self.deadline is None or self.turn_started_at is None or self.is_halted:
            return None
        try:
            return clock.TurnPlan.from_dict(self.turn_plan, self.turn_started_at, self.deadline)
        except (ValueError, KeyError, TypeError):
            start = self.turn_started_at
            return clock.TurnPlan(start, self.deadline - start, self.deadline, [])

    @property
    def is_halted(self) -> bool:
        """Every person's seat is on autopilot: the bots wait, and the game ends at its deadline
        unless a player takes their seat back."""
        return bool(self.turn_plan and self.turn_plan.get("halted"))

    def every_person_on_autopilot(self, seats: list[Seat] | None = None) -> bool:
        if seats is not None:
            people = [s for s in seats if s.user_id is not None and not s.bot]
            return bool(people) and all(s.autopilot for s in people)
        persons = self.seats.filter(user__isnull=False, bot="")
        return persons.exists() and not persons.filter(autopilot=False).exists()

    # --- what the clock shows (pages, My games, the inbox, the API) ------------------------------

    def seat_clocks(self, seats: list[Seat], now: datetime | None = None) -> dict[int, SeatClock]:
        """Each seat's clock by seat number, without a query (the seats as the page read
        them): the acting seat's time left for this turn (counted without its pauses), and in a
        time bank game every other person's bank. Seats a bot plays have none; nor has a game
        that is not in progress, or one waiting with every seat on autopilot."""
        if not self.is_active or self.is_halted:
            return {}
        now = now or timezone.now()
        control = self.time_control
        plan = self.current_plan()
        clocks = {}
        for seat in seats:
            if seat.number is None or seat.bot_plays:
                continue
            if seat.number == self.acting_seat and plan is not None:
                paused = plan.paused_until(now)
                clocks[seat.number] = SeatClock(
                    seat.number,
                    plan.left(now),
                    running=paused is None,
                    acting=True,
                    is_bank=control.is_bank,
                    deadline=plan.deadline,
                    paused_until=paused,
                )
            elif control.is_bank:
                left = control.allotment(seat.bank)
                clocks[seat.number] = SeatClock(seat.number, left, False, False, True)
        return clocks

    def time_left(self, seat: Seat, now: datetime | None = None) -> SeatClock | None:
        """One seat's clock (see seat_clocks), or None when it shows nothing."""
        return self.seat_clocks([seat], now).get(seat.number) if seat.number is not None else None

    def expected_end(self, now: datetime | None = None) -> datetime | None:
        """When the game should end at the pace of its moves so far (the engine's progress
        over the time since play began); None while that cannot be told."""
        if not self.is_active or self.started_at is None:
            return None
        now = now or timezone.now()
        left = clock.expected_end(self.started_at, now, self.progress)
        return None if left is None else now + left

    # --- time control -------------------------------------------------------------------------

    @property
    def time_control(self) -> TimeControl:
        """The game's clock settings (games.timecontrol); settings that cannot be read fall back
        to the plain clock per turn, and are logged."""
        try:
            return TimeControl.from_dict(self.clock or {}, per_turn=self.time_limit)
        except ValueError:
            log.warning("game %s: clock settings unreadable, counting per turn", self.pk)
            return TimeControl(per_turn=self.time_limit)

    def set_time_control(self, control: TimeControl) -> None:
        """Store these settings (not saved); ValueError if one is out of bounds."""
        control.check()
        self.time_limit = control.per_turn
        self.clock = control.storage()

    @property
    def clock_label(self) -> str:
        """The time control in words ("3 days per turn", "time bank 5 days, +1 day per turn (up
        to 5 days), weekends off"): lobby, forming page, emails."""
        return self.time_control.label()

    def clock_values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.CLOCK_FIELDS}

    def save_clock(self) -> None:
        self.save(update_fields=list(self.CLOCK_FIELDS))

    def schedule_next_reminder(self, now: datetime) -> None:
        """After a reminder went out: the next one of this turn, if any (not saved)."""
        plan = self.current_plan()
        alarms = self._alarms()
        if plan is None:
            self.next_reminder_at = None
        elif alarms:
            self.next_reminder_at = clock.next_alarm(plan.start, plan.deadline, alarms, after=now)
        else:
            self.next_reminder_at = clock.next_reminder(
                plan.start, plan.allotted, plan.deadline, plan.pauses, after=now
            )

    def _alarms(self) -> list[int]:
        """The acting player's own deadline alarms for this turn ([]: the site's default)."""
        alarms = (self.turn_plan or {}).get("alarms") or []
        return [int(m) for m in alarms if isinstance(m, int)]

    def reminder_number(self, now: datetime) -> int:
        """Which reminder of the turn is due now (0 for the first)."""
        plan = self.current_plan()
        if plan is None:
            return 0
        if self._alarms():
            return clock.alarm_number(plan.deadline, self._alarms(), now)
        return clock.reminder_number(plan.start, plan.allotted, plan.pauses, now)

    def acting_player(self, seats: list[Seat] | None = None) -> tuple[int | None, bool]:
        """(user id, whether a bot plays) of the acting seat; from ``seats`` when the caller
        read them already."""
        row: tuple[int | None, str, bool] | None
        if seats is not None:
            seat = next((s for s in seats if s.number == self.acting_seat), None)
            row = (seat.user_id, seat.bot, seat.autopilot) if seat is not None else None
        else:
            row = (
                self.seats.filter(number=self.acting_seat)
                .values_list("user_id", "bot", "autopilot")
                .first()
            )
        if row is None:
            return None, True
        user_id, bot, autopilot = row
        return user_id, bool(bot) or autopilot

    def acting_row(self, seats: list[Seat] | None = None) -> ActingSeat:
        """What the clock needs of the acting seat (its player's time zone, its bank); from
        ``seats`` when the caller read them already, else one query."""
        if seats is not None:
            seat = next((s for s in seats if s.number == self.acting_seat), None)
            row = None
            if seat is not None:
                zone_name = seat.user.time_zone if seat.user is not None else ""
                alarms = seat.user.deadline_alarms if seat.user is not None else []
                row = (seat.user_id, seat.bot, seat.autopilot, zone_name, seat.bank, alarms)
        else:
            row = (
                self.seats.filter(number=self.acting_seat)
                .values_list(
                    "user_id",
                    "bot",
                    "autopilot",
                    "user__time_zone",
                    "bank",
                    "user__deadline_alarms",
                )
                .first()
            )
        if row is None:
            return ActingSeat(None, True, True, player_zone(""), None)
        user_id, bot, autopilot, zone_name, bank, alarms = row
        return ActingSeat(
            user_id,
            bool(bot) or autopilot,
            bool(bot),
            player_zone(zone_name),
            bank,
            [int(m) for m in alarms or [] if isinstance(m, int)],
        )

    MOVED_SINCE = "they have moved since"

    def turn_news_stale(self, user: Any, *, reminder: bool, since: int | None) -> str:
        """Why news of a turn (your turn since move `since`, or a reminder) no longer concerns
        this player, empty if it does: the game's one answer to the outbox."""
        if not self.is_active:
            return "the game is no longer in progress"
        seat = self.seats.filter(user=user).first()
        if seat is None or seat.bot_plays:
            return "the bot plays this seat"
        if reminder and self.acting_seat != seat.number:
            return "no longer their turn"
        number = seat.number
        if reminder or since is None or number is None:
            return ""
        if self.moves.filter(seat=number, seq__gt=since).exists():
            return self.MOVED_SINCE
        return ""


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seats",
    )
    bot = models.CharField(max_length=20, blank=True, help_text="Bot kind, empty for a person.")
    bot_name = models.CharField(max_length=20, blank=True, help_text="What the bot is called.")
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    colour = models.CharField(max_length=10, blank=True)
    joined = models.DateTimeField(auto_now_add=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    bank = models.DurationField(
        null=True,
        blank=True,
        help_text="Time bank left between the seat's turns (time bank games; empty: the whole "
        "starting bank).",
    )
    autopilot = models.BooleanField(
        default=False, help_text="The bot keeps this player's seat after repeated timeouts."
    )
    resigned_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player conceded; a bot plays on, for good."
    )
    resigned_step = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game's step at the resignation (for the log)."
    )
    former_player = models.BooleanField(
        default=False,
        help_text="The player deleted their account: shown as Former player (a bot plays on "
        "in a game in progress).",
    )

    class Meta:
        ordering = ["number", "joined", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["game", "user"],
                name="unique_player_per_game",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def bot_plays(self) -> bool:
        """A bot seat, or a player's seat the bot has taken over."""
        return bool(self.bot) or self.autopilot

    @property
    def has_resigned(self) -> bool:
        return self.resigned_at is not None

    @property
    def name(self) -> str:
        if self.former_player:
            return str(FORMER_PLAYER)
        if self.is_bot:
            return gettext("Bot %(name)s") % {"name": self.bot_name or self.bot.capitalize()}
        return self.user.public_name if self.user else gettext("Open seat")

    @property
    def label(self) -> str:
        if self.has_resigned:
            return gettext("%(name)s (resigned, bot playing)") % {"name": self.name}
        bot_plays = self.autopilot or (self.former_player and self.is_bot)
        if bot_plays:
            return gettext("%(name)s (bot playing)") % {"name": self.name}
        return self.name


class Invitation(models.Model):
    """An invited player: an account (by display name, or by an address that has one) or an
    email address that has no account yet; that one is linked to the account made with it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
    )
    email = models.EmailField(
        blank=True, help_text="The address typed by the inviter; shown to them only."
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    email_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="Claimed by a conditional update: sent once."
    )
    token = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_index=True,
        help_text="The emailed invitee's own link (games/invite/<token>/): it seats whoever "
        "signs in with it, once; gone with the invitation (used, revoked, table full).",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="unique_invitation"),
            models.UniqueConstraint(
                fields=["game", "email"],
                name="unique_email_invitation",
                condition=~models.Q(email=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email or self.user} invited to {self.game}"

    @property
    def by_email(self) -> bool:
        return bool(self.email)

    @property
    def link_token(self) -> str:
        """The token of the link the invitee got: their own, or (older invitations) the
        game's shared one."""
        return self.token or self.game.invite_token


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(
        help_text="1 for the first move; equals the version after it."
    )
    seat = models.PositiveSmallIntegerField()
    turn = models.PositiveIntegerField(
        default=0, help_text="The engine's turn number (1 for the first turn) the move belongs to."
    )
    action = models.JSONField()
    log = models.JSONField(default=list, help_text="Public log lines with {seat} tokens.")
    changes = models.JSONField(
        default=dict, blank=True, help_text="What the move changed, public parts only."
    )
    by_bot = models.BooleanField(default=False)
    timeout = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_move_seq")]
        indexes = [models.Index(fields=["game", "turn"], name="move_game_turn")]

    def __str__(self) -> str:
        return f"{self.game} move {self.seq}"


class AbsenceQuerySet(models.QuerySet):
    def windows(self, user_id: int | None, after: datetime) -> list[clock.Window]:
        """The player's absences that end after `after`, as (starts, ends) pairs."""
        rows = self.filter(user_id=user_id, ends__gt=after).values_list("starts", "ends")
        return list(rows)


class Absence(models.Model):
    """A player's vacation: deadlines of their turns do not run while they are away."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences"
    )
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    created = models.DateTimeField(auto_now_add=True)

    objects = AbsenceQuerySet.as_manager()

    class Meta:
        ordering = ["starts"]
        indexes = [models.Index(fields=["user", "ends"])]

    def __str__(self) -> str:
        return f"{self.user} away {self.starts:%Y-%m-%d} to {self.ends:%Y-%m-%d}"

    @property
    def first_day(self) -> date:
        """The first day away as the player entered it (in their time zone)."""
        return timezone.localtime(self.starts).date()

    @property
    def last_day(self) -> date:
        """The last day away as entered: the absence ends at the midnight after it."""
        return timezone.localtime(self.ends - timedelta(microseconds=1)).date()
