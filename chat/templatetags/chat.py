"""Template helpers of the table talk: ``{% chat_thread %}`` draws a game's thread (used by the
game page, so the page's view needs no change), and ``|chat_text`` shows a message as escaped
plain text with its line breaks and clickable links."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import urlize
from django.utils.safestring import SafeString, mark_safe

from chat import services

register = template.Library()

LINK_ATTRIBUTES = ' rel="nofollow ugc noopener noreferrer" target="_blank"'


@register.inclusion_tag("games/_chat.html", takes_context=True)
def chat_thread(context: Any) -> dict[str, Any]:
    """The thread as ``user`` sees it (the game page is also drawn without a request, ahead
    of a player's poll: games/page.py)."""
    user, game = context["user"], context["game"]
    seats = context.get("seats")
    return thread_context(user, game, seats=seats, csrf_token=context.get("csrf_token"))


def thread_context(
    user: Any, game: Any, seats: list[Any] | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "user": user,
        "game": game,
        "thread": services.thread(game, user, seats=seats),
        "max_length": services.MAX_LENGTH,
        **extra,
    }


@register.filter(is_safe=True)
def chat_text(text: str) -> SafeString:
    """Escaped text, links clickable (opened in a new tab, no referrer, no SEO credit)."""
    linked = urlize(text, trim_url_limit=60, nofollow=True, autoescape=True)
    linked = linked.replace(' rel="nofollow"', LINK_ATTRIBUTES)
    return mark_safe(linked.replace("\n", "<br>"))
