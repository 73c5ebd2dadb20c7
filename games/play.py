"""Moves against a stored game: validated by the engine inside one transaction.

Two submissions against the same version (a double click, two tabs, two servers) are settled by
a conditional UPDATE on the version column: exactly one matches, the other is told the game
moved on. select_for_update serialises the work on PostgreSQL; the unique (game, seq) constraint
is the last line of defence everywhere.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events, jobs, redraws, versions
from games.bot_seats import seat_bot_name
from games.errors import Conflict, NotInGame, RequestRefused
from games.models import Game, Move, Seat
from games.rules import moves, protocol

log = logging.getLogger(__name__)

PLAY_BOTS_TASK = "games.tasks.play_bots"
STALE = gettext_lazy(
    "The game has moved on since you loaded it; the board now shows the current position."
)


@dataclass
class Moved:
    """What a player's move did: the game after it, its seats as the move read them under the
    game's lock (the clock, the notifications, the bots and the mover's new page reuse them:
    one read of the seats per move), and the step the rules applied."""

    game: Game
    seats: list[Seat]
    step: moves.Step | None  # None for an undo


def _my_seat(seats: Sequence[Seat], user: Any) -> Seat:
    """The user's seat, read once with the others (Game.seats_for_page)."""
    if not getattr(user, "is_authenticated", False):
        raise NotInGame(_("Sign in to play."))
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        raise NotInGame(_("You are not playing in this game."))
    if mine.resigned_at is not None:
        raise Conflict(_("You resigned this game; a bot plays your seat."))
    return mine


def _check_can_act(game: Game, seat: int | None, version: int | None) -> None:
    if game.is_finished:
        raise Conflict(_("This game is over; no more moves can be made."))
    if not game.is_active:
        raise Conflict(_("This game has not started yet."))
    if version is not None and version != game.version:
        raise Conflict(str(STALE))
    if game.acting_seat != seat:
        raise Conflict(_("It is not your turn."))


def move(game_id: int, user: Any, action: Any, version: int | None) -> Moved:
    """Apply one player's action; raises a GameError (nothing stored) when it is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = game.seats_for_page()
        mine = _my_seat(seats, user)
        _check_can_act(game, mine.number, version)
        try:
            step = moves.play(game.engine, game.load_state(), action)
        except moves.Refused as refused:
            raise RequestRefused(refused.text) from None
        assert mine.number is not None  # seated: the game is active
        store_step(game, mine.number, step, seats=seats)
        if mine.timeouts_in_row:  # moving in time ends a run of timeouts
            game.seats.filter(number=mine.number).update(timeouts_in_row=0)
            mine.timeouts_in_row = 0  # the seat the mover's new page shows
    queue_bots(game, seats)
    return Moved(game, seats, step)


def submit_move(game_id: int, user: Any, action: Any, version: int | None) -> Game:
    """``move`` for callers that need only the game after it (bots in tests, benchmarks)."""
    return move(game_id, user, action, version).game


def undo_move(game_id: int, user: Any, version: int | None) -> Moved:
    """Take back the player's last step by replaying the log without it."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = game.seats_for_page()
        _check_can_act(game, _my_seat(seats, user).number, version)
        if not game.engine.can_undo(game.load_state()):
            raise Conflict(
                _("That step cannot be taken back: something hidden or random followed.")
            )
        actions = list(game.moves.order_by("seq").values_list("action", flat=True))
        state = game.replayed_state(actions[:-1])
        game.moves.filter(seq=len(actions)).delete()
        _save(game, state, turn_passed=False, seats=seats)
        events.move_undone.send(Game, game=game, step=len(actions) - 1)
    return Moved(game, seats, None)


def record_move(
    game: Game,
    seat: int,
    action: dict[str, Any],
    new_state: protocol.State,
    *,
    by_bot: bool = False,
    timeout: bool = False,
    before: protocol.State | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Store an action already applied to the game's state (``before``, read from the game's
    cache if not given) giving ``new_state``: store_step for callers holding the two states."""
    before = game.load_state() if before is None else before
    step = moves.step_of(game.engine, before, action, new_state)
    store_step(game, seat, step, by_bot=by_bot, timeout=timeout, seats=seats)


def store_step(
    game: Game,
    seat: int,
    step: moves.Step,
    *,
    by_bot: bool = False,
    timeout: bool = False,
    seats: list[Seat] | None = None,
) -> None:
    """Store the move and the new cached state, or raise Conflict if someone got there first.
    Called inside the caller's transaction (with the game's row locked): a clash rolls all of
    it back, and what the game publishes (games.events) commits with it. ``seats``: the game's
    seats if the caller read them already."""
    turn_passed = step.turn_passed(game.acting_seat)
    try:
        Move.objects.create(
            game=game,
            seq=step.number,
            seat=seat,
            turn=step.turn,
            action=step.action,
            log=step.log,
            changes=step.changes,
            by_bot=by_bot,
            timeout=timeout,
        )
    except IntegrityError:
        raise Conflict(str(STALE)) from None
    _save(game, step.after, turn_passed=turn_passed, seats=seats)
    events.move_made.send(
        Game, game=game, seat=seat, step=step.number, by_bot=by_bot, timeout=timeout, seats=seats
    )
    if step.over:  # the history's record and the ratings are written by its receivers
        events.game_over.send(Game, game=game, state=step.after)
    elif turn_passed:
        events.turn_passed.send(Game, game=game, step=step.number, seats=seats)


def _save(
    game: Game,
    state: protocol.State,
    *,
    turn_passed: bool = True,
    seats: list[Seat] | None = None,
) -> None:
    old_version = game.version
    game.store_state(state)
    if turn_passed:
        game.start_turn_clock(seats)
    updated = Game.objects.filter(pk=game.pk, version=old_version).update(
        version=F("version") + 1,
        state=game.state,
        acting_seat=game.acting_seat,
        status=game.status,
        **game.clock_values(),
        updated=timezone.now(),  # update() skips auto_now; My games sorts and shows by it
    )
    if updated != 1:
        raise Conflict(str(STALE))
    game.version = old_version + 1
    versions.changed(game.pk)
    # Once committed, a worker draws the players' pages before their polls ask for them.
    redraws.after_commit(game.pk)


def queue_bots(game: Game, seats: Sequence[Seat] | None = None) -> None:
    """After commit, let a worker play the bots' turns (eagerly in tests). ``seats``: the
    game's seats if the caller read them already."""
    bot_seats: set[int | None]
    if seats is not None:
        bot_seats = {seat.number for seat in seats if seat.bot_plays}
    else:
        bot_seats = set(
            game.seats.filter(Q(autopilot=True) | ~Q(bot="")).values_list("number", flat=True)
        )
    if game.is_active and game.acting_seat in bot_seats:
        jobs.after_commit(PLAY_BOTS_TASK, game.pk, about=f"bots of game {game.pk}")


def run_bots(game_id: int, max_steps: int = 2000) -> int:
    """Play every step that belongs to a bot seat; returns how many were played."""
    played = 0
    while played < max_steps:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if not game.is_active or game.is_halted:  # halted: every person left it to the bot
                return played
            seat = game.seats.filter(number=game.acting_seat).select_related("user").first()
            if seat is None or seat.number is None or not seat.bot_plays:
                return played
            engine = game.engine
            state = game.load_state()
            rng = random.Random(f"{game.seed}/bot/{engine.step(state)}")
            bot = seat_bot_name(engine, seat)
            try:
                step = moves.bot_step(engine, state, bot, rng)
            except engine.illegal_action:  # a bug in the bot: retrying would repeat it
                log.exception("game %s: bot %r chose an illegal action", game_id, bot)
                return played
            store_step(game, seat.number, step, by_bot=True)
        played += 1
    log.warning("bots of game %s stopped after %s steps", game_id, max_steps)
    return played
