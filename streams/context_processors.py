"""Whether pages may listen to live streams (a Redis is configured for them)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from streams.publish import enabled


def live_streams(request: HttpRequest) -> dict[str, Any]:
    return {"live_streams": enabled()}
