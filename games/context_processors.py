"""What every page says about the site: its name, and its game's tagline (the footer)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from games.rules import registry


def game_tagline(request: HttpRequest) -> dict[str, Any]:
    return {"game_tagline": registry.default().look.tagline, "site_name": settings.SITE_NAME}
