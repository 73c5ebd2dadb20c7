"""The readiness probe's checks: database, cache, broker, migrations, workers and beat.

Each check runs in a thread of a small pool and the probe waits for all of them together at
most ``DEADLINE`` seconds: a dependency that hangs (a black-holed address, a stopped Redis
whose connect times out) is reported as timed out instead of holding the probe. A check that
is still stuck keeps its thread until its own client gives up; the pool's bound keeps such
threads few.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import timedelta

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from ops import heartbeats
from ops.models import Heartbeat

DEADLINE = 1.0
POOL_PREFIX = "readyz"
_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix=POOL_PREFIX)


class NotReady(Exception):
    """A check's reason, said to the operator as it is."""


def _closing_connection(check: Callable[[], None]) -> Callable[[], None]:
    """A check in a pool thread opens its own database connection: close it after (not the
    caller's own, when it runs inline)."""

    def run() -> None:
        try:
            check()
        finally:
            if threading.current_thread().name.startswith(POOL_PREFIX):
                connections.close_all()

    return run


def database() -> None:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")


def migrations() -> None:
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        raise NotReady(f"{len(plan)} migration(s) not applied")


def cache() -> None:
    backend = caches["default"]
    if not isinstance(backend, RedisCache):  # development's per-process memory
        return
    backend._cache.get_client(write=False).ping()


def broker() -> None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return  # the filesystem broker of development: folders, no server
    client = redis.Redis.from_url(url, socket_connect_timeout=DEADLINE, socket_timeout=DEADLINE)
    try:
        client.ping()
    finally:
        client.close()


def background() -> None:
    """Beat and a worker of every queue reported within the last ``FRESH_SECONDS``."""
    names = heartbeats.names()
    seen = dict(Heartbeat.objects.filter(name__in=names).values_list("name", "at"))
    oldest = timezone.now() - timedelta(seconds=heartbeats.FRESH_SECONDS)
    stale = [name for name in names if name not in seen or seen[name] < oldest]
    if stale:
        raise NotReady("no heartbeat in the last minute: " + ", ".join(stale))


CHECKS: dict[str, Callable[[], None]] = {
    "database": _closing_connection(database),
    "migrations": _closing_connection(migrations),
    "cache": cache,
    "broker": broker,
    "background": _closing_connection(background),
}


def _outcome(future: Future[None], deadline: float) -> str:
    if not future.done():
        return f"no answer within {deadline:g} s"
    error = future.exception()
    if error is None:
        return "ok"
    if isinstance(error, NotReady):
        return str(error)
    return f"{type(error).__name__}: {error}".strip()[:200]


def _inline() -> dict[str, str]:
    """Inside a transaction (a test's, a management command's) a check on another thread's
    connection would not see what the transaction sees, so they run here, one after the other."""
    outcomes = {}
    for name, check in CHECKS.items():
        future: Future[None] = Future()
        try:
            check()
        except Exception as exc:  # noqa: BLE001 - reported as the check's outcome
            future.set_exception(exc)
        else:
            future.set_result(None)
        outcomes[name] = _outcome(future, DEADLINE)
    return outcomes


def run() -> dict[str, str]:
    """Each check's outcome ("ok" or why not), all of them within ``DEADLINE`` seconds."""
    if connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return _inline()
    deadline = DEADLINE
    started = time.monotonic()
    futures = {name: _pool.submit(check) for name, check in CHECKS.items()}
    wait(futures.values(), timeout=max(0.0, deadline - (time.monotonic() - started)))
    return {name: _outcome(future, deadline) for name, future in futures.items()}
