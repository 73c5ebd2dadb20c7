"""/readyz: 200 only when the database, cache and broker answer, every migration is applied and
beat and a worker of each queue reported within the last minute; else 503 naming the failing
part. The checks run in threads of their own (ops/readiness.py), hence committed data
(transaction=True) here.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

import pytest
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from ops import heartbeats, readiness
from ops.models import Heartbeat

pytestmark = pytest.mark.django_db(transaction=True)


def beat_everything(age: timedelta = timedelta(seconds=5)) -> None:
    for name in heartbeats.names():
        Heartbeat.objects.update_or_create(name=name, defaults={"at": timezone.now() - age})


def test_it_is_ready_when_every_part_answers_and_reported(client):
    beat_everything()
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "ok"
    assert set(response.json()["checks"]) == {
        "database",
        "migrations",
        "cache",
        "broker",
        "background",
    }


def test_it_names_the_processes_that_have_not_reported_for_a_minute(client, caplog):
    """...and logs no error for it (the load balancer asks every second)."""
    beat_everything()
    django_request = logging.getLogger("django.request")  # does not propagate to caplog's
    django_request.addHandler(caplog.handler)
    Heartbeat.objects.filter(name="worker:bots").update(at=timezone.now() - timedelta(seconds=61))
    Heartbeat.objects.filter(name="beat").delete()
    try:
        response = client.get("/readyz")
    finally:
        django_request.removeHandler(caplog.handler)
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["background"]
    assert "beat" in body["checks"]["background"] and "worker:bots" in body["checks"]["background"]
    assert "worker:celery" not in body["checks"]["background"]
    assert not [r for r in caplog.records if r.name == "django.request"]  # no error line


def test_it_expects_a_worker_on_every_queue_tasks_are_routed_to():
    assert heartbeats.names() == ["beat", "worker:celery", "worker:bots", "worker:pages"]


def test_it_fails_while_a_migration_is_not_applied(client):
    beat_everything()
    recorder = MigrationRecorder.Migration.objects
    row = recorder.get(app="ops", name="0001_initial")
    row.delete()
    try:
        response = client.get("/readyz")
    finally:
        recorder.create(app="ops", name="0001_initial")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"] == "1 migration(s) not applied"


def test_it_answers_within_its_deadline_while_a_dependency_hangs(client, monkeypatch):
    """A cache that never answers: the probe gives up at the deadline (shortened here so the
    test does not wait a second) and names it, and the other parts are still reported."""
    beat_everything()
    release = threading.Event()
    monkeypatch.setitem(readiness.CHECKS, "cache", lambda: release.wait(10))
    monkeypatch.setattr(readiness, "DEADLINE", 0.05)
    try:
        response = client.get("/readyz")
    finally:
        release.set()
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["cache"]
    assert body["checks"]["cache"].startswith("no answer within")
    assert body["checks"]["database"] == "ok"


def test_it_reports_a_dependency_that_refuses(client, monkeypatch, settings):
    beat_everything()
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["broker"]
    assert "ConnectionError" in response.json()["checks"]["broker"]


def test_it_is_not_found_outside_the_operators_networks(client, settings):
    beat_everything()
    settings.OPS_BEARER_TOKEN = "s3cret-token-for-prometheus"
    outside = {"REMOTE_ADDR": "203.0.113.9"}
    assert client.get("/readyz", **outside).status_code == 404
    wrong = {"HTTP_AUTHORIZATION": "Bearer guess", **outside}
    assert client.get("/readyz", **wrong).status_code == 404
    right = {"HTTP_AUTHORIZATION": "Bearer s3cret-token-for-prometheus", **outside}
    assert client.get("/readyz", **right).status_code == 200


def test_it_ignores_an_empty_secret(client, settings):
    settings.OPS_BEARER_TOKEN = ""
    response = client.get("/readyz", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer ")
    assert response.status_code == 404


def test_it_sees_the_client_behind_the_proxy_not_the_proxy(client, settings):
    """Behind a proxy on the same machine every request comes from the loopback: the client's
    own address (X-Forwarded-For, as the rate limits read it) decides."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    beat_everything()
    forwarded = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    assert client.get("/readyz", **forwarded).status_code == 404
    assert client.get("/healthz", **forwarded).status_code == 200


@pytest.mark.django_db(transaction=False)
def test_it_sees_what_the_callers_transaction_sees(client):
    """Inside a transaction (as here, a test's) the checks run on the caller's connection, so
    heartbeats written in it count and nothing is locked out."""
    beat_everything()
    assert client.get("/readyz").status_code == 200
    Heartbeat.objects.filter(name="beat").delete()
    assert client.get("/readyz").json()["failing"] == ["background"]
