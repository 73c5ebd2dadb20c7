"""`manage.py backup` and `manage.py restore`: a busy site (games mid-turn, emails waiting in
the outbox, a tournament mid-round) backed up, restored into an empty database, replayed with
no difference and played on; a restore over a database that holds anything is refused and
changes nothing. On SQLite here (the online backup API); on PostgreSQL (pg_dump's custom
format) with the tests marked postgres.
"""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from accounts.models import User
from games.models import Game, Move
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from notifications.models import Notification
from tests.web.helpers import fast_forward, play_greedy, started_game
from tests.web.tournament_helpers import field, started
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def busy_site(anna, ben, carla) -> dict:
    """Games at every stage a restore must carry, and what a player would see of them."""
    mid_turn = started_game(anna, ben)
    fast_forward(mid_turn, 25)
    against_bots = started_game(carla, bots=2)
    fast_forward(against_bots, 30)
    cup = started(anna, field(4, "cup"))
    first = Table.objects.filter(tournament=cup, round__number=1).select_related("game").first()
    play_to_the_end(first.game)  # one table of round 1 done, the other mid-game
    Notification.objects.create(user=ben, kind="your_turn", game=mid_turn, dedupe_key="wait-1")
    Notification.objects.create(user=carla, kind="reminder", game=against_bots, dedupe_key="w-2")
    return snapshot()


# The moves that end a game go one by one through the move service (record_move: the clock,
# the notices, the end's on-commit work); those before them are stored in one go, as a replay
# finds them. Each move through the service costs tens of milliseconds; a whole game of them
# was most of this file's minute.
LAST_MOVES = 8


def play_to_the_end(game: Game) -> None:
    """To the game's end: all but its last moves stored in one go, the last ones through the
    move service (transaction=True: the end's on-commit work, the next round, runs)."""
    fast_forward(game, max(0, moves_to_the_end(game) - LAST_MOVES))
    assert play_greedy(game) >= 1
    assert game.status == Game.Status.FINISHED


def moves_to_the_end(game: Game) -> int:
    """How many moves fast_forward's greedy players take from here to the end (the same
    players from the same seed: what it would store)."""
    state = game.load_state()
    rng = random.Random(f"{game.seed}/tests")
    count = 0
    while not rules.is_over(state):
        state = rules.apply_action(state, greedy(state, rng))
        count += 1
    return count


def snapshot() -> dict:
    return {
        "games": sorted(Game.objects.values_list("pk", "status", "version", "acting_seat")),
        "states": {pk: state for pk, state in Game.objects.values_list("pk", "state")},
        "moves": Move.objects.count(),
        "users": sorted(User.objects.values_list("pk", "email")),
        "pending": sorted(
            Notification.objects.filter(status="pending").values_list("pk", "dedupe_key")
        ),
        "tournaments": sorted(Tournament.objects.values_list("pk", "status", "current_round")),
        "tables": sorted(Table.objects.values_list("pk", "finished_at")),
    }


def empty_the_database() -> None:
    """What a new database is: no table at all."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        else:
            cursor.execute("PRAGMA foreign_keys = OFF")
            for table in connection.introspection.table_names(cursor):
                cursor.execute(f'DROP TABLE "{table}"')
            cursor.execute("PRAGMA foreign_keys = ON")
    connection.close()


def backup(path: Path) -> str:
    out = StringIO()
    call_command("backup", "--output", str(path), stdout=out)
    return out.getvalue()


def restore_then_play_on(tmp_path: Path, anna, ben, carla) -> None:
    before = busy_site(anna, ben, carla)
    file = tmp_path / "site.backup"
    assert f"Backed up to {file}" in backup(file)

    empty_the_database()
    out = StringIO()
    call_command("restore", str(file), stdout=out)
    assert "Restored" in out.getvalue()
    assert snapshot() == before

    replayed = StringIO()
    call_command("replay_games", stdout=replayed)
    assert "0 differ" in replayed.getvalue()
    active = Game.objects.filter(status=Game.Status.ACTIVE)
    assert active.count() == 3  # two games and the cup's unfinished table
    for game in active:
        version = game.version
        assert play_greedy(game, 1) == 1
        assert game.version == version + 1

    # The cup's round ends on the restored site and the next round is dealt.
    cup = Tournament.objects.get()
    for table in Table.objects.filter(tournament=cup, finished_at=None).select_related("game"):
        play_to_the_end(table.game)
    cup.refresh_from_db()
    assert cup.current_round == 2


@pytest.mark.slow
def test_it_restores_a_busy_site_that_then_plays_on(tmp_path, anna, ben, carla):
    restore_then_play_on(tmp_path, anna, ben, carla)


@pytest.mark.postgres
def test_it_restores_a_busy_site_on_postgresql(tmp_path, anna, ben, carla):
    if connection.vendor != "postgresql":
        pytest.skip("runs with the PostgreSQL tests (DATABASE_URL)")
    restore_then_play_on(tmp_path, anna, ben, carla)


def test_it_refuses_to_restore_over_a_database_that_holds_anything(tmp_path, anna, ben):
    game = started_game(anna, ben)
    file = tmp_path / "site.backup"
    backup(file)
    fast_forward(game, 5)
    before = snapshot()
    with pytest.raises(CommandError, match="The database is not empty .* only into an empty"):
        call_command("restore", str(file))
    assert snapshot() == before


def test_it_refuses_a_file_that_is_not_a_backup(tmp_path, anna):
    empty_the_database()
    stranger = tmp_path / "notes.txt"
    stranger.write_text("not a database")
    try:
        with pytest.raises(CommandError, match="is not a .* backup"):
            call_command("restore", str(stranger))
        with pytest.raises(CommandError, match="is not a file"):
            call_command("restore", str(tmp_path / "missing.dump"))
        assert connection.introspection.table_names() == []
    finally:
        call_command("migrate", verbosity=0)  # the next test's flush needs the tables back
