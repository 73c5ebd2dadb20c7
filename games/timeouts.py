"""What the clock does when it runs out: reminders, and the bot playing a timed-out turn.

After GAMES_TIMEOUTS_FOR_AUTOPILOT timeouts in a row the bot keeps the seat (autopilot) until
the player takes it back from the game page; a move of their own resets the count. When every
person's seat is on autopilot the game waits (Game.schedule_turn) and, if nobody comes back
within GAMES_ABANDONED_AFTER, it is ended and scored as it stands, the absent players ranked
last (games.standings): the same deadline, found by the same sweep.
"""

from __future__ import annotations

import random
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import events, presence, versions
from games.bot_seats import seat_bot_name
from games.clock import is_away
from games.models import Absence, Game, Seat
from games.play import queue_bots, store_step
from games.rules import moves

TIMEOUT_LINE = "{%d} ran out of time: the bot plays this turn."


def timeouts_for_autopilot() -> int:
    return getattr(settings, "GAMES_TIMEOUTS_FOR_AUTOPILOT", 3)


def time_out(game_id: int, now=None) -> bool:
    """Play the acting player's turn with the bot if its deadline has passed; True if it did."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if not game.is_active or game.deadline is None or game.deadline > now:
            return False
        assert game.acting_seat is not None and game.turn_started_at is not None  # active
        seat = game.seats.select_related("user").get(number=game.acting_seat)
        if game.is_halted:
            if not game.every_person_on_autopilot():  # someone came back: play on
                game.schedule_turn(now)
                game.save_clock()
            else:
                end_abandoned(game, now)
                return True
        elif seat.bot_plays:
            game.deadline = None
            game.save_clock()
        elif _away(seat.user_id, now):
            game.schedule_turn(game.turn_started_at)  # an absence added late pushes it back
            game.save_clock()
            return False
        else:
            first_step = _play_turn(game, seat)
            seat.timeouts_in_row += 1
            seat.autopilot = seat.timeouts_in_row >= timeouts_for_autopilot()
            seat.save(update_fields=["timeouts_in_row", "autopilot"])
            events.timed_out.send(Game, game=game, seat=seat, step=first_step)
    queue_bots(game)
    return True


def end_abandoned(game: Game, now: datetime) -> None:
    """End a game whose people all left it to the bot: scored as it stands, the absent players
    last; game_over tells the creator and the players (in the caller's transaction)."""
    game.status = Game.Status.FINISHED
    game.abandoned_at = now
    game.acting_seat = None  # a finished game has nobody to act (manage.py replay_games)
    game.deadline = game.next_reminder_at = game.turn_plan = None
    Game.objects.filter(pk=game.pk).update(
        version=F("version") + 1,
        status=game.status,
        abandoned_at=now,
        acting_seat=None,
        **game.clock_values(),
        updated=now,
    )
    game.version += 1
    versions.changed(game.pk)
    events.game_over.send(Game, game=game, state=game.load_state())


def _away(user_id: int | None, now) -> bool:
    return is_away(Absence.objects.windows(user_id, now), now)


def _play_turn(game: Game, player: Seat) -> int:
    """The bot takes every step left in this turn (at the level the player chose for a
    takeover, games.bot_seats); each stored move is marked as a timeout."""
    engine = game.engine
    bot = seat_bot_name(engine, player)
    seat = player.number
    assert seat is not None  # a seated player of a game in progress
    state = game.load_state()
    first = engine.step(state) + 1
    rng = random.Random(f"{game.seed}/timeout/{first - 1}")
    while engine.acting_seat(state) == seat:
        step = moves.bot_step(engine, state, bot, rng)
        store_step(game, seat, step, by_bot=True, timeout=True)
        state = step.after
    game.moves.filter(seq=first).update(log=[TIMEOUT_LINE % seat, *_log_of(game, first)])
    return first


def _log_of(game: Game, seq: int) -> list[str]:
    return game.moves.filter(seq=seq).values_list("log", flat=True).first() or []


def remind(game_id: int, now=None) -> bool:
    """Send the reminder that is due for this turn, and schedule the next one."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if not game.is_active or game.next_reminder_at is None or game.next_reminder_at > now:
            return False
        seat = game.seats.select_related("user").get(number=game.acting_seat)
        # Not while they have the game open: this alarm is skipped, the next one still comes.
        looking = seat.user_id is not None and presence.is_open(game.pk, seat.user_id)
        if not seat.bot_plays and seat.user is not None and not looking:
            events.reminder_due.send(Game, game=game, seat=seat, number=game.reminder_number(now))
        game.schedule_next_reminder(now)
        game.save_clock()
    return True


def due_games(now: datetime | None = None) -> tuple[list[int], list[int]]:
    """(games past their deadline, games due a reminder): two indexed queries."""
    now = now or timezone.now()
    return Game.objects.past_deadline(now), Game.objects.due_reminder(now)


def stalled_bot_games(now: datetime | None = None) -> list[int]:
    """Active games whose bot turn began a while ago yet is still waiting."""
    return Game.objects.stalled_bot_turns(now or timezone.now())
