"""Who is calling: a personal token in ``Authorization: Bearer …``, or nobody.

The API never reads the session cookie: a program acts only with a token, and a page open in a
browser cannot be made to act through the API (no CSRF to guard). Endpoints that the pages show
to visitors (public games, profiles, the lobby) also answer without a token; a token that is
sent must be valid, or the request is refused, never served as a visitor's.

Once the caller is known, the messages are written in their language: the request's
Accept-Language if it names one the site speaks, else the account's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from api import limits, tokens
from api.errors import ApiError
from api.models import ApiToken
from firenze_site.language import language_of_user, supported


def _speak_to(request: HttpRequest, user: Any) -> None:
    header = request.headers.get("Accept-Language", "")
    asked = translation.get_language_from_request(request, check_path=False) if header else ""
    language = (supported(asked) if asked else None) or language_of_user(user)
    translation.activate(language)
    request.LANGUAGE_CODE = language


class TokenAuth(HttpBearer):
    """A valid token: the request acts as its account (request.user, request.api_token)."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = tokens.find(token.strip())
        if found is None:
            return None
        request.user = found.user
        request.api_token = found  # type: ignore[attr-defined]
        _speak_to(request, found.user)
        limits.consume("request", found.pk)
        tokens.touch(found)
        return found


def anonymous(request: HttpRequest) -> AnonymousUser | None:
    """No Authorization header at all: a visitor (whatever cookies came along)."""
    if "authorization" in request.headers:
        return None
    request.user = AnonymousUser()
    request.api_token = None  # type: ignore[attr-defined]
    _speak_to(request, None)
    limits.consume_anonymous(request)  # per address; fails closed as a token's limit does
    return request.user


token_auth = TokenAuth()
TOKEN: list[Callable[..., Any]] = [token_auth]
TOKEN_OR_VISITOR: list[Callable[..., Any]] = [token_auth, anonymous]


def token_of(request: HttpRequest) -> ApiToken | None:
    return getattr(request, "api_token", None)


def need_play(request: HttpRequest) -> ApiToken:
    """The caller's token, which must have play access."""
    token = token_of(request)
    if token is None:
        raise ApiError(401, "unauthenticated", _("Send a valid API token."))
    if not token.may_play:
        raise ApiError(
            403,
            "scope",
            _("This token may only read. Make a token with play access on your account page."),
        )
    return token
