"""The heartbeat task: beat queues one per queue every few seconds, a worker of that queue runs
it, so a fresh ``worker:<queue>`` heartbeat proves the whole path beat → broker → worker →
database works for that queue (ops/readiness.py)."""

from __future__ import annotations

from celery import shared_task

from ops.models import Heartbeat


@shared_task(soft_time_limit=10, time_limit=15, ignore_result=True)
def heartbeat(queue: str) -> None:
    Heartbeat.beat(f"worker:{queue}")
