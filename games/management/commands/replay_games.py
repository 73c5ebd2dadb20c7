"""Rebuild every game's state from its seed, options and moves, and report any difference.

The move log is the truth (as on Terra Mystica's site): a stored state that differs from the
replay is a bug to investigate, so the command exits non-zero when it finds one; with --fix it
also rewrites the cache from the log.

The log is the moves (a timed-out turn's bot moves and an autopilot's are moves like any other)
and the resignations recorded on the seats: a game they end is finished wherever its moves
stopped (games.resign.ends_game), with nobody to act; so is a game the sweep ended as
abandoned (its ``abandoned_at``: games.timeouts.end_abandoned); any other game is finished
exactly when the engine says its last move ended it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from games.models import Game
from games.resign import ends_game
from games.rules import protocol, registry


@dataclass
class Expected:
    """What the log says a game's cached columns must hold."""

    state: protocol.State
    finished: bool
    acting_seat: int | None
    resigned_after: int | None  # the step the ending resignation came after, if one ended it


def expected(game: Game, actions: list[dict[str, Any]]) -> Expected:
    engine = game.engine
    state = game.replayed_state(actions)
    seats = list(game.seats.all())
    if engine.is_over(state):
        return Expected(state, True, None, None)
    if game.abandoned_at is not None:
        return Expected(state, True, None, None)
    if ends_game(seats):
        resigned = max(s.resigned_step or 0 for s in seats if s.has_resigned)
        return Expected(state, True, None, resigned)
    return Expected(state, False, engine.acting_seat(state), None)


class Command(BaseCommand):
    help = "Replay every started game from its move log and compare with the stored state."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--fix", action="store_true", help="Overwrite differing states.")
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games.")

    def handle(
        self, *args: Any, fix: bool = False, game_ids: list[int] | None = None, **options: Any
    ) -> None:
        games = Game.objects.exclude(state=None).order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
        checked = differing = 0
        for game in games.iterator():
            checked += 1
            problem = self._compare(game)
            if problem is None:
                continue
            differing += 1
            self.stdout.write(self.style.ERROR(f"Game {game.pk}: {problem}"))
            if fix and not problem.startswith(("move log", "cannot be replayed")):
                self._fix(game)
        summary = f"Replayed {checked} games: {differing} differ."
        if differing and not fix:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary) if not differing else summary)

    def _compare(self, game: Game) -> str | None:
        actions = list(game.moves.order_by("seq").values_list("action", flat=True))
        try:
            engine = game.engine
        except registry.UnknownEngine as exc:
            return f"cannot be replayed here: {exc}"
        try:
            truth = expected(game, actions)
        except engine.illegal_action as exc:
            return f"move log does not replay: {exc}"
        stored = game.state or {}
        fresh = engine.to_dict(truth.state)
        if stored != fresh:
            keys = sorted(k for k in fresh if stored.get(k) != fresh.get(k))
            return (
                f"stored state differs from the replay of {len(actions)} moves in: "
                f"{', '.join(keys)}"
            )
        if game.acting_seat != truth.acting_seat:
            return f"acting seat {game.acting_seat} but the log says {truth.acting_seat}"
        if truth.finished != game.is_finished:
            over = "over" if truth.finished else "not over"
            return f"status {game.status} but the log says the game is {over}"
        step = engine.step(truth.state)
        if truth.resigned_after is not None and truth.resigned_after != step:
            return (
                f"the resignation that ended it came after step {truth.resigned_after}, but "
                f"the log has {step} steps"
            )
        return None

    def _fix(self, game: Game) -> None:
        """Rewrite the cache from the log; a new version makes open pages redraw."""
        truth = expected(game, list(game.moves.order_by("seq").values_list("action", flat=True)))
        game.store_state(truth.state)
        if truth.finished:
            game.status = Game.Status.FINISHED
            game.acting_seat = None
            game.deadline = game.next_reminder_at = game.turn_plan = None
        else:
            game.status = Game.Status.ACTIVE
            # A fresh turn clock; no time bank is charged for the repair.
            game.schedule_turn(timezone.now())
        game.version += 1
        game.save(
            update_fields=[
                "state",
                "acting_seat",
                "status",
                "turn_started_at",
                "turn_plan",
                "started_at",
                "deadline",
                "next_reminder_at",
                "version",
            ]
        )
        self.stdout.write(f"Game {game.pk}: state rebuilt from the log.")
