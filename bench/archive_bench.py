"""Server time and SQL queries of the archive pages (issue 7): a player's profile, the
leaderboard, the history (first and 100th page, with and without filters) and My games, for a
player with 10,000 finished games in a database of 100,000.

Run as `python -m bench.archive_bench` with DATABASE_URL set (bench/run.py runs it once for
SQLite, on a file, and once for PostgreSQL). Goal: every page <= 50 ms, with a query count that
does not grow with the number of games: each page is also counted for "Rookie", a player with
about 20 games, and the two counts are printed side by side.
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.web_bench import Server, _session_for  # noqa: E402

GOAL_MS = 50
REPEAT = 25


def _median_ms(fn, repeat: int = REPEAT) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured)


def pages(star_name: str, rookie_name: str) -> list[tuple[str, str, str]]:
    """(label, url for Star, the same url for Rookie): Rookie's counts show what does not grow."""
    year_ago = (timezone.localdate().replace(day=1) - timezone.timedelta(days=365)).isoformat()
    filters = f"players=3&campanile=on&since={year_ago}"

    def both(label: str, template: str) -> tuple[str, str, str]:
        return label, template.format(star_name), template.format(rookie_name)

    return [
        both("profile", "/players/{}/"),
        ("leaderboard", "/players/", "/players/"),
        both("My games", "/games/mine/"),
        both("history p1", "/games/history/?x={}"),
        both("history p100", "/games/history/?page=100&x={}"),
        both("history p1, player", "/games/history/?player={}"),
        both("history p100, player", "/games/history/?player={}&page=100"),
        both("history p1, 3 filters", "/games/history/?" + filters + "&x={}"),
        both("history p100, 2 filters", "/games/history/?players=3&campanile=on&page=100&x={}"),
        both("history p1, htmx", "/games/history/?player={}&mine=on"),
    ]


def main() -> None:
    from bench.archive_setup import GAMES, STAR_GAMES, fill

    logging.getLogger("django.request").setLevel(logging.ERROR)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    database = connection.settings_dict
    if connection.vendor == "sqlite":  # on a file like production, not the default :memory:
        database["TEST"]["NAME"] = str(database["NAME"]) + "-archive"
    connection.creation.create_test_db(verbosity=0)
    database["CONN_MAX_AGE"] = 60
    started = time.perf_counter()
    cast = fill()
    filled = time.perf_counter() - started
    server = Server()
    sessions = {who: _session_for(user) for who, user in cast.items()}
    star, rookie = cast["star"], cast["rookie"]
    rookie_games = rookie.results.count()

    print(
        f"Archive pages, {connection.vendor}: {GAMES:,} finished games, {star.display_name} has "
        f"{star.results.count():,} (goal {STAR_GAMES:,}), {rookie.display_name} {rookie_games}; "
        f"filled in {filled:.0f} s (bulk inserts, then ANALYZE)"
    )
    print(
        "  DEBUG off, CONN_MAX_AGE 60, locmem cache warm (each page requested once first); "
        f"signed in as {star.display_name} (the Rookie column: signed in as {rookie.display_name})"
    )
    print(f"  {'page':26s} {'median':>9s} {'p95':>9s}  queries (Rookie)   goal <= {GOAL_MS} ms")
    worst = 0.0
    for label, star_url, rookie_url in pages(star.display_name, rookie.display_name):
        htmx = label.endswith("htmx")

        def get(url=star_url, session=sessions["star"], htmx=htmx):
            response = server.request("GET", url, session, htmx=htmx)
            assert response.status_code == 200, (url, response.status_code)

        cache.clear()
        get()
        median, p95 = _median_ms(get)
        count = _queries(get)
        rookie_count = _queries(lambda u=rookie_url: get(u, sessions["rookie"]))
        worst = max(worst, median)
        verdict = "ok" if median <= GOAL_MS else "OVER"
        print(
            f"  {label:26s} {median:6.1f} ms {p95:6.1f} ms  {count:4d} ({rookie_count:4d})"
            f"           {verdict}"
        )
    print(f"  slowest median {worst:.1f} ms = {worst / GOAL_MS:.2f} x the goal")
    connection.creation.destroy_test_db("unused", verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
