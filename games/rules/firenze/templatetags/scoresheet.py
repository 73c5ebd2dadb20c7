"""`{% score_sheet final standings as sheet %}`: the breakdown table's rows and columns (in the
ranking's order), for the finished game's page
and the last position of a replay (both have the `final` list of firenze.presenters)."""

from __future__ import annotations

from typing import Any

from django import template

from games.rules.firenze.records import describe_options
from games.rules.firenze.scoresheet import ScoreSheet
from games.rules.firenze.scoresheet import score_sheet as build_sheet

register = template.Library()


@register.simple_tag
def score_sheet(final: list[dict[str, Any]], standings: Any = None) -> ScoreSheet:
    if not standings:
        return build_sheet(final)
    won = {row.seat for row in standings if row.winner}
    return build_sheet(final, [row.seat for row in standings], won)


@register.filter
def options_text(options: dict[str, Any]) -> str:
    return " · ".join(describe_options(options or {}))
