"""Cache values one request will need, read from the shared cache together in one round trip.

A game page served from the cache needs several keys that different apps own: the drawn page
(games.pagecache) and the viewer's count of games waiting and last look at the game (inbox).
Read one by one, each is a Redis round trip of its own. An app that knows which keys it will
read during a request registers a provider (``wants``); the code that makes the request's main
read (``get_many``) asks for its own keys and every provider's at once, and the other apps'
later reads (``get``) are answered from what came back. Writes and deletes go through here too,
so a value read later in the same request is never older than one written in it.

Outside a ``scope`` (a Celery task, a shell) every call goes straight to the cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest

Provider = Callable[[HttpRequest], list[str]]

_providers: list[Provider] = []
_memo: ContextVar[dict[str, Any] | None] = ContextVar("firenze_prefetch", default=None)
_ABSENT = object()


def wants(provider: Provider) -> None:
    """Register ``provider``: the keys it will read during a request (none if it will not)."""
    if provider not in _providers:
        _providers.append(provider)


@contextmanager
def scope() -> Iterator[None]:
    """One request: what is read here is remembered until the block ends."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def get_many(request: HttpRequest, keys: list[str]) -> dict[str, Any]:
    """``keys`` from the cache, read together with every provider's keys for ``request``."""
    memo = _memo.get()
    if memo is None:
        return cache.get_many(keys)
    wanted = list(dict.fromkeys([*keys, *(k for p in _providers for k in p(request))]))
    found = cache.get_many(wanted)
    memo.update({key: found.get(key, _ABSENT) for key in wanted})
    return {key: found[key] for key in keys if key in found}


def get(key: str) -> Any:
    """The value of ``key`` (None when absent): from this request's read if it had it."""
    memo = _memo.get()
    if memo is not None and key in memo:
        value = memo[key]
        return None if value is _ABSENT else value
    return cache.get(key)


def set(key: str, value: Any, timeout: int) -> None:  # noqa: A001 - the cache's own word
    cache.set(key, value, timeout)
    memo = _memo.get()
    if memo is not None:
        memo[key] = value


def delete_many(keys: list[str]) -> None:
    cache.delete_many(keys)
    memo = _memo.get()
    if memo is not None:
        for key in keys:
            memo.pop(key, None)
