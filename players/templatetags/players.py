"""`{% player_link who %}`, `{% profile_url user as url %}` and `{% log_line raw seats %}`: a
player's name as a link to their profile, wherever a name is shown (players/links.py)."""

from __future__ import annotations

from typing import Any

from django import template

from players.links import log_line, player_link, profile_url

register = template.Library()
register.simple_tag(player_link)
register.simple_tag(log_line)


@register.simple_tag(name="profile_url")
def profile_url_tag(user: Any) -> str:
    """`{% profile_url user as url %}`: the address of a player's profile, or ""."""
    return profile_url(user) or ""
