"""Per-token rate limits of the API, counted in the shared cache, failing closed.

The pages' limits (games.limits, allauth's limiter) let a request through while the cache is
down, because a player must be able to move; a program that sends hundreds of requests a
minute must not run unlimited, so here an unreachable cache refuses the request (503,
"limits_unavailable") instead. Callers without a token are counted per address ("anonymous"),
failing closed as well.

Windows slide: the count is this window's plus the previous window's weighted by how much of
it still lies within one period (the sliding-window counter), so a burst just before a
boundary and another just after it cannot pass twice the limit, as fixed windows let them.
Two counters per caller and action, one more read than a fixed window. Stream connections are
counted per account while they are open.

The rates: API_RATE_LIMITS in settings overrides the defaults below, (count, seconds) each.
"""

from __future__ import annotations

import contextlib
import math
import time
from typing import Any

from allauth.account.adapter import get_adapter
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
    "anonymous": (300, 60),  # any API request without a token, per address
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
    """Count one ``action`` for ``who`` (a token id, "ip:<address>"); raise ApiError past the
    limit."""
    limit, period = rate(action)
    now = time.time()
    window, elapsed = divmod(now, period)
    key = f"api-rate:{action}:{who}:"
    current = _increment(f"{key}{int(window)}", 2 * period + 5)
    previous = cache.get(f"{key}{int(window) - 1}", 0)
    if is_down():
        raise _unavailable()
    weight = 1 - elapsed / period  # the share of the previous window still within a period
    if previous * weight + current > limit:
        raise ApiError(
            429,
            "rate_limited",
            _("Too many requests: at most %(limit)s in %(period)s seconds.")
            % {"limit": limit, "period": period},
            retry_after=_retry_after(limit, period, elapsed, current, previous),
        )


def _increment(key: str, seconds: int) -> int:
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window
        cache.set(key, 1, seconds)
        return 1


def _retry_after(limit: int, period: int, elapsed: float, current: int, previous: int) -> int:
    """Seconds until the weighted count falls to the limit (at the next window if this one's
    own count is already past it)."""
    if current >= limit or previous <= 0:
        return max(1, math.ceil(period - elapsed))
    # The moment ``at`` (into this window) where previous * (1 - at / period) + current = limit.
    at = period * (1 - (limit - current) / previous)
    return max(1, math.ceil(at - elapsed))


def consume_anonymous(request: Any) -> None:
    """Count a request without a token against its address (as the pages count sign-ins)."""
    consume("anonymous", f"ip:{get_adapter().get_client_ip(request)}")


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
