"""The token a seated player's page sends with its polls (games.presence), so the deadline
alarms know the player has the game open.

    {% load presence %}{% open_token game my_seat %}
"""

from __future__ import annotations

from typing import Any

from django import template

from games import presence

register = template.Library()


@register.simple_tag
def open_token(game: Any, seat: Any) -> str:
    user_id = getattr(seat, "user_id", None)
    if not game.is_active or user_id is None or getattr(seat, "bot", False):
        return ""
    return presence.token(game.pk, user_id)
