"""Who a game page is drawn for: the user, the invite token in the address, whether it is an
htmx request, and the request when there is one (a whole page needs it: its layout reads the
request's messages and context processors; the htmx part a worker draws does not)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from games.models import Seat


@dataclass(frozen=True)
class Viewer:
    """Who a page is drawn for."""

    user: Any  # a user, or AnonymousUser
    token: str = ""  # the invite token in the page's address: its links and polls keep it
    htmx: bool = False  # an htmx request: its part carries the page's <title>
    request: HttpRequest | None = field(default=None, compare=False)

    @classmethod
    def of(cls, request: HttpRequest) -> Viewer:
        htmx = getattr(request, "htmx", None)
        return cls(request.user, request.GET.get("token", ""), bool(htmx), request)

    @property
    def signed_in(self) -> bool:
        return bool(getattr(self.user, "is_authenticated", False))

    def seat_in(self, seats: Sequence[Seat]) -> Seat | None:
        if not self.signed_in:
            return None
        return next((s for s in seats if s.user_id == self.user.pk), None)

    def absolute(self, path: str) -> str:
        if self.request is not None:
            return self.request.build_absolute_uri(path)
        return settings.SITE_URL.rstrip("/") + path
