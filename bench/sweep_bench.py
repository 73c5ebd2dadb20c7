"""The deadline sweep with 1,000 due games, among 10,000 and then among 1,000,000 active games
(issue 11: within 1.5x of each other; issues 4: under 2 s). Both clock modes mixed (issue 22):
every other game has a time bank with weekends off and its turn's plan, the others the clock
per turn; half the due games of each.

The games are inserted with one INSERT ... SELECT over a generated series (no Python per row),
then the planner statistics are refreshed as autovacuum would. The sweep finds due games with
queries on partial indexes and publishes one task per due game (to Celery's in-memory transport
here, so the figure includes publishing but not the bot turns the tasks then play). Prints the
whole sweep and its queries alone, the median of a few runs each, and the query plans.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import sys
import time
from datetime import timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from firenze_site.celery import app  # noqa: E402
from games.models import Game  # noqa: E402
from games.tasks import sweep_deadlines  # noqa: E402
from games.timeouts import due_games, stalled_bot_games  # noqa: E402

DUE = 1_000
SIZES = (10_000, int(os.environ.get("BENCH_SWEEP_GAMES", "1000000")))
RUNS = 5


def _insert(first: int, count: int, due_every: int, creator_id: int, now) -> None:
    """Active games ``first`` .. ``first + count - 1``; every ``due_every``-th one past its
    deadline, the others due in a day and their reminder an hour later."""
    past = now - timedelta(minutes=5)
    table = Game._meta.db_table
    columns = (
        "creator_id, name, num_players, auto_start, options, seed, status, is_public, "
        "invite_token, time_limit, version, chat_version, acting_seat, turn_started_at, "
        "deadline, next_reminder_at, created, updated, clock, turn_plan"
    )
    limit = Game._meta.get_field("time_limit").get_db_prep_value(timedelta(days=3), connection)
    if connection.vendor == "postgresql":
        series = "generate_series(%s, %s) AS i"

        def later(minutes: int) -> str:
            return f"%s::timestamptz + ({minutes} + i %% 300) * interval '1 minute'"

    else:
        series = (
            "(WITH RECURSIVE s(i) AS (SELECT %s UNION ALL SELECT i + 1 FROM s WHERE i < %s) "
            "SELECT i FROM s)"
        )

        def later(minutes: int) -> str:
            return f"datetime(%s, '+' || ({minutes} + i %% 300) || ' minutes')"

    # Every other game a time bank (5 days, +1 a turn, weekends off) whose turn has a plan.
    bank_clock = (
        '{"mode": "bank", "bank": 432000, "bonus": 86400, "cap": 432000, "days_off": [5, 6]}'
    )
    plan = json.dumps({"seat": 0, "allotted": 432000, "pauses": []})
    json_type = "::jsonb" if connection.vendor == "postgresql" else ""
    clock = f"CASE WHEN i %% 2 = 0 THEN '{bank_clock}'{json_type} ELSE '{{}}'{json_type} END"
    turn_plan = f"CASE WHEN i %% 2 = 0 THEN '{plan}'{json_type} ELSE NULL END"
    # Due games: deadline 5 minutes ago, reminder later; the others: deadline a day and 0 to 300
    # minutes ahead (the fill may take minutes), reminder an hour after it (none is due).
    deadline = f"CASE WHEN i %% {due_every} = 0 THEN %s ELSE {later(24 * 60)} END"
    reminder = f"CASE WHEN i %% {due_every} = 0 THEN %s ELSE {later(25 * 60)} END"
    # Every other column gets its field's default (columns added later do not break this).
    given = {name.strip() for name in columns.split(",")}
    others = [f for f in Game._meta.concrete_fields if f.column not in given and not f.primary_key]
    more = "".join(f", {f.column}" for f in others)
    marks = ", %s" * len(others)
    sql = (
        f"INSERT INTO {table} ({columns}{more}) SELECT %s, '', 3, true, '{{}}', i, 'active', "
        f"true, 'b' || i, %s, 1, 0, i %% 3, %s, {deadline}, {reminder}, %s, %s, {clock}, "
        f"{turn_plan}{marks} "
        f"FROM {series}"
    )

    def prep(value):
        return connection.ops.adapt_datetimefield_value(value)

    params = [
        creator_id,
        limit,
        prep(now - timedelta(days=1)),
        prep(past),
        prep(now),
        prep(past + timedelta(hours=1)),
        prep(now),
        prep(now),
        prep(now),
        *[f.get_db_prep_save(f.get_default(), connection) for f in others],
        first,
        first + count - 1,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.execute("ANALYZE" if connection.vendor == "sqlite" else f"VACUUM ANALYZE {table}")


def _median_ms(fn) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _plans(now) -> list[str]:
    games = Game.objects.order_by()
    found = [
        games.filter(deadline__lte=now).values_list("pk", flat=True).explain(),
        games.filter(next_reminder_at__lte=now, deadline__gt=now).values_list("pk").explain(),
        games.filter(status=Game.Status.ACTIVE, deadline=None, turn_started_at__lte=now)
        .values_list("pk")
        .explain(),
    ]
    return [" | ".join(line.strip() for line in plan.splitlines()) for plan in found]


def main() -> None:
    setup_test_environment()
    logging.getLogger("kombu").setLevel(logging.ERROR)
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    creator = get_user_model().objects.create_user("sweeper", "s@example.com", "x")
    now = timezone.now()
    figures = {}
    made = 0
    for size in SIZES:
        start = time.perf_counter()
        # The new games are never due: the due ones stay the first size's 1,000.
        due_every = SIZES[0] // DUE if made == 0 else 10**12
        _insert(made + 1, size - made, due_every, creator.pk, now)
        made = size
        fill_s = time.perf_counter() - start
        with CaptureQueriesContext(connection) as captured:
            result = sweep_deadlines()
        assert result["timeouts"] == DUE, result
        sweep = _median_ms(sweep_deadlines)
        queries = _median_ms(lambda: (due_games(), stalled_bot_games()))
        each = [_median_ms(due_games), _median_ms(stalled_bot_games)]
        print(f"  ({size:,}: due_games {each[0]:.1f} ms, stalled_bot_games {each[1]:.1f} ms)")
        banks = Game.objects.filter(clock__mode="bank").count()
        print(f"  ({size:,}: {banks:,} of them with a time bank)")
        figures[size] = (sweep, queries, len(captured), fill_s)
    print(f"Deadline sweep, {connection.vendor}, {DUE:,} due games (median of {RUNS} runs):")
    for size, (sweep, queries, count, fill_s) in figures.items():
        print(
            f"  {size:>9,} active games: sweep {sweep:6.1f} ms, its {count} queries alone "
            f"{queries:6.1f} ms (games inserted in {fill_s:.0f} s)"
        )
    small, large = figures[SIZES[0]], figures[SIZES[-1]]
    print(
        f"  {SIZES[-1]:,} against {SIZES[0]:,}: sweep {large[0] / small[0]:.2f}x, queries "
        f"{large[1] / small[1]:.2f}x (goal <= 1.5x; and < 2 s)"
    )
    for plan in _plans(now):
        print(f"  plan: {plan}")
    connection.creation.destroy_test_db("unused", verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
