"""Server-side time and SQL queries of the game page, one move POST and the version poll.

Run as `python -m bench.web_bench` with DATABASE_URL set (bench/run.py runs it once for SQLite
and once for PostgreSQL). Goals (issues 3 and 11): page <= 30 ms and <= 10 queries whatever the
number of moves, move POST <= 40 ms at the median on PostgreSQL (ordinary steps and ends of turn
printed apart, median and p90, with their queries), version poll <= 3 ms and 0 queries, for a
game 300 moves long.
"""

from __future__ import annotations

import json
import logging
import os
import random
import statistics
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, RequestFactory  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from firenze_site.celery import app  # noqa: E402
from games.rules.firenze.rules.bots import greedy  # noqa: E402

MOVES = 300
MOVE_POSTS = 100


class Server:
    """Django's request handler with its full middleware stack, called without the test client.

    The test client wraps each request in template-capture signals that cost about a
    millisecond; the figures here are the server's own time, as a WSGI server would see it.
    """

    def __init__(self) -> None:
        self.handler = BaseHandler()
        self.handler.load_middleware()
        self.factory = RequestFactory()

    def request(self, method: str, path: str, session: str = "", data=None, htmx: bool = False):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        build = self.factory.post if method == "POST" else self.factory.get
        request = build(path, data or {}, **headers)
        if session:
            request.COOKIES[settings.SESSION_COOKIE_NAME] = session
        request._dont_enforce_csrf_checks = True
        response = self.handler.get_response(request)
        return response


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
    p90 = sorted(times)[int(0.90 * (len(times) - 1))]
    figures = f"median {median:6.2f} ms  p90 {p90:6.2f} ms  {queries:2d} queries"
    return f"  {name:12s} {figures}   ({goal})"


def _move_posts(server: Server, game, sessions: dict) -> tuple[dict, list[float]]:
    """Move POSTs (htmx, as the page sends them) of greedy play from the long game, each timed
    with its queries, as ordinary steps and as ends of turn (the turn passes: the clock, the
    next player's notification); and the CPU time this process spent on each."""
    rng = random.Random(3)
    found: dict[str, tuple[list[float], list[int]]] = {
        "move POST, ordinary step": ([], []),
        "move POST, end of turn": ([], []),
    }
    cpu_ms: list[float] = []
    for _ in range(MOVE_POSTS):
        game.refresh_from_db()
        if not game.is_active:
            break
        acting = game.acting_seat
        action = greedy(game.load_state(), rng)
        data = {"action": json.dumps(action), "version": game.version}

        def post(data=data, session=sessions[acting]):
            path = f"/games/{game.pk}/move/"
            response = server.request("POST", path, session, data, htmx=True)
            assert response.status_code == 200, response.content[:300]

        cpu = time.process_time()
        with CaptureQueriesContext(connection) as captured:
            ms = _timed(post, 1)[0]
        cpu_ms.append((time.process_time() - cpu) * 1000)
        game.refresh_from_db()
        kind = "end of turn" if game.acting_seat != acting else "ordinary step"
        times, queries = found[f"move POST, {kind}"]
        times.append(ms)
        queries.append(len(captured))
    return found, cpu_ms


def _load() -> str:
    return ", ".join(f"{figure:.1f}" for figure in os.getloadavg())


def _session_for(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


OPEN_GAMES = 10_000


def _lobby(server: Server, creator) -> tuple[list[float], int, tuple[list[float], int]]:
    """The lobby's first page with OPEN_GAMES open games (inserted in bulk, then ANALYZE): as
    most visitors get it (the list drawn once per change) and just after a change."""
    from bench.serve_setup import _open_games
    from games import lobbycache

    _open_games(creator, OPEN_GAMES)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    def lobby():
        assert server.request("GET", "/games/").status_code == 200

    def lobby_after_a_change():
        lobbycache.changed()  # as after a table is created or joined: the list is drawn again
        lobby()

    lobby()
    cold = _timed(lobby_after_a_change, 30), _queries(lobby_after_a_change)
    return _timed(lobby, 60), _queries(lobby), cold


def main() -> None:
    from bench.web_setup import long_game

    logging.getLogger("celery").setLevel(logging.WARNING)
    logging.getLogger("kombu").setLevel(logging.ERROR)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    connection.creation.create_test_db(verbosity=0)
    # Production keeps connections open between requests (DB_CONN_MAX_AGE, 60 s by default).
    connection.settings_dict["CONN_MAX_AGE"] = 60
    game, _ = long_game(MOVES)
    # As in production, tasks (bots, emails) go to a broker for workers, not into the request.
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    server = Server()
    sessions = {s.number: _session_for(s.user) for s in game.seats.select_related("user")}
    page_url = f"/games/{game.pk}/"
    vendor = connection.vendor

    def page():
        response = server.request("GET", page_url, sessions[game.acting_seat])
        assert response.status_code == 200, response.status_code

    page()
    page_times = _timed(page, 60)
    page_queries = _queries(page)

    moves, cpu_ms = _move_posts(server, game, sessions)
    game.refresh_from_db()
    poll_url = f"/games/{game.pk}/version/?v={game.version}"
    assert server.request("GET", poll_url).status_code == 204
    poll_times = _timed(lambda: server.request("GET", poll_url), 300)
    poll_queries = _queries(lambda: server.request("GET", poll_url))

    lobby_times, lobby_queries, (changed_times, changed_queries) = _lobby(server, game.creator)

    print(
        f"Web, {vendor}, in-process (server time), a game {MOVES}+ moves long "
        f"({game.moves.count()} moves at the end), cache warm (local memory)"
    )
    print(_line("game page", page_times, page_queries, "goal <= 30 ms, <= 10 queries"))
    for kind, (times, queries) in moves.items():
        print(_line(kind, times, max(queries), f"{len(times)} moves, most queries shown"))
    every = [ms for times, _ in moves.values() for ms in times]
    median = statistics.median(every)
    met = "met" if median <= 40 else "NOT MET"
    print(
        f"  {'move POST':12s} median {median:6.2f} ms of all {len(every)} moves with the ends of "
        f"turn (goal <= 40 ms on PostgreSQL: {met} here, on {vendor}; load average {_load()}); "
        f"of which this process's CPU: median {statistics.median(cpu_ms):.2f} ms (the rest is "
        "waiting for the database and for the cores, which the machine's load shares)"
    )
    print(_line("version poll", poll_times, poll_queries, "goal <= 3 ms, 0 queries (cached)"))
    print(_line("lobby", lobby_times, lobby_queries, f"{OPEN_GAMES:,} open games, goal <= 10 ms"))
    print(
        _line(
            "lobby, changed",
            changed_times,
            changed_queries,
            "the first visitor after a table changes draws the list again",
        )
    )
    connection.creation.destroy_test_db("unused", verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
