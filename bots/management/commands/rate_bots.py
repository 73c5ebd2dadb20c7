"""manage.py rate_bots: play the calibration ladder between the bot levels and store their
ratings and head-to-head records (shown on the levels page, /bots/)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from bots import ladder
from games.rules import registry


class Command(BaseCommand):
    help = "Play every pair of bot levels against each other and store the levels' ratings."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--games",
            type=int,
            default=20,
            help="Two-player games per pair of levels (seats alternate; default 20).",
        )
        parser.add_argument("--engine", default="", help="The game (default: the site's).")
        parser.add_argument(
            "--levels", default="", help="Comma-separated levels (default: every level)."
        )
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            engine = registry.get(options["engine"]) if options["engine"] else registry.default()
        except registry.UnknownEngine as exc:
            raise CommandError(str(exc)) from None
        levels = [name for name in options["levels"].split(",") if name] or None
        unknown = [name for name in levels or [] if name not in engine.bots]
        if unknown:
            raise CommandError(f"Unknown bot level: {', '.join(unknown)}.")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")

        def report(outcome: ladder.Outcome) -> None:
            a, b = outcome.levels
            self.stdout.write(f"{a} {outcome.scores[0]} - {outcome.scores[1]} {b}")

        skills = ladder.run(
            engine, options["games"], levels=levels, seed=options["seed"], report=report
        )
        for level, skill in sorted(skills.items(), key=lambda pair: -pair[1].shown):
            self.stdout.write(f"{level}: {skill.shown} ({skill.games} games)")
