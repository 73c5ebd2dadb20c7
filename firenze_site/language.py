"""The language a page is written in, without the language in the URL.

In order: the signed-in player's preference (accounts.User.language, set from the browser at
sign-up and changed on the account page or with the footer switcher), else the ``lang`` cookie
the footer switcher sets for visitors, else the browser's Accept-Language, else English.

Like Django's LocaleMiddleware, but URLs stay the same in every language (a link in an email
works whatever the reader's language), and the account wins over the cookie.

Views marked ``skip_user_time_zone`` (the version poll, the health check) never load a session:
they keep the cookie/browser language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import lazy

SUPPORTED = frozenset(code for code, _ in settings.LANGUAGES)


def supported(code: str | None) -> str | None:
    """The site language a code stands for ("de-AT" -> "de"), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_of_request(request: HttpRequest) -> str:
    """The cookie's language, else the browser's (Accept-Language), else English."""
    return translation.get_language_from_request(request, check_path=False)


def language_of_user(user) -> str:
    """The language to write to a player in (pages and emails alike)."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = language_of_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        try:
            response = self.get_response(request)
        finally:
            language = translation.get_language()
            translation.deactivate()
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", language)
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        if getattr(view_func, "skip_user_time_zone", False):
            return None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            preferred = supported(getattr(user, "language", ""))
            if preferred:
                translation.activate(preferred)
                request.LANGUAGE_CODE = preferred
        return None


def _percent(message: str, params: dict) -> str:
    return str(message) % params


_lazy_percent = lazy(_percent, str)


def lazy_percent(message, **params):
    """``gettext_lazy("at most %(n)s") % {...}`` that stays lazy: for module-level messages
    with numbers in them, worded in the language active when they are shown."""
    return _lazy_percent(message, params)
