"""The site's Prometheus metrics that processes count as things happen.

prometheus-client's multiprocess mode (``PROMETHEUS_MULTIPROC_DIR`` set before the process
starts, emptied before the site starts) makes every web worker and Celery worker process write
its counts to files there, and /metrics adds them up; without it each process counts alone
(development, tests). Figures read from the database or the broker when Prometheus asks are in
ops/figures.py. Labels never carry a player's data: a view's name, a task's name, a queue.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

SECONDS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Counter(
    "firenze_http_requests",
    "Requests answered, by view, method and status.",
    ["view", "method", "status"],
)
LATENCY = Histogram(
    "firenze_http_request_seconds", "Time to answer a request, by view.", ["view"], buckets=SECONDS
)
SQL_SECONDS = Counter(
    "firenze_sql_seconds", "Time spent in SQL queries, by view or task.", ["view"]
)
SQL_QUERIES = Counter("firenze_sql_queries", "SQL queries run, by view or task.", ["view"])
CACHE_SECONDS = Counter(
    "firenze_cache_seconds", "Time spent in cache calls, by view or task.", ["view"]
)
TASK_SECONDS = Histogram(
    "firenze_celery_task_seconds", "Run time of Celery tasks, by task.", ["task"], buckets=SECONDS
)
TASK_FAILURES = Counter(
    "firenze_celery_task_failures",
    "Celery tasks that raised (retries included), by task.",
    ["task"],
)
MOVES = Counter("firenze_moves", "Moves played (people, bots and timeouts).", ["by"])
TIMEOUTS = Counter("firenze_turn_timeouts", "Turns that ran out of time.")
REMINDERS = Counter("firenze_turn_reminders", "Reminders that a turn is running out.")
