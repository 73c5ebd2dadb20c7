"""One log line per request and per Celery task, with the request id, the game id where there
is one and the duration; production writes each as one JSON object (python-json-logger)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from firenze_site import telemetry
from games import tasks
from tests.web.helpers import signed_in, started_game

pytestmark = pytest.mark.django_db


def json_line(record: logging.LogRecord) -> dict:
    """The record as production's formatter writes it (settings.LOGGING's "json")."""
    formatter_spec = dict(django_settings.LOGGING["formatters"]["json"])
    factory = formatter_spec.pop("()")
    module, name = factory.rsplit(".", 1)
    formatter = getattr(__import__(module, fromlist=[name]), name)(**formatter_spec)
    line = formatter.format(record)
    assert "\n" not in line
    return json.loads(line)


def test_it_logs_one_json_line_per_request_with_its_id_game_and_duration(caplog, anna, ben):
    game = started_game(anna, ben)
    with caplog.at_level(logging.INFO, logger="firenze.request"):
        response = signed_in(anna).get(
            reverse("games:detail", args=[game.pk]), HTTP_X_REQUEST_ID="edge-1234abcd"
        )
    (record,) = [r for r in caplog.records if r.name == "firenze.request"]
    line = json_line(record)
    assert response["X-Request-ID"] == "edge-1234abcd"
    assert line["request_id"] == "edge-1234abcd"
    assert line["game_id"] == game.pk
    assert line["view"] == "games:detail" and line["status"] == 200
    assert line["duration_ms"] >= 0 and line["sql_queries"] >= 1
    assert line["level"] == "INFO" and line["logger"] == "firenze.request"


def test_it_makes_up_a_request_id_when_the_proxy_sends_none_or_a_strange_one(client, caplog):
    with caplog.at_level(logging.INFO, logger="firenze.request"):
        first = client.get("/healthz", HTTP_X_REQUEST_ID="<script>")
        second = client.get("/healthz")
    ids = [r.request_id for r in caplog.records if r.name == "firenze.request"]
    assert ids == [first["X-Request-ID"], second["X-Request-ID"]]
    assert len(set(ids)) == 2 and "<script>" not in ids
    assert [r.game_id for r in caplog.records if r.name == "firenze.request"] == [None, None]


def test_it_logs_one_line_per_task_with_its_game(caplog, anna, ben):
    game = started_game(anna, ben)
    with caplog.at_level(logging.INFO, logger="firenze.task"):
        tasks.draw_pages.delay(game.pk)
    (record,) = [r for r in caplog.records if r.name == "firenze.task"]
    line = json_line(record)
    assert line["task"] == "games.tasks.draw_pages" and line["state"] == "SUCCESS"
    assert line["game_id"] == game.pk and line["request_id"]
    assert line["duration_ms"] >= 0


def test_it_sends_nothing_to_sentry_or_opentelemetry_unless_told(monkeypatch):
    monkeypatch.delenv("SENTRY_DSN", raising=False)
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)
    assert telemetry.setup() == []
    assert django_settings.TELEMETRY == []


@pytest.mark.parametrize(("debug", "expected"), [("false", "json"), ("true", "plain")])
def test_it_logs_json_in_production_by_default(debug, expected):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"LOG_FORMAT", "DJANGO_SETTINGS_MODULE"}
    }
    environment.update(
        DEBUG=debug,
        SECRET_KEY="k" * 20 + "production-like-key-0123456789abcdef",
        CACHE_URL="redis://127.0.0.1:1/1",
    )
    shown = subprocess.run(
        [sys.executable, "-c", "from firenze_site import settings; print(settings.LOG_FORMAT)"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == expected


def test_it_keeps_the_heartbeats_out_of_the_logs_but_counts_them(caplog, client):
    from ops import tasks as ops_tasks

    with caplog.at_level(logging.INFO, logger="firenze.task"):
        ops_tasks.heartbeat.delay("celery")
    assert not [r for r in caplog.records if r.name == "firenze.task"]
    assert 'firenze_celery_task_seconds_count{task="ops.tasks.heartbeat"}' in (
        client.get("/metrics").content.decode()
    )


def test_it_switches_sentry_and_opentelemetry_on_by_environment():
    """In a process of its own (both install themselves process-wide); nothing is sent: no
    error happens and the span exporter's batch is never flushed to the address."""
    environment = {
        **os.environ,
        "SENTRY_DSN": "https://public@127.0.0.1:9/1",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9",
    }
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'firenze_site.settings_test'; "
        "django.setup(); from django.conf import settings; import sentry_sdk; "
        "from opentelemetry.instrumentation.django import DjangoInstrumentor; "
        "print(settings.TELEMETRY, sentry_sdk.get_client().is_active(), "
        "DjangoInstrumentor().is_instrumented_by_opentelemetry)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True,
        check=True, timeout=120,
    )  # fmt: skip
    assert shown.stdout.split("\n")[0] == "['sentry', 'opentelemetry'] True True"
