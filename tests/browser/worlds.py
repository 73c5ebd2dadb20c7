"""Game worlds built once per test process and put back for every test that asks again.

A page sweep's world (a game played to turn 29 by greedy seats and bots, a finished game, a
forming table, absences) took 20-60 s to play through the move service, and every screen's
test built it again: the live server needs transactional tests, and those empty the database
after each test. On the in-memory SQLite database the first build is copied whole (SQLite's
backup API: every table, the id counters with them) and copied back into the emptied database
the next time, in milliseconds. The live server shares that one connection, so it serves the
restored world at once. Other databases (DATABASE_URL) build the world every time.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.models import Model

_SNAPSHOTS: dict[str, tuple[sqlite3.Connection, dict[str, Any]]] = {}


def shared_world(key: str, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``build()``'s world, built on the first call with this key and restored on the others;
    its model instances (also in lists and dicts) come back fresh from the database, its other
    values as copies."""
    if not (connection.vendor == "sqlite" and connection.is_in_memory_db()):
        return build()
    connection.ensure_connection()
    saved = _SNAPSHOTS.get(key)
    if saved is None:
        world = build()
        snapshot = sqlite3.connect(":memory:", check_same_thread=False)
        connection.connection.backup(snapshot)
        _SNAPSHOTS[key] = (snapshot, {name: _refer(value) for name, value in world.items()})
        return world
    snapshot, refs = saved
    snapshot.backup(connection.connection)
    ContentType.objects.clear_cache()  # the emptied database may have numbered them anew
    return {name: _resolve(ref) for name, ref in refs.items()}


class _Row:
    def __init__(self, instance: Model) -> None:
        self.model = type(instance)
        self.pk = instance.pk


def _refer(value: Any) -> Any:
    if isinstance(value, Model):
        return _Row(value)
    if isinstance(value, list | tuple):
        return type(value)(_refer(item) for item in value)
    if isinstance(value, dict):
        return {key: _refer(item) for key, item in value.items()}
    return copy.deepcopy(value)


def _resolve(ref: Any) -> Any:
    if isinstance(ref, _Row):
        return ref.model._default_manager.get(pk=ref.pk)
    if isinstance(ref, list | tuple):
        return type(ref)(_resolve(item) for item in ref)
    if isinstance(ref, dict):
        return {key: _resolve(item) for key, item in ref.items()}
    return copy.deepcopy(ref)
