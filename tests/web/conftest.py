"""Fixtures of the outbox tests: a real HTTP receiver on the loopback, a VAPID key made for the
test (push is off without one), and eager tasks that retry like a worker."""

from __future__ import annotations

import pytest

from notifications import push, tasks
from notifications.management.commands.vapid_keys import new_private_key
from tests.receivers import Receiver


@pytest.fixture
def receiver():
    started = Receiver().start()
    yield started
    started.stop()


@pytest.fixture
def vapid(settings):
    """A fresh VAPID key for this test; returns its public key."""
    private, public = new_private_key()
    settings.WEBPUSH_VAPID_PRIVATE_KEY = private
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:admin@firenze.example"
    push._vapid.cache_clear()
    yield public
    push._vapid.cache_clear()


@pytest.fixture
def eager_retries():
    """Let eager tasks retry the way a worker does (minus the wait). With eager_propagates on
    (settings_test), Celery raises the Retry to the caller instead of running the retry."""
    conf = tasks.send_notification.app.conf
    propagates = conf.task_eager_propagates
    conf.task_eager_propagates = False
    yield
    conf.task_eager_propagates = propagates
