"""Rebuild every game's state from its seed, options and moves, and report any difference.

The move log is the truth (as on Terra Mystica's site): a stored state that differs from the
replay is a bug to investigate, so the command exits non-zero when it finds one; with --fix it
also rewrites the cache from the log.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.rules import registry


class Command(BaseCommand):
    help = "Replay every started game from its move log and compare with the stored state."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--fix", action="store_true", help="Overwrite differing states.")

    def handle(self, *args: Any, fix: bool = False, **options: Any) -> None:
        games = Game.objects.exclude(state=None).order_by("pk")
        checked = differing = 0
        for game in games.iterator():
            checked += 1
            problem = self._compare(game)
            if problem is None:
                continue
            differing += 1
            self.stdout.write(self.style.ERROR(f"Game {game.pk}: {problem}"))
            if fix and not problem.startswith("move log"):
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
            replayed = game.replayed_state(actions)
        except engine.illegal_action as exc:
            return f"move log does not replay: {exc}"
        stored = game.state or {}
        fresh = engine.to_dict(replayed)
        if stored != fresh:
            keys = sorted(k for k in fresh if stored.get(k) != fresh.get(k))
            return (
                f"stored state differs from the replay of {len(actions)} moves in: "
                f"{', '.join(keys)}"
            )
        acting = engine.acting_seat(replayed)
        if game.acting_seat != acting:
            return f"acting seat {game.acting_seat} but the log says {acting}"
        if engine.is_over(replayed) != game.is_finished:
            over = "over" if engine.is_over(replayed) else "not over"
            return f"status {game.status} but the log says the game is {over}"
        return None

    def _fix(self, game: Game) -> None:
        """Rewrite the cache from the log; a new version makes open pages redraw."""
        state = game.replayed_state()
        game.store_state(state)
        game.version += 1
        game.save(
            update_fields=[
                "state",
                "acting_seat",
                "status",
                "deadline",
                "next_reminder_at",
                "version",
            ]
        )
        self.stdout.write(f"Game {game.pk}: state rebuilt from the log.")
