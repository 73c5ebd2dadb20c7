"""The version poll answered before the middleware stack: no session, user, CSRF or URL lookup.

Thousands of open tabs ask every few seconds whether their game changed, and almost always it
has not; that answer needs only the game's versions in the shared cache (games.versions). So
PollMiddleware, placed right after the security headers in MIDDLEWARE, recognises
``/games/<id>/version/`` and answers it from the cache when it may: the game's versions are
cached and the game is public or the request carries the page's poll token. Everything else (a
cache miss, an unknown game, a private game without its token, a method other than GET) goes
on to the view (games.views.version), which answers as it always did, with the database and the
session. Both build their answer with ``answer()``, so the two paths cannot drift apart.

It is first in MIDDLEWARE, so its answer carries by itself what the stack would have added:
the view's no-cache headers, Vary and Content-Language (firenze_site.language), X-Frame-Options,
Content-Length, the security headers (SecurityMiddleware's own code; an HTTPS redirect that is
due is left to the stack), and the Permissions-Policy and Content-Security-Policy headers, which
are the same on every response without a nonce and so are drawn once per process by their own
middleware. tests/web/test_poll_middleware.py compares its answers with the view's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.security import SecurityMiddleware
from django.urls import reverse
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import http_date
from django_permissions_policy import PermissionsPolicyMiddleware

from games import presence, versions

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


def from_cache(game_id: int, params: Mapping[str, str], viewer: str) -> HttpResponse | None:
    """The answer from the shared cache alone, or None when the view must decide (versions not
    cached, or a private game polled without this viewer's valid token from its page)."""
    row = versions.cached(game_id)
    if row is None:
        return None
    if not row[2] and not versions.valid_poll_token(game_id, viewer, params.get("p")):
        return None
    return answer(row, params)


def _poll_path() -> re.Pattern[str]:
    """The poll's URL as the URLconf writes it, with the game id as a group."""
    sample = reverse("games:version", args=[4242424242])
    before, after = sample.split("4242424242")
    return re.compile(rf"{re.escape(before)}([0-9]{{1,{MAX_ID_DIGITS}}}){re.escape(after)}")


class PollMiddleware:
    """First in MIDDLEWARE: answers a poll from the shared cache before any other middleware
    runs (falls through to the whole stack otherwise), with the headers the stack would add."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.security = SecurityMiddleware(get_response)
        self.path: re.Pattern[str] | None = None
        self.fixed_headers: dict[str, str] | None = None
        setting_changed.connect(self._forget_fixed_headers, weak=False)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        game_id = self._poll_of(request)
        if game_id is not None:
            response = from_cache(game_id, request.GET, versions.viewer(request))
            if response is not None:
                presence.touch_from_poll(game_id, request.GET.get("o"))
                return self._as_the_stack_would(request, response)
        return self.get_response(request)

    def _poll_of(self, request: HttpRequest) -> int | None:
        """The game a GET poll asks about, or None when the stack must answer: another URL or
        method, a host not in ALLOWED_HOSTS or a query string Django refuses (the stack answers
        400 as it always did), or an HTTPS redirect that is due (SecurityMiddleware's)."""
        if request.method != "GET":
            return None
        if self.path is None:
            self.path = _poll_path()
        match = self.path.fullmatch(request.path_info)
        if match is None:
            return None
        try:
            request.get_host()
            request.GET  # noqa: B018 - parsed here so a refused one is the stack's to answer
        except SuspiciousOperation:
            return None
        if self.security.process_request(request) is not None:
            return None
        return int(match.group(1))

    def _as_the_stack_would(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """The headers the view's decorator and the middleware it skipped add to its answer."""
        for name, value in self._fixed_headers(request).items():
            response.headers[name] = value
        response.headers["Expires"] = _now_as_http_date()  # @never_cache: already expired
        # firenze_site.language: the cookie's or browser's language (the poll never loads a user)
        response.headers["Content-Language"] = translation.get_language_from_request(request)
        response.headers["Content-Length"] = str(len(response.content))  # CommonMiddleware
        # nosniff, Referrer-Policy, Cross-Origin-Opener-Policy, and HSTS over HTTPS.
        return self.security.process_response(request, response)

    def _fixed_headers(self, request: HttpRequest) -> dict[str, str]:
        """The headers that are the same on every answer, drawn once per process by the code
        that writes them: the view's @never_cache (but its Expires date), the language
        middleware's Vary, X-Frame-Options, and Permissions-Policy and Content-Security-Policy
        (their middleware, on a response without a CSP nonce)."""
        if self.fixed_headers is None:
            blank = HttpResponse()
            before = set(blank.headers)
            PermissionsPolicyMiddleware(CSPMiddleware(lambda _: blank))(request)  # type: ignore[arg-type]
            add_never_cache_headers(blank)
            del blank.headers["Expires"]
            patch_vary_headers(blank, ("Accept-Language", "Cookie"))
            blank.headers["X-Frame-Options"] = settings.X_FRAME_OPTIONS.upper()
            self.fixed_headers = {
                name: value for name, value in blank.headers.items() if name not in before
            }
        return self.fixed_headers

    def _forget_fixed_headers(self, **kwargs: object) -> None:
        self.fixed_headers = None


_date: tuple[int, str] = (0, "")


def _now_as_http_date() -> str:
    """http_date(now), formatted once per second."""
    global _date
    second = int(time.time())
    if _date[0] != second:
        _date = (second, http_date(second))
    return _date[1]
