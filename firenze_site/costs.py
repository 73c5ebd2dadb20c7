"""What one request or task spends in the database and the cache, counted as it runs.

The cache backend (firenze_site/cache.py) and the SQL wrapper that ops/ installs add their time
here; ops/ reads the totals when the request ends and reports them per view. A context variable
rather than a global: every thread and every async request counts its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass
class Costs:
    sql_seconds: float = 0.0
    sql_queries: int = 0
    cache_seconds: float = 0.0
    cache_calls: int = 0


_current: ContextVar[Costs | None] = ContextVar("firenze_costs", default=None)


@contextmanager
def counting() -> Iterator[Costs]:
    """Count the costs of the code inside the block (a request, a task)."""
    costs = Costs()
    token = _current.set(costs)
    try:
        yield costs
    finally:
        _current.reset(token)


def add_cache_time(seconds: float) -> None:
    costs = _current.get()
    if costs is not None:
        costs.cache_seconds += seconds
        costs.cache_calls += 1


def sql_timer(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    """A database execute wrapper (connection.execute_wrapper) that adds each query's time."""
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        costs = _current.get()
        if costs is not None:
            costs.sql_seconds += time.perf_counter() - started
            costs.sql_queries += 1
