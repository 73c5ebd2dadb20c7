"""How long `manage.py backup` and `manage.py restore` take for a site of 100,000 games
(issue 32), on PostgreSQL: the archive benchmark's 100,000 finished games with their records
and seats (bench/archive_setup.py), each given a move log copied from a real game
(``--moves`` moves each), backed up with pg_dump's custom format and restored into a new,
empty database with pg_restore. Printed: rows, the file's size, both times; goal: a restore of
100,000 games well under the 15 minutes an operator would accept for a night's outage.

Run as `python -m bench.backup_bench --database-of postgres://...` (make bench does): it makes
a database of its own on that server, fills it and restores into another one.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _own_database(server_url: str) -> None:
    """--database-of URL: a fresh database of its own on that server (make bench's cluster)."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute('DROP DATABASE IF EXISTS "firenze_backup_bench"')
        admin.execute('CREATE DATABASE "firenze_backup_bench"')
    os.environ["DATABASE_URL"] = server_url.rsplit("/", 1)[0] + "/firenze_backup_bench"


if "--database-of" in sys.argv:
    _own_database(sys.argv[sys.argv.index("--database-of") + 1])

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from bench import archive_setup  # noqa: E402
from games.models import Game, Move  # noqa: E402

GOAL_SECONDS = 15 * 60


def _template_moves(moves: int) -> int:
    """A real game's first ``moves`` moves (two players, greedy), stored; its id."""
    from tests.factories import UserFactory
    from tests.web.helpers import fast_forward, started_game

    game = started_game(UserFactory(username="bench-a"), UserFactory(username="bench-b"))
    fast_forward(game, moves)
    return game.pk


def _copy_moves(template: int) -> int:
    """Every finished game gets the template's move log (one INSERT ... SELECT)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO games_move (game_id, seq, seat, turn, action, log, changes, by_bot,
                                    timeout, created)
            SELECT g.id, m.seq, m.seat, m.turn, m.action, m.log, m.changes, m.by_bot,
                   m.timeout, m.created
            FROM games_game g CROSS JOIN games_move m
            WHERE m.game_id = %s AND g.id <> %s AND g.status = 'finished'
            """,
            [template, template],
        )
        return cursor.rowcount


def _fresh_database_url(url: str, name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=archive_setup.GAMES)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--database-of", help="a PostgreSQL server's URL: use a new database")
    options = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("backup_bench needs DATABASE_URL to point at PostgreSQL")
    call_command("migrate", verbosity=0)
    started = time.monotonic()
    archive_setup.fill(games=options.games, star_games=max(1, options.games // 10))
    copied = _copy_moves(_template_moves(options.moves))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    games, moves = Game.objects.count(), Move.objects.count()
    print(f"backup: filled {games:,} games, {moves:,} moves ({copied:,} copied) "
          f"in {time.monotonic() - started:.0f} s")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "site.dump"
        started = time.monotonic()
        call_command("backup", "--output", str(file), verbosity=0, stdout=io.StringIO())
        backup_s = time.monotonic() - started
        size = file.stat().st_size
        url = _fresh_database_url(os.environ["DATABASE_URL"], "firenze_restore_bench")
        env = {**os.environ, "DATABASE_URL": url}
        started = time.monotonic()
        subprocess.run(
            [sys.executable, "manage.py", "restore", str(file)], cwd=ROOT, env=env, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        restore_s = time.monotonic() - started
    print(f"backup: {games:,} games, {moves:,} moves: backup {backup_s:.1f} s, "
          f"{size / 1e6:.0f} MB (pg_dump custom format)")  # fmt: skip
    verdict = "OK" if restore_s <= GOAL_SECONDS else "OVER GOAL"
    print(f"backup: restore into an empty database {restore_s:.1f} s "
          f"(goal <= {GOAL_SECONDS} s) {verdict}")  # fmt: skip


if __name__ == "__main__":
    main()
