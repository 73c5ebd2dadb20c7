"""Fixtures for the email integration tests: the real stack instead of eager tasks and locmem.

Per module: a redis-server on a free loopback port, an SMTP server (aiosmtpd) that keeps what it
receives, two Celery worker processes for the default queue, one for the "bots" queue (bot moves
and reviews, as in production) and Celery beat. The processes run
``firenze_site.settings`` (not the test settings, so nothing is eager) against the test database
that pytest-django made, with beat's ``send_pending`` every two seconds. The test process
publishes to the same Redis (its Celery app is switched over for the module) and pytest-django's
live server answers HTTP, so a move goes: HTTP -> live server -> outbox row -> Redis -> worker
-> SMTP.

Every wait is bounded; every process is stopped (terminate, then kill) even when a test fails,
and a failing test's report carries the tail of each process's log. The processes themselves
are bench/stack.py's (the soak and the benchmarks start the same ones).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any
from urllib.error import HTTPError
from urllib.parse import quote, urlencode, urljoin
from urllib.request import HTTPRedirectHandler, ProxyHandler, Request, build_opener

import kombu.pools
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from bench.stack import (
    TIMEOUT,
    Mailbox,
    RedisServer,
    Stack,
    free_port,
    wait_until,
)

# Beat's send_pending interval, and how old a pending row must be before it picks it up.
SEND_PENDING_SECONDS = 2
LOGS = pytest.StashKey[Callable[[], list[tuple[str, str]]]]()


def database_url() -> str:
    """DATABASE_URL of the test database pytest-django created (test_<name>)."""
    db = connection.settings_dict
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = quote(db.get("HOST") or "", safe="")
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}"


def use_broker(url: str | None, saved: dict | None = None) -> dict:
    """Point the test process's Celery app at ``url`` with eager mode off (or, given ``saved``,
    put back what it had); drops the cached connection pools either way."""
    from firenze_site.celery import app

    keys = ("broker_url", "broker_transport_options", "task_always_eager", "task_eager_propagates")
    previous = {key: app.conf[key] for key in keys}
    # kombu keeps producer pools in a registry keyed by connection: closing one without
    # clearing the registry hands the closed pool to the next test on that broker ("Acquire
    # on closed pool"), so reset the registry as well as the app's own references.
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    kombu.pools.reset()
    if saved is not None:
        app.conf.update(saved)
    else:
        app.conf.update(
            broker_url=url,
            broker_transport_options={},
            task_always_eager=False,
            task_eager_propagates=False,
        )
    return previous


# --- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stack(
    django_db_setup: None,
    live_server: Any,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> Iterator[Stack]:
    if connection.vendor != "postgresql":
        pytest.skip("worker processes share the test database: needs DATABASE_URL=postgres://...")
    from aiosmtpd.controller import Controller

    directory = tmp_path_factory.mktemp("integration")
    redis = RedisServer(directory)
    mailbox = Mailbox()
    mailbox.port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=mailbox.port)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "firenze_site.settings",
        # Development mode (production would also want collected static files); the rate
        # limits and board cache share the module's Redis, as in production.
        "DEBUG": "true",
        "CACHE_URL": redis.url.removesuffix("/0") + "/1",
        "DATABASE_URL": database_url(),
        "DB_CONN_MAX_AGE": "0",  # no idle connections left to the test database
        "CELERY_BROKER_URL": redis.url,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(mailbox.port),
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": "false",
        "EMAIL_USE_SSL": "false",
        "SITE_URL": live_server.url,
        "SECRET_KEY": settings.SECRET_KEY,  # sign-in links are checked by the live server
        "NOTIFICATIONS_SEND_PENDING_SECONDS": str(SEND_PENDING_SECONDS),
        "NOTIFICATIONS_PENDING_AFTER_SECONDS": str(SEND_PENDING_SECONDS),
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
        # A test module may set more (STACK_ENV: the bots' thinking time, say).
        **getattr(request.module, "STACK_ENV", {}),
    }
    services = Stack(directory, redis, mailbox, env)
    smtp_log = logging.getLogger("mail.log")  # aiosmtpd logs every SMTP command at INFO
    # Whatever fails, everything started so far is stopped (in reverse order, each step even
    # when an earlier one raised).
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(smtp_log.setLevel, smtp_log.level)
        smtp_log.setLevel(logging.WARNING)
        redis.start()
        cleanup.callback(redis.stop)
        controller.start()
        cleanup.callback(controller.stop)
        cleanup.callback(use_broker, None, use_broker(redis.url))
        cleanup.callback(services.stop)
        starting = [
            (services.start_worker("worker1", queues="celery,pages"), " ready."),
            (services.start_worker("worker2", queues="celery,pages"), " ready."),
            (services.start_worker("bots", queues="bots"), " ready."),
            (services.start_beat(), "beat: Starting..."),
        ]
        for process, marker in starting:
            services.wait_ready(process, marker)
        yield services


@pytest.fixture
def services(
    stack: Stack, transactional_db: None, request: pytest.FixtureRequest
) -> Iterator[Stack]:
    """The module's stack for one test: Redis up, nothing queued, every worker taking tasks,
    an empty mailbox, logs on failure. Afterwards, before the database is flushed, every
    worker is idle or stopped (Stack.quiesce): the flush never meets a worker in a task, and
    the next test meets nothing of this one's, whatever the order."""
    request.node.stash[LOGS] = stack.logs
    stack.resume()
    stack.mailbox.clear()
    yield stack
    killed = stack.quiesce()
    if killed:
        request.node.add_report_section("teardown", "stack", f"killed, busy: {killed}")


@pytest.fixture(autouse=True)
def database_ours_to_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test whose processes share the test database (PostgreSQL, transaction=True):
    before pytest-django flushes it, no other session may be in a transaction. One that is
    (a worker or server left running) would hold locks the flush waits on, or deadlock it,
    and leave this test's rows to the next: it is ended here and the test errors, naming it.
    Torn down after the test's own fixtures (their stacks are stopped or idle by then)."""
    yield
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction") or connection.vendor != "postgresql":
        return
    try:
        wait_until(lambda: not others_in_a_transaction(), "other sessions to end", timeout=TIMEOUT)
    except AssertionError:
        left = others_in_a_transaction()
        with connection.cursor() as cursor:
            for pid, *_ in left:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        pytest.fail(f"sessions still in a transaction on the test database, ended: {left}")


def others_in_a_transaction() -> list[tuple]:
    """(pid, application, state, seconds, query) of every other session of the test database
    inside a transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, application_name, state, extract(epoch FROM now() - xact_start)::int,"
            " left(query, 200) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND xact_start IS NOT NULL"
        )
        return cursor.fetchall()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    logs = item.stash.get(LOGS, None)
    if logs is not None and report.failed:
        for name, text in logs():
            report.sections.append((f"{name} log (last lines)", text))


# --- HTTP -----------------------------------------------------------------------------------


class _NoRedirect(HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # Browser follows redirects itself, so it sees every Set-Cookie


_OPENER = build_opener(ProxyHandler({}), _NoRedirect)


@dataclass
class Page:
    status: int
    url: str
    text: str


class Browser:
    """Just enough of a browser over urllib: cookies, redirects, Django's CSRF header."""

    def __init__(self, base_url: str, user: Any = None) -> None:
        self.base_url = base_url
        self.cookies: dict[str, str] = {}
        if user is not None:  # signed in the way a login would: a session row and its cookie
            client = Client()
            client.force_login(user)
            name = settings.SESSION_COOKIE_NAME
            self.cookies[name] = client.cookies[name].value

    def get(self, url: str, *, follow: bool = True) -> Page:
        return self.request("GET", url, follow=follow)

    def post(self, url: str, data: dict, *, follow: bool = True) -> Page:
        return self.request("POST", url, data, follow=follow)

    def request(self, method: str, url: str, data: dict | None = None, *, follow: bool) -> Page:
        url = urljoin(self.base_url, url)
        for _ in range(10):
            body = urlencode(data).encode() if data is not None else None
            request = Request(url, data=body, method=method)
            if self.cookies:
                request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            if method == "POST" and "csrftoken" in self.cookies:
                request.add_header("X-CSRFToken", self.cookies["csrftoken"])
            try:
                response = _OPENER.open(request, timeout=TIMEOUT)
            except HTTPError as error:
                response = error
            with response:
                status, headers = response.status, response.headers
                text = response.read().decode("utf-8", errors="replace")
            self._remember(headers.get_all("Set-Cookie") or [])
            location = headers.get("Location")
            if follow and status in (301, 302, 303) and location:
                url, method, data = urljoin(url, location), "GET", None
                continue
            return Page(status, url, text)
        raise AssertionError(f"too many redirects from {url}")

    def _remember(self, set_cookies: list[str]) -> None:
        for header in set_cookies:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value


@pytest.fixture
def http(live_server: Any) -> Callable[..., Browser]:
    """``http(user)``: a browser signed in as ``user``; ``http()``: one without cookies."""

    def browser(user: Any = None) -> Browser:
        return Browser(live_server.url, user)

    return browser
