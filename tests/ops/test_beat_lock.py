"""One beat at a time (ops/beat_lock.py), against a real redis-server: a second beat waits as a
standby while the first holds the lock, takes over when the first one's lock expires (its node
died) but schedules only a lock's lifetime later, and a beat that finds the lock taken by
another stops. No wait is real: ``time.sleep`` is replaced wherever a beat would wait."""

from __future__ import annotations

import shutil
import threading

import pytest
import redis

from bench.stack import RedisServer
from ops import beat_lock

KEY = beat_lock.KEY

pytestmark = pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")


@pytest.fixture
def client(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield redis.Redis.from_url(server.url)
    server.stop()


def test_it_lets_a_second_beat_wait_until_the_first_ones_lock_is_gone(client, monkeypatch):
    standby_waits = threading.Event()
    monkeypatch.setattr(beat_lock.time, "sleep", lambda seconds: None)
    first = beat_lock.hold(client, on_lost=lambda holder: None)
    took_over: list[beat_lock.Holding] = []
    standby = threading.Thread(target=lambda: took_over.append(beat_lock.hold(client)))
    monkeypatch.setattr(beat_lock.time, "sleep", lambda seconds: standby_waits.set())
    standby.start()
    assert standby_waits.wait(5)
    assert took_over == [] and client.get(beat_lock.KEY).decode() == first.token
    first.release()
    client.delete(beat_lock.KEY)  # the first beat's node died: its lock expired
    standby.join(5)
    assert took_over and client.get(beat_lock.KEY).decode() == took_over[0].token
    took_over[0].release()


def test_it_holds_the_lock_a_whole_lifetime_before_it_schedules(client, monkeypatch):
    """Redis restarted empty and this beat won the key before the old holder renewed: the old
    one stops at its next renewal (below), within RENEW plus Redis's timeout, and this one has
    not scheduled anything by then."""
    waits: list[tuple[float, bytes | None]] = []
    monkeypatch.setattr(beat_lock.time, "sleep", lambda s: waits.append((s, client.get(KEY))) if s
                        == beat_lock.TTL else None)  # fmt: skip
    holding = beat_lock.hold(client, on_lost=lambda holder: None)
    assert waits == [(beat_lock.TTL, holding.token.encode())]
    assert beat_lock.TTL > beat_lock.RENEW + beat_lock.REDIS_TIMEOUT
    holding.release()


def test_it_stops_a_beat_whose_lock_another_beat_holds_now(client, monkeypatch):
    monkeypatch.setattr(beat_lock.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(beat_lock, "RENEW", 0.01)
    lost = threading.Event()
    holding = beat_lock.hold(client, on_lost=lambda holder: lost.set())
    client.set(beat_lock.KEY, "other-node:42:beef")  # Redis restarted empty, another beat won
    assert lost.wait(5)
    holding.release()


def test_it_keeps_the_lock_across_a_redis_restart_when_nobody_else_took_it(client, monkeypatch):
    monkeypatch.setattr(beat_lock.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(beat_lock, "RENEW", 0.01)
    lost = threading.Event()
    holding = beat_lock.hold(client, on_lost=lambda holder: lost.set())
    client.delete(beat_lock.KEY)  # Redis restarted empty
    renewed = threading.Event()
    for _ in range(500):
        if client.get(beat_lock.KEY) == holding.token.encode():
            renewed.set()
            break
        threading.Event().wait(0.01)
    holding.release()
    assert renewed.is_set() and not lost.is_set()
