"""The outbox's counts for Prometheus (served at /metrics by ops/): each row that leaves
"sending", by channel and outcome, and how long a sent one waited since it was written.
Labels are a channel and a status, never a player."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

FINISHED = Counter(
    "firenze_notifications_finished",
    "Emails, webhooks and pushes done with, by channel and status (sent, skipped, failed).",
    ["channel", "status"],
)
DELAY = Histogram(
    "firenze_notification_delay_seconds",
    "From a notification's row being written to its delivery, by channel.",
    ["channel"],
    buckets=(1, 2, 5, 10, 30, 60, 120, 300, 900, 3600),
)
