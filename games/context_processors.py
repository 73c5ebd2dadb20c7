"""What every page says about the site's game (its footer): the default engine's words."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.rules import registry


def game_tagline(request: HttpRequest) -> dict[str, Any]:
    return {"game_tagline": registry.default().tagline}
