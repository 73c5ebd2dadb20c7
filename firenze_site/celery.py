"""Celery application for Firenze.

Settings come from Django's settings under the ``CELERY_`` prefix, so the broker can be
swapped (filesystem in development, Redis in production) with one environment variable.
"""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings")

app = Celery("firenze_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class QuietPageDrawing(logging.Filter):
    """The page-drawing task runs after every move, the heartbeat task every few seconds per
    queue (ops/tasks.py): their "received" and "succeeded" lines would bury everything else in
    a worker's log, so only their failures are logged."""

    TASKS = ("games.tasks.draw_pages", "ops.tasks.heartbeat")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        message = record.getMessage()
        return not any(task in message for task in self.TASKS)


for _name in ("celery.app.trace", "celery.worker.strategy"):
    logging.getLogger(_name).addFilter(QuietPageDrawing())
