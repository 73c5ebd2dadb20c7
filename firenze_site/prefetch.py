"""Cache values one request will need, read from the shared cache together in one round trip.

A signed-in game page served from the cache needs several keys that different apps own: the
session, the drawn page (games.pagecache), the viewer's count of games waiting and last look at
the game (inbox). Read one by one, each is a Redis round trip of its own. An app that knows
which keys it will read during a request for a given user registers a provider (``wants``).
The request's first read of its session (firenze_site.sessions) asks for the session and every
provider's keys for the user the signed viewer cookie names (firenze_site.viewer_cookie) at
once; later reads (``get``, ``get_many``) are answered from what came back, and only keys not
read yet go to the cache.

Keys are kept by their exact names, and a provider's keys name the user they belong to (the
page's slot, the count, the last look): what was read for the user a cookie claimed is only
ever found by code asking for that user's keys, that is, for the user the session verified. A
cookie naming someone else costs a second read, never another user's value.

Writes and deletes go through here too, so a value read later in the same request is never
older than one written in it. Outside a ``scope`` (a Celery task, a shell) every call goes
straight to the cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from firenze_site import viewer_cookie

# The request, and the id of the user whose keys are wanted: the user may not be known yet.
Provider = Callable[[HttpRequest, int], list[str]]

_providers: list[Provider] = []
_ABSENT = object()


@dataclass
class _Scope:
    request: HttpRequest | None
    memo: dict[str, Any] = field(default_factory=dict)


_scope: ContextVar[_Scope | None] = ContextVar("firenze_prefetch", default=None)


def wants(provider: Provider) -> None:
    """Register ``provider``: the keys it will read during a request for a user (none if it
    will not). Each key must name the user it belongs to."""
    if provider not in _providers:
        _providers.append(provider)


@contextmanager
def scope(request: HttpRequest | None = None) -> Iterator[None]:
    """One request: what is read here is remembered until the block ends."""
    token = _scope.set(_Scope(request))
    try:
        yield
    finally:
        _scope.reset(token)


class PrefetchMiddleware:
    """Right after the session middleware: one scope per request, and the viewer cookie kept
    naming the session's user on the way out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with scope(request):
            response = self.get_response(request)
        viewer_cookie.keep(request, response)
        return response


def session(key: str) -> Any:
    """The session's cached copy (None when absent), read together with every provider's keys
    for the user the request's viewer cookie names."""
    current = _scope.get()
    if current is None or current.request is None:
        return cache.get(key)
    user_id = viewer_cookie.claimed(current.request)
    wanted = [key] if user_id is None else [key, *_wanted(current.request, user_id)]
    found = _read(current, wanted).get(key)
    # The store keeps its own copy and writes its changes straight to the cache: a second
    # store of the same session must read them, not this.
    current.memo.pop(key, None)
    return found


def get_many(request: HttpRequest, keys: list[str]) -> dict[str, Any]:
    """``keys`` from the cache, read together with every provider's keys for the request's
    user; keys this request has read already are not read again."""
    current = _scope.get()
    if current is None:
        return cache.get_many(keys)
    wanted = list(keys)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        wanted += _wanted(request, user.pk)
    found = _read(current, wanted)
    return {key: found[key] for key in keys if key in found}


def _wanted(request: HttpRequest, user_id: int) -> list[str]:
    return [key for provider in _providers for key in provider(request, user_id)]


def _read(current: _Scope, keys: list[str]) -> dict[str, Any]:
    """The values of ``keys`` (absent ones left out), the ones not read yet in one round trip."""
    memo = current.memo
    missing = [key for key in dict.fromkeys(keys) if key not in memo]
    if missing:
        found = cache.get_many(missing)
        memo.update({key: found.get(key, _ABSENT) for key in missing})
    return {key: memo[key] for key in keys if memo.get(key, _ABSENT) is not _ABSENT}


def get(key: str) -> Any:
    """The value of ``key`` (None when absent): from this request's read if it had it."""
    current = _scope.get()
    if current is not None and key in current.memo:
        value = current.memo[key]
        return None if value is _ABSENT else value
    return cache.get(key)


def set(key: str, value: Any, timeout: int) -> None:  # noqa: A001 - the cache's own word
    cache.set(key, value, timeout)
    current = _scope.get()
    if current is not None:
        current.memo[key] = value


def delete_many(keys: list[str]) -> None:
    cache.delete_many(keys)
    current = _scope.get()
    if current is not None:
        for key in keys:
            current.memo.pop(key, None)
