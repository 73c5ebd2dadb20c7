"""Show times in the player's own time zone.

Signed in: the zone on the account (set from the browser at sign-up, editable on the account
page). Not signed in: the zone the browser reported in the ``tz`` cookie (static/js/site.js),
if it names a real zone. Otherwise the site's TIME_ZONE.

Views marked ``skip_user_time_zone`` (the version poll, the health check) are left alone, so
they never load a session or a user.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import time_zone_names

COOKIE = "tz"


def zone_from_cookie(value: str | None) -> zoneinfo.ZoneInfo | None:
    if value and len(value) <= 64 and value in time_zone_names():
        return zoneinfo.ZoneInfo(value)
    return None


class TimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        if getattr(view_func, "skip_user_time_zone", False):
            return None
        user = getattr(request, "user", None)
        zone = getattr(user, "zone", None) if user is not None and user.is_authenticated else None
        zone = zone or zone_from_cookie(request.COOKIES.get(COOKIE))
        if zone is not None:
            timezone.activate(zone)
        return None
