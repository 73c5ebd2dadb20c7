"""The lobby's list of open games, drawn once per change of the open games rather than once per
visitor: every visitor sees the same list, and it changes only when a table is created, fills,
starts or is cancelled, while it is read far more often than that. Each page of the list is kept
with the generation it was drawn at, and read together with the current generation: one Redis
round trip."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction
from django.utils import translation

GENERATION_KEY = "lobby:generation"
# A backstop for changes that bypass the signals (queryset updates): the list is at most this old.
TTL_SECONDS = 30


def changed() -> None:
    """Open games changed: drop the drawn lists once the change commits (a visitor drawing
    the list before the commit stores it under the old generation, never seen again)."""
    transaction.on_commit(_bump)


def _bump() -> None:
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # evicted or never set: any value not used before will do
        cache.set(GENERATION_KEY, time.time_ns(), None)


def _first_generation() -> int:
    cache.add(GENERATION_KEY, time.time_ns(), None)
    return cache.get(GENERATION_KEY) or 0


def page_param(raw: str | None) -> str:
    """The page asked for, as a short cache-key part (anything else is the first page, as
    the paginator reads it)."""
    if not raw or not re.fullmatch(r"-?[0-9]+", raw):
        return "1"  # not a number: the first page
    return raw if len(raw) <= 6 else "999999"  # far past the end: the last page


def drawn_list(page: str, signed_in: bool, draw: Callable[[], str]) -> str:
    """The list's HTML for a page in the current language, from the cache or drawn now (an
    empty lobby invites signed-in visitors to start a game)."""
    key = f"lobby:list:{page}:{int(signed_in)}:{translation.get_language()}"
    found = cache.get_many([GENERATION_KEY, key])
    generation = found.get(GENERATION_KEY)
    if generation is None:
        generation = _first_generation()
    kept = found.get(key)
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == generation:
        return kept[1]
    html = draw()
    cache.set(key, (generation, html), TTL_SECONDS)
    return html
