"""The deadline sweep over 100,000 active games of which 1% are due (issue 4).

Goal: under 2 s, with queries that do not grow with the games that are not due. The sweep
finds due games with indexed queries and publishes one task per due game (to Celery's in-memory
transport here, so the figure includes publishing but not the bot turns the tasks then play).
"""

from __future__ import annotations

import logging
import os
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

GAMES = 100_000
DUE_SHARE = 0.01


def populate(now) -> None:
    creator = get_user_model().objects.create_user("sweeper", "s@example.com", "x")
    every = int(1 / DUE_SHARE)
    batch = []
    for i in range(GAMES):
        due = i % every == 0
        deadline = now - timedelta(minutes=5) if due else now + timedelta(hours=1 + i % 300)
        batch.append(
            Game(
                creator=creator,
                num_players=3,
                status=Game.Status.ACTIVE,
                acting_seat=i % 3,
                turn_started_at=now - timedelta(days=1),
                deadline=deadline,
                next_reminder_at=deadline + timedelta(hours=1),
            )
        )
        if len(batch) == 5000:
            Game.objects.bulk_create(batch)
            batch = []
    Game.objects.bulk_create(batch)


def main() -> None:
    setup_test_environment()
    logging.getLogger("kombu").setLevel(logging.ERROR)
    connection.creation.create_test_db(verbosity=0)
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"
    now = timezone.now()
    populate(now)
    with CaptureQueriesContext(connection) as captured:
        start = time.perf_counter()
        result = sweep_deadlines()
        elapsed = time.perf_counter() - start
    print(
        f"Deadline sweep, {connection.vendor}, {GAMES:,} active games, {result['timeouts']:,} due: "
        f"{elapsed * 1000:.0f} ms, {len(captured)} queries (goal < 2 s, queries independent of "
        "games not due)"
    )
    connection.creation.destroy_test_db("unused", verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
