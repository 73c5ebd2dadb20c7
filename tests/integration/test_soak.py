"""The soak test with faults, short (bench/soak.py; ``make soak`` plays 200 games): the
production stack plays a few games through HTTP while a web worker, a Celery worker and Redis
are killed once each, and afterwards every game replays, no move is lost or doubled, no email
is sent twice or left behind, and nothing answered 5xx."""

from __future__ import annotations

import pytest
from django.db import connection

from bench import soak
from tests import figures
from tests.integration.conftest import database_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SHORT = soak.Plan(
    games=4,
    concurrency=4,
    played_out_every=0,
    absent_every=0,
    resign_after=(12, 20),
    pause_every=2,  # in two of the games players wait at each turn: their turn emails go out
    pause_seconds=4.0,
    calm_seconds=4,
    fault_every=3,
    max_faults=3,  # one of each kind; the games go on until they are over
    stuck_after=20,
    settle_timeout=90,
)


def test_a_short_soak_with_one_fault_of_each_kind_loses_nothing(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the stack's processes share the test database: needs PostgreSQL")

    report = soak.run(SHORT, database_url(), tmp_path, say=lambda line: None)

    figures.report("soak (short): " + " | ".join(report.lines))
    assert report.ok, "\n".join(report.lines + report.problems)
    faults = [line for line in report.lines if line.startswith("faults")][0]
    assert "1 web worker killed, 1 Celery worker killed, 1 Redis restarted" in faults
