"""A 512-player Swiss at 2-player tables: pairing a round, the standings after nine rounds.

Run as `python -m bench.tournament_bench` with DATABASE_URL set (bench/run.py runs it once for
SQLite and once for PostgreSQL). Nine rounds are played first (each paired by the real pairing,
its tables stored with random results: 45 % won by each side, 10 % drawn); then:

- pairing: the pure pairing of rounds 2 to 10 (goal: a round in <= 1 s), and rounds.plan of
  round 10 (reading every result from the database, the standings, the pairing);
- the standings: recomputed and stored after a game ends (what each game's end costs), and the
  standings page (GET /tournaments/<id>/standings/) as the first visitor after a change draws
  it (goal <= 50 ms) and as every later visitor gets it (the drawn table, cached);
- dealing round 10 for real: 256 games created, 512 players told.

Server times through Django's full middleware stack without the test client (as web_bench),
side by side with the bare health check in the same run, so the machine's load shows.
"""

from __future__ import annotations

import logging
import os
import random
import statistics
import sys
import time
from datetime import timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.web_bench import Server, _load, _timed  # noqa: E402
from firenze_site.celery import app  # noqa: E402

PLAYERS = 512
ROUNDS = 9


def _field() -> tuple[object, list[object]]:
    """The players (ratings spread 800-2300) and a running Swiss with all of them signed up."""
    from players.models import Rating
    from tournaments import signup
    from tournaments.models import Entry, Tournament

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"swiss{n}", email=f"swiss{n}@example.com", display_name=f"Swiss{n:04d}")
        for n in range(PLAYERS)
    )
    rng = random.Random(11)
    shown = {user.pk: rng.randint(800, 2300) for user in users}
    Rating.objects.bulk_create(
        Rating(user=user, mu=25, sigma=3, shown=shown[user.pk], games=30) for user in users
    )
    tournament = signup.create(
        users[0], name="Bench Swiss", fmt="swiss", table_size=2, max_players=1024,
        rounds=ROUNDS + 1, signup_closes=timezone.now() + timedelta(days=1),
    )  # fmt: skip
    ordered = sorted(users, key=lambda u: -shown[u.pk])
    Entry.objects.bulk_create(
        Entry(tournament=tournament, user=user, rating=shown[user.pk], seed=number)
        for number, user in enumerate(ordered, start=1)
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.RUNNING, started_at=timezone.now()
    )
    tournament.refresh_from_db()
    return tournament, users


def _play_rounds(tournament, timings: list[float]) -> None:
    """Rounds 1-9: the real plan (pairing timed alone), tables stored with random results."""
    from games.models import Game
    from tournaments import pairing, rounds
    from tournaments.models import Round, Table, TableSeat

    real = pairing.pair_round

    def timed_pairing(*args, **kwargs):
        start = time.perf_counter()
        found = real(*args, **kwargs)
        timings.append((time.perf_counter() - start) * 1000)
        return found

    rounds.pairing.pair_round = timed_pairing  # type: ignore[attr-defined]
    rng = random.Random(5)
    try:
        for number in range(1, ROUNDS + 1):
            _stage, planned = rounds.plan(tournament, number)
            with transaction.atomic():
                round_ = Round.objects.create(tournament=tournament, number=number, stage="swiss")
                games = Game.objects.bulk_create(
                    Game(num_players=2, status=Game.Status.FINISHED, name=f"b{number}.{i}")
                    for i in range(len(planned))
                )
                now = timezone.now()
                tables = Table.objects.bulk_create(
                    Table(round=round_, tournament=tournament, number=i + 1, game=game,
                          finished_at=now)
                    for i, game in enumerate(games)
                )  # fmt: skip
                seats = []
                for table, plan in zip(tables, planned, strict=True):
                    roll = rng.random()
                    places = (1, 2) if roll < 0.45 else (2, 1) if roll < 0.9 else (1, 1)
                    for entry, place in zip(plan.players, places, strict=False):
                        seats.append(
                            TableSeat(table=table, entry_id=entry, place=place,
                                      score=60 - 10 * place)
                        )  # fmt: skip
                TableSeat.objects.bulk_create(seats)
                tournament.current_round = number
                tournament.save(update_fields=["current_round"])
    finally:
        rounds.pairing.pair_round = real  # type: ignore[attr-defined]


def _queries(fn) -> int:
    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured)


def _cpu_timed(fn, repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each call. The machine is shared: under load the wall time
    grows with the run queue, while this process's CPU time (Django, and SQLite, which runs in
    the process; not PostgreSQL's server) stays what the request costs."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def _ms(times: list[float]) -> str:
    return f"median {statistics.median(times):7.2f} ms  max {max(times):7.2f} ms"


def main() -> None:
    from tournaments import results, rounds
    from tournaments.models import Tournament

    logging.getLogger("celery").setLevel(logging.WARNING)
    logging.getLogger("kombu").setLevel(logging.ERROR)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    connection.creation.create_test_db(verbosity=0)
    connection.settings_dict["CONN_MAX_AGE"] = 60
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    vendor = connection.vendor

    tournament, _users = _field()
    pairings: list[float] = []
    _play_rounds(tournament, pairings)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    plan_times = _timed(lambda: rounds.plan(tournament, ROUNDS + 1), 5)
    pairings_late = pairings[1:] + pairings[-5:]  # rounds 2-9, and round 10 five times over

    def refresh():
        with transaction.atomic():
            results.refresh(results.lock(tournament.pk))

    refresh()
    refresh_times = _timed(refresh, 10)

    server = Server()
    url = f"/tournaments/{tournament.pk}/standings/"

    def page():
        response = server.request("GET", url)
        assert response.status_code == 200, response.status_code

    def page_after_a_change():
        cache.clear()  # as after a game ends: the new version's table is drawn once
        page()

    def healthz():
        assert server.request("GET", "/healthz").status_code == 200

    page_after_a_change()
    cold, cold_cpu = _cpu_timed(page_after_a_change, 30)
    cold_queries = _queries(page_after_a_change)
    warm, warm_cpu = _cpu_timed(page, 60)
    warm_queries = _queries(page)
    bare, bare_cpu = _cpu_timed(healthz, 200)

    def detail():
        assert (
            server.request("GET", f"/tournaments/{tournament.pk}/?round={ROUNDS}").status_code
            == 200
        )

    detail()
    detail_times, detail_cpu = _cpu_timed(detail, 5)
    detail_queries = _queries(detail)

    tournament = Tournament.objects.get(pk=tournament.pk)
    start = time.perf_counter()
    with transaction.atomic():
        dealt = rounds._open_round(results.lock(tournament.pk), ROUNDS + 1)
    deal_seconds = time.perf_counter() - start
    assert dealt
    rows = len(tournament.standings) or PLAYERS

    worst = max(pairings_late)
    median_cold = statistics.median(cold)
    cpu_cold = statistics.median(cold_cpu)
    print(
        f"Tournaments, {vendor}: a {PLAYERS}-player Swiss at 2-player tables, {ROUNDS} rounds "
        f"played ({rows} standings rows); load average {_load()}"
    )
    print(
        f"  pairing a round (pure)       {_ms(pairings_late)}   (rounds 2-10; goal <= 1000 ms: "
        f"{'met' if worst <= 1000 else 'NOT MET'})"
    )
    print(
        f"  planning round 10            {_ms(plan_times)}   (reads {ROUNDS} rounds of results, "
        "standings, pairing)"
    )
    print(f"  standings after a game end   {_ms(refresh_times)}   (computed and stored, locked)")
    print(
        f"  standings page, first view   {_ms(cold)}   {cold_queries} queries "
        f"(goal <= 50 ms: wall {'met' if median_cold <= 50 else 'NOT MET'}, CPU "
        f"{'met' if cpu_cold <= 50 else 'NOT MET'}; "
        f"{median_cold / statistics.median(bare):.0f}x the bare health check)"
    )
    print(f"    the same, CPU time         {_ms(cold_cpu)}")
    print(f"  standings page, later views  {_ms(warm)}   {warm_queries} queries (table cached)")
    print(f"    the same, CPU time         {_ms(warm_cpu)}")
    print(f"  health check (bare)          {_ms(bare)}")
    print(f"    the same, CPU time         {_ms(bare_cpu)}")
    print(
        f"  tournament page, round 9     {_ms(detail_times)}   {detail_queries} queries "
        "(256 tables and the standings; cached by version)"
    )
    print(f"    the same, CPU time         {_ms(detail_cpu)}")
    print(f"  dealing round 10             {deal_seconds:7.2f} s   (256 games created, 512 told)")
    connection.creation.destroy_test_db("unused", verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
