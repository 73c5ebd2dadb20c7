"""Sessions read from the shared cache, written through to the database (Django's cached_db),
with the cached copy kept at most a few minutes.

Every page reads the session; from Redis that costs a fraction of a database query, and read
through firenze_site.prefetch it comes in the same round trip as the other keys the page needs
(the viewer cookie says whose). The database stays the truth: a session the cache has lost is
read from it again. The short expiry bounds what a write lost while Redis was unreachable can
do (a signed-out session's copy outliving it): at most ``CACHE_SECONDS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache.backends.base import BaseCache

from firenze_site import prefetch

CACHE_SECONDS = 300


class SessionStore(CachedDBStore):
    cache_key_prefix = "firenze.session:"
    # Parts of Django's cached_db and db stores that their type stubs leave out.
    _cache: BaseCache
    _session: dict[str, Any]
    _get_session_from_db: Callable[[], Any]

    def load(self) -> dict:
        try:
            if settings.SESSION_CACHE_ALIAS == "default":  # prefetch's cache
                data = prefetch.session(self.cache_key)
            else:
                data = self._cache.get(self.cache_key)
        except Exception:  # an invalid key: read the database, as Django does
            data = None
        if data is None:
            row = self._get_session_from_db()
            if not row:
                return {}
            data = self.decode(row.session_data)
            age = min(self.get_expiry_age(expiry=row.expire_date), CACHE_SECONDS)
            self._cache.set(self.cache_key, data, age)
        return data

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        self._cache.set(self.cache_key, self._session, min(self.get_expiry_age(), CACHE_SECONDS))
