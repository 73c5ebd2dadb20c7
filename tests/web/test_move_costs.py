"""What a move POST costs the database (issue 11), as ceilings of queries per kind of step, never
timings (those are in `make bench`): an ordinary step and an end of turn (the turn clock and the
next player's notification) each stay under their ceiling, the seats are read once, and on
PostgreSQL the game's row lock is taken only after the session and the user are read. The
player sees the same answer as before: the new position, the next player told once."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from games.rules.firenze import rules
from games.rules.firenze.rules.bots import greedy
from notifications.models import Notification
from tests.web.helpers import post_move, signed_in, started_game

pytestmark = pytest.mark.django_db

# Every statement the request sends, savepoints included; not the commit's callbacks (the test
# runs inside a transaction that never commits), which read the poll's versions back: one more.
# The inbox (issue 20) adds one statement to each (the player's look at the game, an upsert:
# inbox/seen.py) and one to the end of a turn (the count behind "Next game waiting for you",
# then cached per player: inbox/counts.py).
# End of turn: +1 for the planned turn of the seat whose turn begins (plans.runner).
CEILINGS = {"ordinary step": 9, "end of turn": 19}
SEAT_READ = re.compile(r'^SELECT "games_seat"\.')


def played(anna, ben, steps: int = 40) -> dict[str, list[list[str]]]:
    """Greedy moves posted by whoever acts, as their page posts them (htmx); the SQL of each,
    by kind of step."""
    game = started_game(anna, ben, seed=7)
    browsers = {user.pk: signed_in(user) for user in (anna, ben)}
    rng = random.Random(5)
    found: dict[str, list[list[str]]] = {"ordinary step": [], "end of turn": []}
    for _ in range(steps):
        game.refresh_from_db()
        acting = game.acting_seat
        user_id = game.seats.get(number=acting).user_id
        action = greedy(game.load_state(), rng)
        with CaptureQueriesContext(connection) as captured:
            answer = post_move(browsers[user_id], game, action, game.version)
        assert answer.status_code == 200
        game.refresh_from_db()
        assert f"?v={game.version}&amp;" in answer.content.decode()  # the page's new position
        kind = "end of turn" if game.acting_seat != acting else "ordinary step"
        found[kind].append([query["sql"] for query in captured.captured_queries])
    return found


def test_it_keeps_each_kind_of_move_under_its_query_ceiling(anna, ben):
    found = played(anna, ben)
    for kind, posts in found.items():
        assert posts, f"no {kind} was played"
        most = max(len(queries) for queries in posts)
        assert most <= CEILINGS[kind], (kind, most, posts[0])


def test_it_reads_the_seats_once_per_move_and_tells_the_next_player_once(anna, ben):
    found = played(anna, ben)
    for posts in found.values():
        for queries in posts:
            assert sum(1 for sql in queries if SEAT_READ.match(sql)) == 1
    game = Game.objects.get()
    turns = Notification.objects.filter(game=game, kind="your_turn", channel="email")
    told = sorted(turns.values_list("dedupe_key", flat=True))
    assert len(told) == len(set(told)) >= len(found["end of turn"])


def test_it_still_ends_a_run_of_timeouts_with_a_move_in_time(anna, ben):
    """The seats are read once, before the move; the move in time still clears the run of
    timeouts that would otherwise hand the seat to the bot."""
    game = started_game(anna, ben, seed=7)
    seat = game.seats.get(number=game.acting_seat)
    Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=2)
    action = rules.legal_actions(game.load_state())[0]
    answer = post_move(signed_in(seat.user), game, action, game.version)
    assert answer.status_code == 200
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 0


@pytest.mark.postgres
def test_it_takes_the_games_row_lock_after_reading_the_session_and_the_user(anna, ben):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=$(scripts/postgres.sh url) pytest -m postgres")
    found = played(anna, ben, steps=12)
    for posts in found.values():
        for queries in posts:
            lock = next(i for i, sql in enumerate(queries) if sql.endswith("FOR UPDATE"))
            before = queries[:lock]
            assert any('FROM "accounts_user"' in sql for sql in before)
            assert not any('FROM "accounts_user"' in sql for sql in queries[lock + 1 :])
