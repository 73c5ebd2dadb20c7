"""What ops listens to: the games' events (counted once their transaction commits) and
Celery's task and beat signals (timings, failures, log lines, beat's heartbeat)."""

from __future__ import annotations

from typing import Any

from celery import signals as celery_signals
from django.db import transaction

from games import events
from ops import beat_lock, heartbeats, metrics, observe


def move_made(sender: Any, *, by_bot: bool = False, timeout: bool = False, **kw: Any) -> None:
    by = "timeout" if timeout else "bot" if by_bot else "person"
    transaction.on_commit(metrics.MOVES.labels(by).inc)


def timed_out(sender: Any, **kw: Any) -> None:
    transaction.on_commit(metrics.TIMEOUTS.inc)


def reminder_due(sender: Any, **kw: Any) -> None:
    transaction.on_commit(metrics.REMINDERS.inc)


def connect() -> None:
    events.move_made.connect(move_made, dispatch_uid="ops.moves")
    events.timed_out.connect(timed_out, dispatch_uid="ops.timeouts")
    events.reminder_due.connect(reminder_due, dispatch_uid="ops.reminders")
    celery_signals.task_prerun.connect(
        observe.task_started, weak=False, dispatch_uid="ops.task_started"
    )
    celery_signals.task_postrun.connect(
        observe.task_finished, weak=False, dispatch_uid="ops.task_finished"
    )
    celery_signals.task_failure.connect(
        observe.task_failed, weak=False, dispatch_uid="ops.task_failed"
    )
    celery_signals.beat_init.connect(heartbeats.beat_started, weak=False, dispatch_uid="ops.beat")
    celery_signals.beat_init.connect(
        beat_lock.on_beat_init, weak=False, dispatch_uid="ops.beat_lock"
    )
    celery_signals.before_task_publish.connect(
        heartbeats.task_published, weak=False, dispatch_uid="ops.beat_publish"
    )
