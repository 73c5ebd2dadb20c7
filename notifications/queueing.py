"""Handing work to the Celery tasks of notifications.tasks, by task name.

The tasks import the sending code (delivery), which imports the outbox; so the outbox, which
queues a row once its transaction commits, names the task instead of importing it. A broker that
cannot be reached never breaks the request that committed: the row stays pending and the
periodic send_pending sends it.
"""

from __future__ import annotations

import logging

from celery import current_app

log = logging.getLogger(__name__)

SEND_NOTIFICATION = "notifications.tasks.send_notification"
SEND_ADDRESS_INVITATION = "notifications.tasks.send_address_invitation"


def queue(task_name: str, object_id: int) -> bool:
    """Publish one task for one row; False (logged) if the broker did not take it."""
    try:
        current_app.tasks[task_name].delay(object_id)
    except Exception:
        log.warning(
            "%s(%s) not queued; the periodic sweep will pick it up",
            task_name,
            object_id,
            exc_info=True,
        )
        return False
    return True
