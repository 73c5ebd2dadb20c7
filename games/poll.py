"""The version poll answered before the middleware stack: no session, user, CSRF or URL lookup.

Thousands of open tabs ask every few seconds whether their game changed, and almost always it
has not; that answer needs only the game's versions in the shared cache (games.versions). So
PollMiddleware, placed right after the security headers in MIDDLEWARE, recognises
``/games/<id>/version/`` and answers it from the cache when it may: the game's versions are
cached and the game is public or the request carries the page's poll token. Everything else (a
cache miss, an unknown game, a private game without its token, a method other than GET) goes
on to the view (games.views.version), which answers as it always did, with the database and the
session. Both build their answer with ``answer()``, so the two paths cannot drift apart.

The response carries what the skipped middleware would have added (no-cache headers, Vary,
Content-Language, X-Frame-Options, Content-Length); the outer middleware (HTTPS redirect, HSTS,
CSP, Permissions-Policy) still runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from games import versions

# Any id longer than this is no game (and int() of a huge string is slow, or refused).
MAX_ID_DIGITS = 18


def answer(row: versions.Versions, params: Mapping[str, str]) -> HttpResponse:
    """The poll's answer once access is settled: 204 if the page shows the current versions
    (``v`` moves, ``c`` table talk), else the versions as JSON, with an htmx trigger for a page
    that said which version it shows."""
    version_now, chat_now, _ = row
    seen, seen_chat = params.get("v"), params.get("c")
    if seen == str(version_now) and seen_chat in (None, str(chat_now)):
        return HttpResponse(status=204)
    response = JsonResponse({"version": version_now, "chat": chat_now})
    if seen is not None:
        response["HX-Trigger"] = "game-changed"
    return response


def from_cache(game_id: int, params: Mapping[str, str]) -> HttpResponse | None:
    """The answer from the shared cache alone, or None when the view must decide (versions not
    cached, or a private game polled without its page's token)."""
    row = versions.cached(game_id)
    if row is None:
        return None
    if not row[2] and not versions.valid_poll_token(game_id, params.get("p")):
        return None
    return answer(row, params)


def _poll_path() -> re.Pattern[str]:
    """The poll's URL as the URLconf writes it, with the game id as a group."""
    sample = reverse("games:version", args=[4242424242])
    before, after = sample.split("4242424242")
    return re.compile(rf"{re.escape(before)}([0-9]{{1,{MAX_ID_DIGITS}}}){re.escape(after)}")


class PollMiddleware:
    """Answers an unchanged (or changed) poll from the shared cache before sessions, auth,
    CSRF, messages and the URL resolver run; falls through to the view otherwise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.path: re.Pattern[str] | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET":
            if self.path is None:
                self.path = _poll_path()
            match = self.path.fullmatch(request.path_info)
            if match is not None:
                response = from_cache(int(match.group(1)), request.GET)
                if response is not None:
                    return _as_the_stack_would(request, response)
        return self.get_response(request)


def _as_the_stack_would(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The headers the view's decorator and the skipped middleware add to the poll's answer."""
    add_never_cache_headers(response)  # the view's @never_cache
    # firenze_site.language: the cookie's or the browser's language (the poll never loads a user).
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    response.headers.setdefault("Content-Language", translation.get_language_from_request(request))
    # django.middleware.clickjacking and django.middleware.common.
    response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS.upper())
    response.headers.setdefault("Content-Length", str(len(response.content)))
    return response
