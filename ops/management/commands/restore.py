"""``manage.py restore FILE``: a backup into an empty database (docs/operations.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ops import backups


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` into an empty database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="The backup file.")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        try:
            backups.restore(Path(options["file"]))
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        seconds = time.monotonic() - started
        self.stdout.write(
            f"Restored {options['file']} in {seconds:.1f} s. Next: manage.py migrate (for a "
            "backup of an older release), then manage.py replay_games."
        )
