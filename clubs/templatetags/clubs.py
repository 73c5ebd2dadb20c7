"""`{% club_invitations %}`: the inbox's "Club invitations", each with accept and decline
buttons (the inbox app sits below clubs, so it loads this tag rather than importing clubs)."""

from __future__ import annotations

from typing import Any

from django import template

from clubs import pages

register = template.Library()


@register.inclusion_tag("clubs/_inbox_invitations.html", takes_context=True)
def club_invitations(context: Any) -> dict[str, Any]:
    user = context.get("user")
    return {"invitations": pages.my_invitations(user), "csrf_token": context.get("csrf_token")}
