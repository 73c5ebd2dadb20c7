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
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from importlib import import_module
from typing import Any

from allauth.account.adapter import get_adapter
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from redis.exceptions import RedisError

from api import limits, tokens
from api.errors import ApiError, body
from games import presence
from games.access import may_see_private
from games.models import Game
from streams import channels, hub, metrics, publish

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
    """The game page's rule: public, or its seats, invitees and holders of a live invite link
    (sent as ``token``). A page token (``p``) is not enough: it outlives the link it came
    with, and a stream is checked again as long as it is open (streams.hub)."""
    game = Game.objects.defer("state").filter(pk=pk).first()
    if game is None:
        return False
    if game.is_public:
        return True
    request.user = user if user is not None else AnonymousUser()  # what the page's check reads
    return may_see_private(request, game)


def _tags(request: HttpRequest, token: Any, pk: int | None) -> list[str]:
    """The access notices that concern a stream (streams.publish.access_changed)."""
    tags = [channels.access_tag("game", pk)] if pk is not None else []
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if token is not None:
        tags.append(channels.access_tag("token", token.pk))
    elif session:
        tags.append(channels.session_tag(session))
    return tags


def _still_allowed(
    request: HttpRequest, user: Any, token: Any, pk: int | None
) -> Callable[[], Awaitable[bool]]:
    """Whether the stream's caller may still watch it: the token still active, the session
    still signed in to the same account, the game still open to them."""

    public_for_good = False  # a visitor without token or account on a public game

    def check() -> bool:
        nonlocal public_for_good
        if public_for_good:
            return True
        if user is None and token is None and pk is not None:
            public_for_good = Game.objects.filter(pk=pk, is_public=True).exists()
            if public_for_good:  # nothing about such a visitor can change: no more queries
                return True
        current = user
        if token is not None:
            found = tokens.find_by_id(token.pk)
            current = found.user if found is not None else None
        elif user is not None:
            vars(request).pop("session", None)  # read the session again, not the copy of before
            current = _session_user(request)
        if user is not None and (current is None or current.pk != user.pk):
            return False
        return pk is None or _may_watch(request, current, pk)

    async def allowed() -> bool:
        try:
            return await sync_to_async(check)()
        except DatabaseError as exc:  # cannot tell: the client reconnects and is asked again
            log.warning("stream access not checked: %s", exc)
            return False

    return allowed


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


class _Watch:
    """One open stream's subscription: its channel, its access notices, its check."""

    def __init__(
        self,
        events: hub.Hub,
        channel: str,
        tags: list[str],
        counter: str,
        allowed: Callable[[], Awaitable[bool]],
        present: Callable[[], None] | None = None,
    ) -> None:
        self.events, self.channel, self.tags = events, channel, tags
        self.counter, self.allowed = counter, allowed
        self.present = present  # a signed-in player's game stream: the game is open (presence)
        self.queue = events.listen(channel, tags)  # before the log is read: nothing falls between


def _stream(request: HttpRequest, watch: _Watch) -> StreamingHttpResponse:
    last = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id") or ""
    response = EventStream(_events(watch, last))
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _goodbye() -> bytes:
    """Reconnect soon, spread over a few seconds so a restart's clients do not come at once."""
    return f"retry: {random.randint(RETRY_MS, 3 * RETRY_MS)}\n: restarting\n\n".encode()


async def _replay(watch: _Watch, last: str) -> tuple[list[bytes], Any]:
    """What the client missed after Last-Event-ID ``last`` (a reset if that cannot be proved
    complete), and the id of the last of it."""
    missed = await watch.events.since(watch.channel, last)
    if missed is None:  # not provably continuous: the client must reload
        return [b"event: reset\ndata: {}\n\n"], None
    frames = [hub.frame(event_id, kind, data) for event_id, kind, data in missed]
    return frames, channels.event_id(missed[-1][0]) if missed else None


async def _events(watch: _Watch, last: str) -> AsyncIterator[bytes]:
    started = checked = written = present = time.monotonic()
    metrics.OPEN.inc()
    try:
        if watch.present is not None:
            await sync_to_async(watch.present)()
        yield f"retry: {RETRY_MS}\n: {watch.channel}\n\n".encode()
        frames, seen = await _replay(watch, last) if last else ([], None)
        for framed in frames:
            yield framed
        while True:
            item = await watch.queue.get()
            now = time.monotonic()
            if item is hub.END or (item is hub.TICK and hub.lifetime_over(started)):
                return
            if item is hub.GOODBYE:
                yield _goodbye()
                return
            recheck_due = item is hub.TICK and now - checked >= settings.STREAMS_RECHECK_SECONDS
            if item is hub.RECHECK or recheck_due:
                checked = now
                if not await watch.allowed():
                    return
            if watch.present is not None and now - present >= presence.WRITE_EVERY:
                present = now
                await sync_to_async(watch.present)()
            if item is hub.TICK and now - written >= settings.STREAMS_KEEPALIVE_SECONDS:
                written = now
                yield b": keepalive\n\n"
            if isinstance(item, tuple) and (seen is None or item[0] is None or item[0] > seen):
                seen, written = item[0], now
                yield item[1]
    except RedisError as exc:  # the replay failed even on a fresh connection: reconnect later
        log.warning("stream replay failed: %s", exc)
    finally:
        metrics.OPEN.dec()
        watch.events.forget(watch.channel, watch.queue, watch.tags)
        await sync_to_async(limits.close_stream)(watch.counter)


async def _open(
    request: HttpRequest, user: Any, token: Any, channel: str, pk: int | None = None
) -> HttpResponseBase:
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
    tags = _tags(request, token, pk)
    present = None
    if pk is not None and user is not None:
        present = partial(presence.touch, pk, user.pk)
    allowed = _still_allowed(request, user, token, pk)
    return _stream(request, _Watch(events, channel, tags, counter, allowed, present))


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
        return await _open(request, user, token, channels.game(pk), pk)
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
        return await _open(request, user, token, channels.account(user.pk))
    except ApiError as exc:
        return _refusal(exc.status, exc.code, exc.message)
