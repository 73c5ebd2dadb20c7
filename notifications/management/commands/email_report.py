"""manage.py email_report: what happened to the emails of the last days, and every failure.

Email is at most once (README): a failed email is never sent again, so the operator reads this
report (or the outbox in the admin, filtered by "Failure") to see who missed what. Exit code 1
with ``--fail-on-failures`` when any email failed in the period, for a monitoring check.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from notifications import delivery
from notifications.models import Notification


class Command(BaseCommand):
    help = "Report emails by status over the last days and list every failed one."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--days", type=int, default=7, help="How far back (default 7).")
        parser.add_argument(
            "--fail-on-failures",
            action="store_true",
            help="Exit with status 1 if any email failed in the period.",
        )

    def handle(self, *args, days: int, fail_on_failures: bool, **options) -> None:
        if not 1 <= days <= 3650:
            raise CommandError("--days must be between 1 and 3650.")
        since = timezone.now() - timedelta(days=days)
        report = delivery.failure_report(since)
        self.stdout.write(f"Emails since {since:%Y-%m-%d %H:%M} ({days} days):")
        for status in Notification.Status:
            self.stdout.write(f"  {status.label:<8} {report['counts'].get(status.value, 0)}")
        failed = report["failed"]
        if not failed:
            self.stdout.write("No email failed.")
            return
        self.stdout.write(f"{len(failed)} failed (not sent again: email is at most once):")
        for row in failed:
            when = f"{row.failed_at:%Y-%m-%d %H:%M}" if row.failed_at else "?"
            self.stdout.write(
                f"  #{row.pk} {when} {row.get_kind_display()} to {row.user} "
                f"(game {row.game_id or '-'}): {row.get_failure_display()}; {row.last_error}"
            )
        if fail_on_failures:
            raise CommandError(f"{len(failed)} emails failed in the last {days} days.")
