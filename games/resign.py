"""Conceding a started game, in the way that is fairest for the players who stay.

- The player who resigns is ranked below everyone who did not (games.standings), for good.
- If only one seat that has not resigned remains (a two-player game, or everyone else has
  resigned), the game ends at once and that seat wins: there is nobody left to play against.
- If no person remains who has not resigned (only bots), the game ends at once too; the rest
  are ranked by the points they have.
- Otherwise a bot takes the seat to the end (it cannot be taken back). The others' game goes
  on exactly as it would have: the seat still plays every turn, so nobody gains what an
  empty seat would leave unclaimed or a quicker end, and
  their places among each other still mean what they would have.

The resignation is recorded on the seat (``resigned_at``, and ``resigned_step``: the step of
the game it came after), so the log and the history can show it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import events, versions
from games.errors import Conflict, NotInGame
from games.models import Game
from games.play import queue_bots


def resign(game_id: int, user: Any) -> Game:
    """Concede ``user``'s seat; raises a GameError if they cannot (not seated, not running)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = list(game.seats.select_related("user"))
        mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
        if mine is None:
            raise NotInGame(_("You are not playing in this game."))
        if not game.is_active:
            raise Conflict(_("Only a game in progress can be resigned."))
        if mine.has_resigned:
            raise Conflict(_("You have already resigned this game."))
        now = timezone.now()
        mine.resigned_at = now
        mine.resigned_step = game.engine.step(game.load_state())
        mine.autopilot = True
        mine.save(update_fields=["resigned_at", "resigned_step", "autopilot"])
        staying = [s for s in seats if not s.has_resigned]
        if len(staying) <= 1 or not any(s.user_id and not s.bot for s in staying):
            _end(game)
        elif game.acting_seat == mine.number:
            game.schedule_turn(now)  # the bot moves now; it needs no deadline
        Game.objects.filter(pk=game.pk).update(
            version=F("version") + 1,
            status=game.status,
            **game.clock_values(),
            updated=now,
        )
        game.version += 1
        versions.changed(game.pk)
        if game.is_finished:  # its record and the ratings are written by the receivers
            events.game_over.send(Game, game=game, state=game.load_state())
    queue_bots(game)
    return game


def _end(game: Game) -> None:
    game.status = Game.Status.FINISHED
    game.deadline = game.next_reminder_at = None
