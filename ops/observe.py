"""One log line and the metrics of each request and each Celery task.

The request's line (logger ``firenze.request``) and the task's (``firenze.task``) carry the
request id (the proxy's ``X-Request-ID`` when it sends a sane one, else a new one, sent back
in the response), the game id when the request or task is about one, the duration and the
time spent in SQL and the cache. settings.LOGGING writes them as JSON lines
(python-json-logger) in production.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse

from firenze_site.costs import Costs, counting, sql_timer
from ops import metrics

request_log = logging.getLogger("firenze.request")
task_log = logging.getLogger("firenze.task")
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")
_GAME_ROUTE = re.compile(r"^/(?:api/v1/)?games/(\d{1,18})/")


def request_id(request: HttpRequest) -> str:
    given = request.META.get("HTTP_X_REQUEST_ID", "")
    return given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


def game_of(path: str) -> int | None:
    match = _GAME_ROUTE.match(path)
    return int(match.group(1)) if match else None


def _record_costs(name: str, costs: Costs) -> None:
    metrics.SQL_SECONDS.labels(name).inc(costs.sql_seconds)
    metrics.SQL_QUERIES.labels(name).inc(costs.sql_queries)
    metrics.CACHE_SECONDS.labels(name).inc(costs.cache_seconds)


class RequestObservationMiddleware:
    """Outermost in MIDDLEWARE, so the hot poll and every refusal are counted too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        rid = request_id(request)
        request.request_id = rid  # type: ignore[attr-defined]
        started = time.perf_counter()
        with counting() as costs, connection.execute_wrapper(sql_timer):
            response = self.get_response(request)
        seconds = time.perf_counter() - started
        view = _view_name(request)
        metrics.REQUESTS.labels(view, _method(request), str(response.status_code)).inc()
        metrics.LATENCY.labels(view).observe(seconds)
        _record_costs(view, costs)
        response["X-Request-ID"] = rid
        request_log.info(
            "%s %s %s",
            request.method,
            view,
            response.status_code,
            extra={
                "request_id": rid,
                "view": view,
                "method": request.method,
                "status": response.status_code,
                "game_id": game_of(request.path_info),
                "duration_ms": round(seconds * 1000, 1),
                "sql_queries": costs.sql_queries,
                "sql_ms": round(costs.sql_seconds * 1000, 1),
                "cache_ms": round(costs.cache_seconds * 1000, 1),
            },
        )
        return response


def _view_name(request: HttpRequest) -> str:
    """The URL pattern's name (never the path: paths carry ids and tokens)."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "<unmatched>"
    return match.view_name or "<unnamed>"


def _method(request: HttpRequest) -> str:
    method = request.method or ""
    return (
        method
        if method in {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
        else "other"
    )


# --- Celery tasks ---------------------------------------------------------------------------

_running: dict[str, tuple[float, Any, Any]] = {}
QUIET_TASKS = {"ops.tasks.heartbeat"}


def task_started(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    scope = counting()
    costs = scope.__enter__()
    wrapper = connection.execute_wrapper(sql_timer)
    wrapper.__enter__()
    _running[task_id] = (time.perf_counter(), (scope, costs), wrapper)


def task_finished(
    task_id: str = "", task: Any = None, state: str = "", args: Any = (), **kwargs: Any
) -> None:
    begun = _running.pop(task_id, None)
    if begun is None or task is None:
        return
    started, (scope, costs), wrapper = begun
    wrapper.__exit__(None, None, None)
    scope.__exit__(None, None, None)
    seconds = time.perf_counter() - started
    metrics.TASK_SECONDS.labels(task.name).observe(seconds)
    _record_costs(task.name, costs)
    if task.name in QUIET_TASKS and state == "SUCCESS":
        return  # every few seconds per queue: counted above, not worth a line each
    game_id = (
        args[0] if task.name.startswith("games.") and args and isinstance(args[0], int) else None
    )
    task_log.info(
        "%s %s",
        task.name,
        state,
        extra={
            "request_id": task_id,
            "task": task.name,
            "state": state,
            "game_id": game_id,
            "duration_ms": round(seconds * 1000, 1),
            "sql_queries": costs.sql_queries,
            "sql_ms": round(costs.sql_seconds * 1000, 1),
            "cache_ms": round(costs.cache_seconds * 1000, 1),
        },
    )


def task_failed(sender: Any = None, **kwargs: Any) -> None:
    if sender is not None:
        metrics.TASK_FAILURES.labels(sender.name).inc()
