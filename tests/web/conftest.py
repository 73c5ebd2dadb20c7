"""Fixtures of the webhook and push tests: a real HTTP receiver on the loopback, and a VAPID
key made for the test (push is off without one)."""

from __future__ import annotations

import pytest

from notifications import push
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
