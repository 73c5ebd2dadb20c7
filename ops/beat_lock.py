"""One beat at a time, however many are started: a second beat (on another node, started by
mistake or as a standby) waits for the lock in Redis before it schedules anything, and takes
over within ``TTL`` seconds when the first one's node dies.

The lock is a Redis key with an expiry, set only if absent and renewed by its holder every
``RENEW`` seconds with a check-and-set on its own token; a holder that finds the key gone or
taken (Redis restarted empty and another beat won) stops at once rather than schedule beside
it. Stopping "at once" still means at its next renewal, so a beat that has just taken the lock
keeps it for a whole ``TTL`` before it schedules anything: by then the beat it replaced has
either seen the lock taken and stopped, or lost its own belief in the lock (it believes only
while Redis confirmed it within ``TTL - RENEW`` seconds). Without a Redis broker
(development's filesystem broker) there is nothing to share and beat runs as before.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from typing import Any

import redis
from django.conf import settings

log = logging.getLogger(__name__)

KEY = "firenze:beat-lock"
TTL = 10
RENEW = 3.0
REDIS_TIMEOUT = 2

# Renew only while the value is our token (a Lua script: one round trip, atomic).
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('expire', KEYS[1], ARGV[2])
end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then
    return 1
end
return 0
"""


def _client() -> redis.Redis | None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return None
    return redis.Redis.from_url(
        url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
    )


def on_beat_init(**kwargs: Any) -> None:
    """At beat's start (celery's beat_init, before its first tick): hold the lock first."""
    client = _client()
    if client is not None:
        hold(client)


def _stop_beat(holder: str) -> None:
    log.error("beat lock lost to %s: this beat stops", holder)
    os._exit(1)


class Holding:
    """This process holds the lock until ``release()`` (or loses it: ``on_lost``)."""

    def __init__(self, client: redis.Redis, token: str, on_lost: Any) -> None:
        self.client, self.token, self.on_lost = client, token, on_lost
        self.released = threading.Event()
        threading.Thread(target=self._keep, daemon=True, name="beat-lock").start()

    def release(self) -> None:
        self.released.set()

    def _keep(self) -> None:
        """Renew the lock; if another beat holds it now, stop this one at once."""
        renew = self.client.register_script(_RENEW)
        confirmed = time.monotonic()
        while not self.released.wait(RENEW):
            try:
                held = renew(keys=[KEY], args=[self.token, TTL])
                confirmed = time.monotonic()
            except redis.RedisError:
                # Redis away (or only this node cut off from it): the key may expire and
                # another beat take it, so believe in it only well within its lifetime.
                held = 1 if time.monotonic() - confirmed < TTL - RENEW else 0
            if not held:
                self.on_lost(_holder(self.client))
                return


def hold(client: redis.Redis, on_lost: Any = _stop_beat) -> Holding:
    """Wait until this process holds the lock; then keep it."""
    token = f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(4)}"
    waited = False
    while True:
        try:
            if client.set(KEY, token, nx=True, ex=TTL):
                break
        except redis.RedisError as exc:
            log.warning("beat lock: Redis unreachable, waiting: %s", exc)
        if not waited:
            log.warning("beat lock held by %s: this beat waits as a standby", _holder(client))
            waited = True
        time.sleep(1)
    holding = Holding(client, token, on_lost)
    log.warning("beat lock taken by %s: waiting %s s for any earlier beat to stop", token, TTL)
    time.sleep(TTL)
    log.warning("beat lock held by %s: this beat schedules", token)
    return holding


def _holder(client: redis.Redis) -> str:
    try:
        value = client.get(KEY)
    except redis.RedisError:
        return "unknown"
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value or "nobody")
