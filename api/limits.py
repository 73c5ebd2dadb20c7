"""Per-token rate limits of the API, counted in the shared cache, failing closed.

The pages' limits (games.limits, allauth's limiter) let a request through while the cache is
down, because a player must be able to move; a program that sends hundreds of requests a
minute must not run unlimited, so here an unreachable cache refuses the request (503,
"limits_unavailable") instead. Windows are fixed (the current minute): simple, one counter
per token and window. Stream connections are counted per account while they are open.

The rates: API_RATE_LIMITS in settings overrides the defaults below, (count, seconds) each.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _

from api.errors import ApiError
from firenze_site.cache import is_down

DEFAULTS: dict[str, tuple[int, int]] = {
    "request": (600, 60),  # any API request, per token
    "move": (240, 60),  # moves and undos, per token (the pages' per-account limit holds too)
    "talk": (20, 60),  # table talk posts, per token (the table talk's own limit holds too)
    "lobby": (30, 60),  # games created, seats taken, invitations, per token
    "streams": (20, 0),  # open streams per account (or per address without one) at once
}
STREAM_TTL = 2 * 3600  # an open-streams count outlives a crashed server by this much at most


def rate(action: str) -> tuple[int, int]:
    return {**DEFAULTS, **getattr(settings, "API_RATE_LIMITS", {})}[action]


def _unavailable() -> ApiError:
    return ApiError(
        503,
        "limits_unavailable",
        _("The site cannot count requests just now; try again in a minute."),
        retry_after=10,
    )


def consume(action: str, who: Any) -> None:
    """Count one ``action`` for ``who`` (a token id); raise ApiError past the limit."""
    limit, period = rate(action)
    now = time.time()
    window = int(now // period)
    key = f"api-rate:{action}:{who}:{window}"
    cache.add(key, 0, period + 5)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window
        cache.set(key, 1, period + 5)
        count = 1
    if is_down():
        raise _unavailable()
    if count > limit:
        raise ApiError(
            429,
            "rate_limited",
            _("Too many requests: at most %(limit)s in %(period)s seconds.")
            % {"limit": limit, "period": period},
            retry_after=max(1, int(period - now % period)),
        )


def open_stream(who: str) -> str:
    """Count an open stream for ``who``; returns the counter's key (close_stream frees it)."""
    limit, _period = rate("streams")
    key = f"api-streams:{who}"
    cache.add(key, 0, STREAM_TTL)
    try:
        count = cache.incr(key)
    except ValueError:
        cache.set(key, 1, STREAM_TTL)
        count = 1
    if is_down():
        raise _unavailable()
    if count > limit:
        close_stream(key)
        raise ApiError(
            429,
            "rate_limited",
            _("Too many open streams: at most %(limit)s at once.") % {"limit": limit},
            retry_after=30,
        )
    return key


def close_stream(key: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: nothing to free
        cache.decr(key)
