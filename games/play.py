"""Moves against a stored game: validated by the engine inside one transaction.

Two submissions against the same version (a double click, two tabs, two servers) are settled by
a conditional UPDATE on the version column: exactly one matches, the other is told the game
moved on. select_for_update serialises the work on PostgreSQL; the unique (game, seq) constraint
is the last line of defence everywhere.
"""

from __future__ import annotations

import logging
import random
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events, pagecache, versions
from games.bot_seats import seat_bot
from games.errors import Conflict, NotInGame, RequestRefused
from games.models import Game, Move
from games.rules import protocol
from players.results import record_game_end

log = logging.getLogger(__name__)

PLAY_BOTS_TASK = "games.tasks.play_bots"  # registered when the app is ready (GamesConfig)
STALE = gettext_lazy(
    "The game has moved on since you loaded it; the board now shows the current position."
)


def _seat_number(game: Game, user: Any) -> int:
    """The user's seat. The seats are read once, with their players (Game.seats_for_page): the
    clock, the notifications, queue_bots and the mover's new page reuse them after the move."""
    if not getattr(user, "is_authenticated", False):
        raise NotInGame(_("Sign in to play."))
    seats = game.seats_for_page()
    game.page_seats = seats
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        raise NotInGame(_("You are not playing in this game."))
    if mine.resigned_at is not None:
        raise Conflict(_("You resigned this game; a bot plays your seat."))
    # A seat has no number only while its table forms, where _check_can_act refuses any move.
    return cast(int, mine.number)


def _check_can_act(game: Game, seat: int, version: int | None) -> None:
    if game.is_finished:
        raise Conflict(_("This game is over; no more moves can be made."))
    if not game.is_active:
        raise Conflict(_("This game has not started yet."))
    if version is not None and version != game.version:
        raise Conflict(str(STALE))
    if game.acting_seat != seat:
        raise Conflict(_("It is not your turn."))


def submit_move(game_id: int, user: Any, action: Any, version: int | None) -> Game:
    """Apply one player's action; raises a GameError (nothing stored) when it is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = _seat_number(game, user)
        rows = game.seat_rows or {}
        _check_can_act(game, seat, version)
        engine = game.engine
        state = game.load_state()
        try:
            new_state = engine.apply_action(state, action)
        except engine.illegal_action as exc:
            raise RequestRefused(engine.refusal_text(exc)) from None
        canonical = next(a for a in engine.legal_actions(state) if a == action)
        record_move(game, seat, canonical, new_state, before=state)
        if rows[seat].timeouts_in_row:  # moving in time ends a run of timeouts
            game.seats.filter(number=seat).update(timeouts_in_row=0)
            rows[seat].timeouts_in_row = 0  # the seat the mover's new page shows
    queue_bots(game)
    return game


def undo_move(game_id: int, user: Any, version: int | None) -> Game:
    """Take back the player's last step by replaying the log without it."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = _seat_number(game, user)
        _check_can_act(game, seat, version)
        if not game.engine.can_undo(game.load_state()):
            raise Conflict(
                _("That step cannot be taken back: something hidden or random followed.")
            )
        actions = list(game.moves.order_by("seq").values_list("action", flat=True))
        state = game.replayed_state(actions[:-1])
        game.moves.filter(seq=len(actions)).delete()
        _save(game, state, turn_passed=False)
        events.move_undone.send(Game, game=game, step=len(actions) - 1)
    return game


def record_move(
    game: Game,
    seat: int,
    action: dict,
    new_state: protocol.State,
    *,
    by_bot: bool = False,
    timeout: bool = False,
    before: protocol.State | None = None,
) -> None:
    """Store the move and the new cached state, or raise Conflict if someone got there first.

    ``before`` is the state the action was applied to (read from the game's cache if not
    given): the move keeps its turn number and what it changed, for the log and highlights.
    """
    engine = game.engine
    turn_passed = engine.acting_seat(new_state) != game.acting_seat
    if before is None:
        before = game.load_state()
    # Called inside the caller's transaction: a clash rolls all of it back.
    try:
        Move.objects.create(
            game=game,
            seq=engine.step(new_state),
            seat=seat,
            turn=engine.turn_no(before),
            action=action,
            log=engine.log_tokens(new_state),
            changes=engine.changes(before, new_state),
            by_bot=by_bot,
            timeout=timeout,
        )
    except IntegrityError:
        raise Conflict(str(STALE)) from None
    _save(game, new_state, turn_passed=turn_passed)
    events.move_made.send(
        Game, game=game, seat=seat, step=engine.step(new_state), by_bot=by_bot, timeout=timeout
    )
    if engine.is_over(new_state):
        # The history's record and the ratings change in this same transaction.
        record_game_end(game, new_state)
        events.game_over.send(Game, game=game)
    elif turn_passed:
        events.turn_passed.send(Game, game=game, step=engine.step(new_state), seats=game.page_seats)


def _save(game: Game, state: protocol.State, *, turn_passed: bool = True) -> None:
    old_version = game.version
    game.store_state(state)
    if turn_passed:
        game.start_turn_clock()
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
    pagecache.after_change(game.pk, game.version)


def queue_bots(game: Game) -> None:
    """After commit, let a worker play the bots' turns (eagerly in tests)."""
    rows = game.seat_rows
    bot_seats: set[int | None]
    if rows is not None:
        bot_seats = {number for number, row in rows.items() if row.bot_plays}
    else:
        bot_seats = set(
            game.seats.filter(Q(autopilot=True) | ~Q(bot="")).values_list("number", flat=True)
        )
    if game.is_active and game.acting_seat in bot_seats:
        transaction.on_commit(lambda: _queue_play_bots(game.pk))


def _queue_play_bots(game_id: int) -> None:
    """Publish play_bots; a broker that is down must not turn the committed move into a 500."""
    from celery import current_app
    from kombu.exceptions import OperationalError

    try:  # by name: games.tasks imports this module, so this one does not import it
        current_app.tasks[PLAY_BOTS_TASK].delay(game_id)
    except OperationalError:
        log.warning("bots of game %s not queued: the broker is unreachable", game_id, exc_info=True)


def run_bots(game_id: int, max_steps: int = 2000) -> int:
    """Play every step that belongs to a bot seat; returns how many were played."""
    played = 0
    while played < max_steps:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if not game.is_active:
                return played
            seat = game.seats.filter(number=game.acting_seat).select_related("user").first()
            if seat is None or seat.number is None or not seat.bot_plays:
                return played
            engine = game.engine
            state = game.load_state()
            rng = random.Random(f"{game.seed}/bot/{engine.step(state)}")
            bot = seat_bot(engine, seat)
            action = bot(state, rng)
            try:
                new_state = engine.apply_action(state, action)
            except engine.illegal_action:  # a bug in the bot: retrying would repeat it
                log.exception(
                    "game %s: bot %r chose an illegal action %r", game_id, seat.bot, action
                )
                return played
            record_move(game, seat.number, action, new_state, by_bot=True, before=state)
        played += 1
    log.warning("bots of game %s stopped after %s steps", game_id, max_steps)
    return played
