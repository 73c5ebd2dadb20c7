"""Outgoing requests cannot hold the site: none is made on a web request's path, each has a
total deadline and a size cap, each Celery task has time limits, and no address that carries a
private one inside it (6to4, Teredo, NAT64...) is contacted.

A drip server (tests/receivers.py) answers one byte a second for ever: without the deadline it
would hold a worker until something killed it.
"""

from __future__ import annotations

import socket
import time

import pytest
from celery import current_app
from django.test import Client
from django.urls import reverse

from notifications import safe_http, tasks
from notifications.models import Notification, Webhook
from tests.factories import UserFactory
from tests.receivers import DripServer
from tests.web.helpers import reauthenticated, signed_in

DEADLINE = 1.0
# How far past the deadline a request may end: thread wake-ups on a loaded machine. A drip
# server would hold it for ever, so any bound shows the deadline.
SLACK = 2.0


@pytest.fixture
def drip():
    servers: list[DripServer] = []

    def start(stage: str = "headers", **options) -> DripServer:
        server = DripServer(stage, **options).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def deadline(settings):
    settings.NOTIFICATIONS_HTTP_DEADLINE = DEADLINE
    return DEADLINE


def timed(call, *args, **kwargs):
    started = time.monotonic()
    try:
        return call(*args, **kwargs), time.monotonic() - started
    except Exception as exc:
        return exc, time.monotonic() - started


# --- the deadline and the size cap ----------------------------------------------------------


@pytest.mark.parametrize("stage", ["headers", "silent"])
def test_it_gives_up_on_a_server_that_drips_its_answer_at_the_deadline(drip, deadline, stage):
    server = drip(stage)
    outcome, took = timed(safe_http.post, server.url(), b"{}", {})

    assert isinstance(outcome, safe_http.RetryLater)
    assert "did not answer within 1 s" in str(outcome)
    assert took < DEADLINE + SLACK


def test_it_gives_up_on_a_tls_handshake_that_never_ends(drip, deadline):
    server = drip("silent")
    url = server.url().replace("http://", "https://")
    outcome, took = timed(safe_http.post, url, b"{}", {})

    assert isinstance(outcome, safe_http.RetryLater)
    assert took < DEADLINE + SLACK


def test_a_body_that_trickles_in_is_cut_at_the_deadline_and_the_status_counts(drip, deadline):
    server = drip("body")
    response, took = timed(safe_http.post, server.url(), b"{}", {})

    assert response.status == 200  # the answer's head arrived in time: the request was taken
    assert len(response.body) < 10
    assert took < DEADLINE + SLACK


def test_it_reads_no_more_than_the_size_cap_of_a_huge_answer(drip, deadline):
    server = drip("flood", flood=20 * 1024 * 1024)
    response = safe_http.post(server.url(), b"{}", {})

    assert response.status == 200
    assert len(response.body) == safe_http.MAX_BODY


def test_a_dns_lookup_that_hangs_counts_against_the_deadline(deadline, monkeypatch):
    def slow_lookup(*args, **kwargs):
        time.sleep(DEADLINE + 3)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", slow_lookup)
    outcome, took = timed(safe_http.post, "https://hooks.example.com/x", b"{}", {})

    assert isinstance(outcome, safe_http.RetryLater)
    assert "DNS lookup of hooks.example.com did not finish in time" in str(outcome)
    assert took < DEADLINE + SLACK


# --- nothing on the web request's path ------------------------------------------------------


@pytest.fixture
def real_queue():
    """Tasks go to the (in-memory) broker as in production instead of running eagerly."""
    from firenze_site.celery import app  # current_app is per thread (the live server's)

    conf = app.conf
    saved = conf.task_always_eager
    conf.task_always_eager = False
    yield
    conf.task_always_eager = saved


@pytest.mark.django_db(transaction=True)
def test_a_test_to_a_dripping_webhook_answers_at_once_and_frees_the_worker_by_the_deadline(
    drip, deadline, real_queue
):
    server = drip("headers")
    anna = UserFactory(username="anna")
    Webhook.objects.create(user=anna, url=server.url(), format="json")
    client = signed_in(anna)

    answer, took = timed(client.post, reverse("notification_settings:webhook_test"))

    assert answer.status_code == 302
    assert server.connections == []  # the web request never called out
    assert took < DEADLINE  # it did not wait for the server
    row = Notification.objects.get(user=anna, kind="test")
    assert row.status == "pending"  # queued for a worker, after the commit

    done, worked = timed(tasks.send_notification.apply, args=[row.pk])  # the worker's turn

    assert worked < DEADLINE + SLACK
    row.refresh_from_db()
    assert row.status == "failed"
    assert "did not answer within 1 s" in row.last_error
    page = client.get(reverse("notification_settings:page")).content.decode()
    assert "The test to your webhook failed:" in page
    assert "did not answer within 1 s" in page


def test_account_emails_are_sent_by_a_worker_not_in_the_request(anna, monkeypatch, mailoutbox):
    """allauth's emails (here a password reset, in the account's language) are drawn in the
    request and handed to a task as data; the mail server is talked to only by the worker."""
    from accounts.tasks import send_account_email

    anna.language = "de"
    anna.save(update_fields=["language"])
    queued: list[dict] = []
    monkeypatch.setattr(send_account_email, "delay", queued.append)  # the broker's side

    answer = Client().post("/accounts/password/reset/", {"email": anna.email})

    assert answer.status_code == 302
    assert mailoutbox == []  # nothing sent from the request
    (data,) = queued
    send_account_email.apply(args=[data])  # the worker
    (email,) = mailoutbox
    assert email.to == [anna.email]
    assert "/accounts/password/reset/key/" in email.body
    assert "Passwort" in email.subject + email.body


def test_saving_a_webhook_asks_no_dns(anna, settings, monkeypatch):
    """A slow DNS server of the player's choosing cannot hold the web request either: the form
    checks what it can offline, and the addresses are checked when the worker sends."""

    def no_lookups(*args, **kwargs):
        raise AssertionError("DNS asked from a web request")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookups)
    settings.NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = False
    client = reauthenticated(anna)
    saved = client.post(
        reverse("notification_settings:webhook"),
        {"url": "https://hooks.example.com/abc", "format": "json"},
    )
    assert saved.status_code == 302
    local = client.post(
        reverse("notification_settings:webhook"),
        {"url": "https://printer.local/abc", "format": "json"},
    )
    assert local.status_code == 400
    assert "points to a private or local address" in local.content.decode()


@pytest.mark.beside  # waits on a web process of its own: make test runs it beside the workers
def test_the_tasks_queued_by_name_are_registered_in_a_web_process():
    """A web process imports no tasks module itself: the apps register the tasks that the
    outbox and the move service queue by name (else the queueing fails, and a row waits for
    the periodic sweep)."""
    import subprocess
    import sys

    from django.conf import settings

    from notifications import queueing

    names = [queueing.SEND_NOTIFICATION, queueing.SEND_ADDRESS_INVITATION, "games.tasks.play_bots"]
    script = (
        "import django; django.setup(); from celery import current_app; "
        f"print(all(name in current_app.tasks for name in {names!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr[-2000:]


# --- time limits ----------------------------------------------------------------------------


def test_every_task_has_a_soft_and_a_hard_time_limit_of_its_own(settings):
    ours = {
        name: task
        for name, task in current_app.tasks.items()
        if name.split(".")[0]
        in {
            "games", "notifications", "chat", "players", "accounts", "api", "inbox", "streams",
            "bots", "tournaments",
        }
    }  # fmt: skip
    assert {
        "games.tasks.play_bots",
        "notifications.tasks.send_notification",
        "bots.tasks.review_game",
    } <= set(ours)
    assert any(name.startswith("tournaments.") for name in ours)
    for name, task in ours.items():
        assert task.soft_time_limit and task.time_limit, name
        assert task.soft_time_limit < task.time_limit, name
    # A task added without limits still gets the site's defaults.
    assert 0 < settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT


def test_a_send_stopped_by_its_soft_time_limit_is_marked_failed_with_the_reason(
    anna, ben, monkeypatch, mailoutbox
):
    from celery.exceptions import SoftTimeLimitExceeded

    from games.lobby import create_game
    from notifications import emails, outbox

    game = create_game(anna, num_players=2)
    row = outbox.write(ben, "invited", key="invited:x", game=game, queue=False)

    def stuck(message):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(emails, "send", stuck)
    with pytest.raises(SoftTimeLimitExceeded):
        tasks.send_notification.apply(args=[row.pk], throw=True)
    row.refresh_from_db()
    assert row.status == "failed"
    assert "SoftTimeLimitExceeded" in row.last_error
    assert mailoutbox == []


# --- addresses that carry another inside ----------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254 (cloud metadata)
        "2002:0a00:0001::1",  # 6to4 of 10.0.0.1
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
        "64:ff9b:1::a00:1",  # local-use NAT64
        "::ffff:10.0.0.1",  # IPv4-mapped
        "::127.0.0.1",  # IPv4-compatible
    ],
)
def test_it_refuses_ipv6_addresses_that_carry_a_private_ipv4(address, settings):
    settings.NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS = False
    assert not safe_http.is_public(address)
    with pytest.raises(safe_http.Refused, match="private or local address"):
        safe_http.check_url(f"https://[{address}]/hook")


def test_it_judges_6to4_and_nat64_of_a_public_address_as_public():
    assert safe_http.is_public("2002:5db8:d70e::1")  # 6to4 of 93.184.215.14
    assert safe_http.is_public("64:ff9b::5db8:d70e")  # NAT64 of 93.184.215.14
