"""Fixtures of the web tests: a real HTTP receiver on the loopback, a VAPID key made for the
test (push is off without one), eager tasks that retry like a worker, and the second engine
(Nim) registered as the site's default."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.rules import registry
from notifications import push, tasks
from notifications.management.commands.vapid_keys import new_private_key
from tests.nim.engine import NimEngine
from tests.receivers import Receiver

NIM_TEMPLATES = Path(__file__).resolve().parent.parent / "nim" / "templates"


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


@pytest.fixture
def nim(settings):
    """The Nim engine as the default game, its templates found, for one test."""
    engine = registry.register(NimEngine())
    settings.GAMES_DEFAULT_ENGINE = engine.name
    template = dict(settings.TEMPLATES[0])
    template["DIRS"] = [*template.get("DIRS", []), NIM_TEMPLATES]
    settings.TEMPLATES = [template, *settings.TEMPLATES[1:]]
    yield engine
    registry.unregister(engine)
