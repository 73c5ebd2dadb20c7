"""Server-side time and SQL queries of the game page, one move POST and the version poll.

Run as `python -m bench.web_bench` with DATABASE_URL set (bench/run.py runs it once for SQLite
and once for PostgreSQL). Goals (issue 3): page <= 30 ms and <= 10 queries whatever the number of
moves, move POST <= 40 ms, version poll <= 3 ms and 1 query, for a game 300 moves long.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from games.rules.bots import greedy  # noqa: E402

MOVES = 300


def _timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured)


def _line(name: str, times: list[float], queries: int, goal: str) -> str:
    median = statistics.median(times)
    p95 = sorted(times)[int(0.95 * (len(times) - 1))]
    figures = f"median {median:6.2f} ms  p95 {p95:6.2f} ms  {queries:2d} queries"
    return f"  {name:12s} {figures}   ({goal})"


def main() -> None:
    from bench.web_setup import long_game

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    # Production keeps connections open between requests (DB_CONN_MAX_AGE, 60 s by default).
    connection.settings_dict["CONN_MAX_AGE"] = 60
    game, _ = long_game(MOVES)
    clients = {}
    for seat in game.seats.select_related("user"):
        client = Client()
        client.force_login(seat.user)
        clients[seat.number] = client
    page_url = f"/games/{game.pk}/"
    vendor = connection.vendor

    acting = clients[game.acting_seat]
    acting.get(page_url)
    page_times = _timed(lambda: acting.get(page_url), 40)
    page_queries = _queries(lambda: acting.get(page_url))

    rng = random.Random(3)
    move_times, move_queries = [], []
    for _ in range(40):
        game.refresh_from_db()
        client = clients[game.acting_seat]
        action = greedy(game.load_state(), rng)
        data = {"action": json.dumps(action), "version": game.version}

        def post(client=client, data=data):
            response = client.post(f"/games/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
            assert response.status_code == 200, response.content[:300]

        with CaptureQueriesContext(connection) as captured:
            move_times += _timed(post, 1)
        move_queries.append(len(captured))

    game.refresh_from_db()
    poll_url = f"/games/{game.pk}/version/?v={game.version}"
    poller = Client()
    assert poller.get(poll_url).status_code == 204
    poll_times = _timed(lambda: poller.get(poll_url), 200)
    poll_queries = _queries(lambda: poller.get(poll_url))

    print(f"Web, {vendor}, a game {MOVES}+ moves long ({game.moves.count()} moves at the end)")
    print(_line("game page", page_times, page_queries, "goal <= 30 ms, <= 10 queries"))
    print(_line("move POST", move_times, max(move_queries), "goal <= 40 ms"))
    print(_line("version poll", poll_times, poll_queries, "goal <= 3 ms, 1 query"))
    connection.creation.destroy_test_db("unused", verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
