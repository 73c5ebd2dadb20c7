"""``manage.py backup``: a backup of the whole database (docs/operations.md, "Backups")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ops import backups


class Command(BaseCommand):
    help = "Back the database up: pg_dump's custom format on PostgreSQL, a copy on SQLite."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--output",
            help="The file to write (default: var/backups/firenze-<UTC time>.dump or .sqlite3).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        target = Path(options["output"]) if options["output"] else self._default_target()
        started = time.monotonic()
        try:
            written = backups.backup(target)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        size = written.stat().st_size
        seconds = time.monotonic() - started
        self.stdout.write(f"Backed up to {written} ({size:,} bytes in {seconds:.1f} s).")

    def _default_target(self) -> Path:
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        return Path(settings.VAR_DIR) / "backups" / f"firenze-{stamp}{backups.suffix()}"
