"""`{% finished_games user %}`: a player's latest finished games, from the records.

My games (a games page) shows them without the games app reading the players app's records:
the template asks for them here.
"""

from __future__ import annotations

from typing import Any

from django import template

from players.models import SeatResult
from players.profiles import latest_finished

register = template.Library()


@register.inclusion_tag("players/_finished_games.html")
def finished_games(user: Any) -> dict[str, Any]:
    return {
        "user": user,
        "finished": latest_finished(user, user),
        "finished_count": SeatResult.objects.filter(user=user).count(),
    }
