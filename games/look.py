"""What every page of a game takes from its engine's look (protocol.Look): the page's parts,
how scores are counted and named, and the engine's rules page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.rules import protocol, registry


def look_context(engine: protocol.Engine) -> dict[str, Any]:
    """The engine's parts of the page, its score words and its rules page (game page, forming
    page, replay). The rules page's address is reversed once here: the templates use it in
    loops."""
    look = engine.look
    return {
        "rules_url": rules_url(engine),
        "page_parts": look.page_parts,
        "score_template": look.score_template,
        "score_unit": look.score_unit,
        "score_name": look.score_name,
    }


def rules_url(engine: protocol.Rules) -> str:
    """The rules page of the game's engine (the site's default game needs no parameter)."""
    url = reverse("games:rules")
    return url if engine.name == registry.default_name() else f"{url}?game={engine.name}"
