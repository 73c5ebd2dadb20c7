"""Play by email under real concurrency (PostgreSQL): workers racing for the same outbox row.

Each thread has its own database connection, so the conditional UPDATEs really race; exactly
one claim wins and exactly one email goes out. `make test` runs these on a throw-away cluster.
"""

from __future__ import annotations

import threading

import pytest
from django.core import mail
from django.db import connection

from notifications import outbox, tasks
from notifications.models import Notification
from tests.web.test_notifications import acting_user, new_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WORKERS = 8


@pytest.fixture(autouse=True)
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL=postgres://...")


def race(work, count: int = WORKERS) -> list:
    """Run ``work()`` in ``count`` threads released at the same moment; their results."""
    barrier = threading.Barrier(count)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(work())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return results


def row_for(game) -> Notification:
    """A pending row, as notify() leaves it before its task runs."""
    return Notification.objects.create(
        user=acting_user(game), kind="your_turn", game=game, dedupe_key=f"race:{game.pk}"
    )


def test_it_lets_exactly_one_of_many_racing_claims_win(anna, ben):
    row = row_for(new_game(anna, ben))
    claims = race(lambda: outbox.claim(row.pk))
    assert sum(claim is not None for claim in claims) == 1
    row.refresh_from_db()
    assert row.status == "sending" and row.attempts == 1


def test_it_sends_once_when_many_workers_run_the_same_task(anna, ben):
    row = row_for(new_game(anna, ben))
    results = race(lambda: tasks.send_notification(row.pk))
    assert sorted(results) == ["not claimed"] * (WORKERS - 1) + ["sent"]
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 1


def test_it_writes_one_row_when_the_same_event_is_notified_concurrently(anna, ben):
    game = new_game(anna, ben)
    user = acting_user(game)
    rows = race(lambda: outbox.notify(user, "timed_out", game=game, key=f"same:{game.pk}"))
    assert len({row.pk for row in rows}) == 1
    assert Notification.objects.filter(dedupe_key=f"same:{game.pk}").count() == 1
    assert len([m for m in mail.outbox if m.to == [user.email]]) == 1
