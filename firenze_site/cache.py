"""The shared Redis cache, made to degrade instead of failing when Redis is away.

Django's RedisCache raises on every call while Redis is unreachable, which turned each game
page (the board fragment cache) and each sign-in (the rate limits) into a 500. Here every call
that cannot reach Redis answers as if the cache were empty and writes were dropped, and after a
failure Redis is left alone for ``RETRY_AFTER`` seconds so each request does not pay the
connect timeout again. ``add`` then reports success so that locks built on it (allauth's rate
limiter) do not stall; a limit therefore counts nothing while Redis is down. So what such a
limit guards fails closed instead: password sign-in pauses itself (accounts/adapter.py), and so
does everything that sends an email to an address someone typed (password reset, sign-in codes,
sign-up, adding an address, invitations: ``limits_hold()``), with EMAILS_PAUSED, while playing
goes on. Limits counted in the database (table talk, webhook and push tests) hold anyway.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.translation import gettext_lazy
from redis.exceptions import RedisError

from firenze_site.costs import add_cache_time

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0
EMAILS_PAUSED = gettext_lazy(
    "The site cannot send this email right now while it recovers from a fault; please try "
    "again in a few minutes."
)


def _degrading(default: Any) -> Callable:
    """Run the cache call; on a Redis error (or while Redis is known to be down) return
    ``default`` (a callable gets the call's arguments) instead of raising."""

    def decorate(method: Callable) -> Callable:
        @wraps(method)
        def call(self: ResilientRedisCache, *args: Any, **kwargs: Any) -> Any:
            fallback = default(*args, **kwargs) if callable(default) else default
            if self.is_down():
                return fallback
            started = time.perf_counter()
            try:
                return method(self, *args, **kwargs)
            except RedisError as exc:
                self._mark_down(exc)
                return fallback
            finally:
                add_cache_time(time.perf_counter() - started)

        return call

    return decorate


def _default_argument(key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


class ReusedClient(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` around the pool for every call (each build
    fills its table of several hundred reply parsers: about a fifth of a cached game page's
    cache time in process). One per pool serves every call; redis-py's clients may be shared
    between threads, the pool hands each command its own connection."""

    # Parts of Django's client that its type stubs leave out.
    _client: Callable[..., Any]
    _get_connection_pool: Callable[[bool], Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    _down_until = 0.0  # per process, shared by every alias pointing at Redis

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClient

    def is_down(self) -> bool:
        return time.monotonic() < ResilientRedisCache._down_until

    def _mark_down(self, exc: Exception) -> None:
        if not self.is_down():
            log.error("cache unreachable, serving without it for %.0f s: %s", RETRY_AFTER, exc)
        ResilientRedisCache._down_until = time.monotonic() + RETRY_AFTER

    get = _degrading(_default_argument)(RedisCache.get)
    get_many = _degrading(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _degrading(False)(RedisCache.has_key)
    set = _degrading(None)(RedisCache.set)
    set_many = _degrading(lambda *a, **k: [])(RedisCache.set_many)
    add = _degrading(True)(RedisCache.add)
    touch = _degrading(False)(RedisCache.touch)
    delete = _degrading(False)(RedisCache.delete)
    delete_many = _degrading(None)(RedisCache.delete_many)
    clear = _degrading(None)(RedisCache.clear)

    @_degrading(lambda key, delta=1, *a, **k: delta)
    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return super().incr(key, delta, version)


def is_down() -> bool:
    """Whether the default cache is a Redis that this process found unreachable just now."""
    backend = caches["default"]
    return isinstance(backend, ResilientRedisCache) and backend.is_down()


def is_reachable() -> bool:
    """Ask Redis now (one round trip) whether it answers; True for a non-Redis cache."""
    backend = caches["default"]
    if not isinstance(backend, ResilientRedisCache):
        return True
    backend.has_key("firenze:probe")  # an error marks the cache down
    return not backend.is_down()


def limits_hold() -> bool:
    """Whether the rate limits kept in the shared cache can count right now (asks Redis)."""
    return is_reachable()
