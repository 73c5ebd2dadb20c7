"""Bot accounts play through the API only: a signed-in bot account's POSTs to the games, the
table talk and the tournaments (moves, seats, new games, messages, sign-ups: tournaments are
for people) are refused with a page that says so. The
account's own pages (tokens, settings, sign-out) stay open to the person who runs the bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

GUARDED_APPS = {"games", "chat", "tournaments"}


class BotAccountMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Any, view_args: Any, view_kwargs: Any
    ) -> HttpResponse | None:
        if request.method != "POST" or getattr(view_func, "skip_user_time_zone", False):
            return None
        match = request.resolver_match
        if match is None or match.app_name not in GUARDED_APPS:
            return None
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not user.bot_account:
            return None
        context = {
            "message": _(
                "This is a bot account: it plays through the API only, not through the pages."
            )
        }
        return render(request, "api/bot_refused.html", context, status=403)
