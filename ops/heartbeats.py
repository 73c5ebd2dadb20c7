"""Which heartbeats the site expects, and beat's own.

Beat proves it is alive by publishing: every task it sends (the heartbeat tasks every
``OPS_HEARTBEAT_SECONDS`` among them, settings.py) records a ``beat`` heartbeat.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from ops.models import Heartbeat

log = logging.getLogger(__name__)

# A heartbeat older than this fails readiness (the "within the last minute").
FRESH_SECONDS = 60.0

_in_beat = False


def queues() -> list[str]:
    """Every queue a task is routed to, the default one first: each needs a live worker."""
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    default = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
    return [default, *sorted(routed - {default})]


def names() -> list[str]:
    return ["beat", *(f"worker:{queue}" for queue in queues())]


def beat_started(**kwargs: Any) -> None:
    global _in_beat
    _in_beat = True


def task_published(**kwargs: Any) -> None:
    """In the beat process: a publish is beat's sign of life (never fails the publish)."""
    if not _in_beat:
        return
    try:
        Heartbeat.beat("beat")
    except Exception as exc:  # noqa: BLE001 - a heartbeat must never stop beat's work
        log.warning("beat heartbeat not recorded: %s", exc)
