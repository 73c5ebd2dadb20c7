"""The live event streams (Server-Sent Events): one per game, one per account.

Async views: under an ASGI server (uvicorn) an open stream is a suspended coroutine, not a
worker (streams.hub). Each stream checks access as the page does (a game's: public, or its
seats, invitees, invite-link or page-token holders; an account's: a token, or the signed-in
session), counts itself against the account's open streams (api.limits, failing closed), then
sends what the channel's log holds after Last-Event-ID, and every new event as it comes.

Without Redis (STREAMS_REDIS_URL unset) the streams answer 204, which tells an EventSource not
to reconnect: pages keep polling.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import import_module
from typing import Any

from allauth.account.adapter import get_adapter
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from api import limits, tokens
from api.errors import ApiError, body
from games import versions
from games.access import may_see_private
from games.models import Game
from streams import channels, hub, publish

log = logging.getLogger(__name__)
RETRY_MS = 3000


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(body(code, message), status=status)


def _bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _space, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


async def _caller(request: HttpRequest) -> tuple[Any, Any]:
    """(user or None, token or None): a bearer token if one is sent, else the session."""
    raw = _bearer(request)
    if raw is not None:
        token = await sync_to_async(tokens.find)(raw)
        if token is None:
            raise ApiError(401, "unauthenticated", _("Send a valid API token."))
        return token.user, token
    return await sync_to_async(_session_user)(request), None


def _session_user(request: HttpRequest) -> Any:
    """The signed-in user of the request's session cookie, or None (the page's own stream;
    streams.asgi serves requests that went through no middleware, so it is read here)."""
    from django.contrib.auth import get_user

    if not hasattr(request, "session"):
        engine = import_module(settings.SESSION_ENGINE)
        request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    user = get_user(request)
    return user if user.is_authenticated else None


def _may_watch(request: HttpRequest, user: Any, pk: int) -> bool:
    game = Game.objects.defer("state").filter(pk=pk).first()
    if game is None:
        return False
    if game.is_public or versions.valid_poll_token(
        pk, versions.viewer(request), request.GET.get("p")
    ):
        return True
    request.user = user if user is not None else AnonymousUser()  # what the page's check reads
    return may_see_private(request, game)


def _token_still_valid(token: Any) -> Callable[[], Awaitable[bool]] | None:
    if token is None:
        return None

    async def check() -> bool:
        return await sync_to_async(tokens.find_by_id)(token.pk) is not None

    return check


class EventStream(StreamingHttpResponse):
    """A stream whose server closes the events generator itself (aclosing(aiter(response)) in
    Django's ASGI handler), so a stream's counter is freed the moment its client goes."""

    def __init__(self, events: AsyncIterator[bytes]) -> None:
        super().__init__(events, content_type="text/event-stream; charset=utf-8")
        self.events = events

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.events


def _head_of_stream() -> HttpResponse:
    response = HttpResponse(content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-store"
    return response


def _stream(
    request: HttpRequest,
    events: hub.Hub,
    channel: str,
    counter: str,
    check: Callable[[], Awaitable[bool]] | None,
) -> StreamingHttpResponse:
    last = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or ""
    queue = events.listen(channel)  # before the log is read: nothing falls in between
    response = EventStream(
        _events(events, queue, channel, last if channels.event_id(last) else "", counter, check)
    )
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _events(
    events: hub.Hub,
    queue: Any,
    channel: str,
    last: str,
    counter: str,
    check: Callable[[], Awaitable[bool]] | None,
) -> AsyncIterator[bytes]:
    started = time.monotonic()
    try:
        yield f"retry: {RETRY_MS}\n: {channel}\n\n".encode()
        seen = channels.event_id(last)
        if seen is not None:
            missed = await events.since(channel, last)
            if missed is None:  # the log has moved past it: the client must reload
                yield b"event: reset\ndata: {}\n\n"
            for event_id, kind, data in missed or []:
                seen = channels.event_id(event_id)
                yield hub.frame(event_id, kind, data)
        while True:
            item = await queue.get()
            if item is hub.END:
                return
            if item is hub.KEEPALIVE:
                if hub.lifetime_over(started):
                    return
                yield b": keepalive\n\n"
                continue
            number, framed = item
            if seen is not None and number is not None and number <= seen:
                continue
            if check is not None and not await check():
                return
            seen = number
            yield framed
    finally:
        events.forget(channel, queue)
        await sync_to_async(limits.close_stream)(counter)


async def _open(request: HttpRequest, user: Any, channel: str, check: Any) -> HttpResponseBase:
    if getattr(request, "head_only", False):  # HEAD: the stream's headers, nothing subscribed
        return _head_of_stream()
    who = f"user:{user.pk}" if user is not None else f"ip:{get_adapter().get_client_ip(request)}"
    counter = await sync_to_async(limits.open_stream)(who)
    try:
        events = await hub.hub()
    except Exception as exc:  # Redis unreachable: the page keeps polling
        await sync_to_async(limits.close_stream)(counter)
        log.warning("stream refused, Redis unreachable: %s", exc)
        return _refusal(503, "streams_unavailable", _("Live updates are unavailable just now."))
    return _stream(request, events, channel, counter, check)


@require_GET
async def game_stream(request: HttpRequest, pk: int) -> HttpResponseBase:
    return await game_events(request, pk)


@require_GET
async def account_stream(request: HttpRequest) -> HttpResponseBase:
    return await account_events(request)


async def game_events(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A game's events: moves, undos, table talk, start and end."""
    if not publish.enabled():
        return HttpResponse(status=204)
    try:
        user, token = await _caller(request)
        if not await sync_to_async(_may_watch)(request, user, pk):
            return _refusal(404, "not_found", _("No such game."))
        return await _open(request, user, channels.game(pk), _token_still_valid(token))
    except ApiError as exc:
        return _refusal(exc.status, exc.code, exc.message)


async def account_events(request: HttpRequest) -> HttpResponseBase:
    """The account's events: your turn, invitations, and the moves, table talk, start and end
    of the games it sits in."""
    if not publish.enabled():
        return HttpResponse(status=204)
    try:
        user, token = await _caller(request)
        if user is None:
            raise ApiError(401, "unauthenticated", _("Sign in, or send an API token."))
        return await _open(request, user, channels.account(user.pk), _token_still_valid(token))
    except ApiError as exc:
        return _refusal(exc.status, exc.code, exc.message)
