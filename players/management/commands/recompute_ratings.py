"""Rebuild every rating from the finished games, in the order they ended, and report any
difference from the stored ratings.

Ratings are a cache of the game records (as game states are of the move logs): this command is
the check that they still agree, and the repair when they do not (a change of the rating rule,
a restored backup). It first writes the record of any finished game that lacks one (games that
ended before records existed). --dry-run only reports, and exits non-zero on a difference.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Prefetch

from games.models import Game
from players import ratings
from players.models import GameRecord, Rating, SeatResult
from players.results import is_rated, record_game_end

TOLERANCE = 1e-9


class Command(BaseCommand):
    help = "Rebuild every rating from the finished games in order; report differences."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Only report; change nothing.")

    def handle(self, *args: Any, dry_run: bool = False, **options: Any) -> None:
        with transaction.atomic():
            missing = self._record_missing(dry_run)
            games, differences = self._rebuild(dry_run)
            if dry_run:
                transaction.set_rollback(True)
        summary = (
            f"Rebuilt ratings from {games} rated games: {differences} "
            f"difference{'s' if differences != 1 else ''} from the stored ones"
            + (f"; {missing} finished games had no record" if missing else "")
            + "."
        )
        if dry_run and (differences or missing):
            raise CommandError(summary)
        self.stdout.write(summary)

    def _record_missing(self, dry_run: bool) -> int:
        games = Game.objects.filter(status=Game.Status.FINISHED, record__isnull=True).order_by(
            "updated", "pk"
        )
        count = 0
        for game in games.iterator():
            count += 1
            self.stdout.write(f"Game {game.pk}: no record; written from its final state.")
            if not dry_run:
                record_game_end(game, game.load_state(), finished_at=game.updated)
        return count

    def _rebuild(self, dry_run: bool) -> tuple[int, int]:
        skills: dict[int | None, ratings.Skill] = {}  # by user id: rated seats have users
        differences = rated_games = 0
        changed: list[SeatResult] = []
        seats = SeatResult.objects.select_related("user").order_by("seat")
        records = GameRecord.objects.order_by("finished_at", "pk").prefetch_related(
            Prefetch("results", queryset=seats)
        )
        for record in records.iterator(chunk_size=500):
            results = list(record.results.all())
            rated = not record.imported and is_rated(results)
            if rated != record.rated:
                differences += 1
                self.stdout.write(
                    f"Game {record.pk}: stored as {'rated' if record.rated else 'unrated'}; "
                    f"the rule makes it {'rated' if rated else 'unrated'}."
                )
                GameRecord.objects.filter(pk=record.pk).update(rated=rated)
            if rated:
                rated_games += 1
                before = [skills.get(r.user_id, ratings.NEW) for r in results]
                after = ratings.rate(before, [r.place for r in results])
                for result, old, new in zip(results, before, after, strict=True):
                    skills[result.user_id] = new
                    fresh = (new.mu, new.sigma, new.shown, new.shown - old.shown)
                    if self._differs(result, fresh):
                        differences += 1
                        self.stdout.write(
                            f"Game {record.pk}: {result.name}'s rating after it was "
                            f"{result.rating_shown}, rebuilt {new.shown}."
                        )
                        self._set(result, *fresh)
                        changed.append(result)
            else:
                for result in results:
                    if result.rating_mu is not None:
                        differences += 1
                        self._set(result, None, None, None, None)
                        changed.append(result)
        SeatResult.objects.bulk_update(
            changed, ["rating_mu", "rating_sigma", "rating_shown", "rating_change"], batch_size=500
        )
        differences += self._store_current(skills)
        return rated_games, differences

    @staticmethod
    def _differs(result: SeatResult, fresh: tuple) -> bool:
        mu, sigma, shown, change = fresh
        if result.rating_mu is None or result.rating_sigma is None:
            return True
        return (
            abs(result.rating_mu - mu) > TOLERANCE
            or abs(result.rating_sigma - sigma) > TOLERANCE
            or (result.rating_shown, result.rating_change) != (shown, change)
        )

    @staticmethod
    def _set(result: SeatResult, mu, sigma, shown, change) -> None:
        result.rating_mu, result.rating_sigma = mu, sigma
        result.rating_shown, result.rating_change = shown, change

    def _store_current(self, skills: dict[int | None, ratings.Skill]) -> int:
        """Each player's rating after their last rated game; rows of players without one go."""
        differences = 0
        stored = {r.user_id: r for r in Rating.objects.select_related("user")}
        for user_id, gone in stored.items():
            if user_id not in skills:
                differences += 1
                self.stdout.write(f"{gone.user}: rated without a rated game; rating removed.")
                gone.delete()
        for uid, skill in skills.items():
            if uid is None:  # never: rated games have people only
                continue
            current = stored.get(uid)
            if (
                current is not None
                and abs(current.mu - skill.mu) <= TOLERANCE
                and abs(current.sigma - skill.sigma) <= TOLERANCE
                and (current.games, current.shown) == (skill.games, skill.shown)
            ):
                continue
            differences += 1
            if current is not None:
                self.stdout.write(
                    f"{current.user}: stored rating {current.shown} after {current.games} games, "
                    f"rebuilt {skill.shown} after {skill.games}."
                )
            Rating.objects.update_or_create(
                user_id=uid,
                defaults={
                    "mu": skill.mu,
                    "sigma": skill.sigma,
                    "shown": skill.shown,
                    "games": skill.games,
                },
            )
        return differences
