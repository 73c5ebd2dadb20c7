"""The API's errors: JSON with a stable ``code`` (for programs) and a ``message`` (for people,
in the caller's language), and the HTTP status that goes with them.

The games, lobby and table talk raise GameError subclasses with the message the pages show;
here each becomes a code by its class, so a program can tell a stale version ("stale") from an
out-of-turn move ("conflict") without reading the words.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from chat.services import ChatError, NoSuchMessage
from chat.services import RateLimited as ChatRateLimited
from games import play
from games.errors import Conflict, GameError, NotAllowed, NotInGame, RequestRefused
from games.limits import TooManyRequests
from plans.service import NoSuchPlan

# Every code the API answers with (docs/api.md lists them): the contract with clients.
CODES = {
    "invalid": "the request could not be read (a field's type or range, the JSON body)",
    "unauthenticated": "no token, or not a valid one (revoked, mistyped, its account closed)",
    "scope": "the token may only read",
    "bot_account": "a bot account cannot do that (it plays through the API only)",
    "forbidden": "the account may not do that in this game",
    "not_in_game": "the account has no seat in this game",
    "not_found": "no such game, player or message (or not one the caller may see)",
    "refused": "the move or request breaks a rule; the message says which",
    "conflict": "the game is not in a state that allows it (not your turn, over, not started)",
    "stale": "the version sent is not the game's current one",
    "not_over": "a game in progress has no export",
    "rate_limited": "too many requests; Retry-After says when to try again",
    "limits_unavailable": "the rate limits cannot be counted just now (try again shortly)",
    "streams_unavailable": "live events cannot be served just now (poll, or try again later)",
}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        assert code in CODES, code
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


def game_error_code(exc: GameError) -> str:
    """The stable code of a refusal raised by the games, lobby or table talk."""
    if isinstance(exc, Conflict) and exc.message == str(play.STALE):
        return "stale"
    for kind, code in (
        (TooManyRequests, "rate_limited"),
        (ChatRateLimited, "rate_limited"),
        (NoSuchMessage, "not_found"),
        (NoSuchPlan, "not_found"),
        (NotInGame, "not_in_game"),
        (NotAllowed, "forbidden"),
        (Conflict, "conflict"),
        (RequestRefused, "refused"),
        (ChatError, "refused"),
    ):
        if isinstance(exc, kind):
            return code
    return "refused"


def stale_message() -> str:
    """The stale refusal in a client's words: the pages' version speaks of the board they
    redraw, a program has to fetch the game again."""
    return _(
        "The game has moved on since the version you sent; fetch the game and send its "
        "current version."
    )


def body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def install(api: NinjaAPI) -> None:
    """Answer every expected error as JSON with its code."""

    def respond(request: HttpRequest, status: int, data: dict[str, Any]) -> HttpResponse:
        return api.create_response(request, data, status=status)

    def api_error(request: HttpRequest, exc: Any) -> HttpResponse:
        response = respond(request, exc.status, body(exc.code, exc.message))
        if exc.retry_after is not None:
            response["Retry-After"] = str(exc.retry_after)
        return response

    def game_error(request: HttpRequest, exc: Any) -> HttpResponse:
        code = game_error_code(exc)
        message = stale_message() if code == "stale" else exc.message
        response = respond(request, exc.status, body(code, message))
        if code == "rate_limited":
            response["Retry-After"] = "60"
        return response

    def not_found(request: HttpRequest, exc: Any) -> HttpResponse:
        return respond(request, 404, body("not_found", str(exc) or _("Not found.")))

    def unauthenticated(request: HttpRequest, exc: Any) -> HttpResponse:
        message = _("Send a valid API token: Authorization: Bearer <token>.")
        response = respond(request, 401, body("unauthenticated", message))
        response["WWW-Authenticate"] = "Bearer"
        return response

    def invalid(request: HttpRequest, exc: Any) -> HttpResponse:
        details = [
            {"where": ".".join(str(part) for part in error.get("loc", ())), "why": error["msg"]}
            for error in exc.errors
        ]
        where = ", ".join(d["where"] for d in details) or "?"
        message = _("The request could not be read (%(where)s).") % {"where": where}
        return respond(request, 400, body("invalid", message, errors=details))

    def http_error(request: HttpRequest, exc: Any) -> HttpResponse:
        code = {401: "unauthenticated", 404: "not_found", 429: "rate_limited"}.get(
            exc.status_code, "invalid"
        )
        message = _("The request could not be read: %(why)s") % {"why": str(exc)}
        return respond(request, exc.status_code, body(code, message))

    api.add_exception_handler(ApiError, api_error)
    api.add_exception_handler(GameError, game_error)
    api.add_exception_handler(Http404, not_found)
    api.add_exception_handler(AuthenticationError, unauthenticated)
    api.add_exception_handler(ValidationError, invalid)
    api.add_exception_handler(HttpError, http_error)
