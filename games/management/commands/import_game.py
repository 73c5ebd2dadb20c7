"""`manage.py import_game FILE`: store a finished game from its JSON record (the export of a
finished game's page), after replaying every move through the engine.

Refused, with the reason and nothing stored, when the file is too large or not JSON, names
another engine or rules version, names a player who has no account here, holds an illegal
move, or ends with other final scores than the file says. Imported games are never rated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.transfer import MAX_BYTES, ImportRefused, import_game


class Command(BaseCommand):
    help = "Import a finished game from its JSON record (replayed through the engine first)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="A game record, as downloaded from a finished game.")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        path = Path(file)
        try:
            if path.stat().st_size > MAX_BYTES:
                raise CommandError(
                    f"{file}: refused: the file is larger than {MAX_BYTES // 1000} kB; "
                    "no game is that long."
                )
            raw = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot be read: {exc.strerror or exc}") from None
        try:
            game = import_game(raw)
        except ImportRefused as exc:
            raise CommandError(f"{file}: refused: {exc}") from None
        self.stdout.write(
            f"Imported game {game.pk}: {game.num_players} players, "
            f"{game.moves.count()} moves, finished and unrated."
        )
