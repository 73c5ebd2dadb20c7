"""/streams/ served straight from the ASGI server, beside Django's ASGI handler.

Django's handler runs every request in a context of its own with a thread of its own for the
sync middleware (asgiref's ThreadSensitiveContext), and keeps both for as long as the response
streams: some 300 KB per open stream. An idle stream needs none of it. So this app answers
/streams/ itself: it reads the request into a plain HttpRequest (headers, query, cookies),
asks the same code as the views (streams.views: access, limits, the event generator) and
writes the events to the connection; everything else goes to Django.

A client that has gone is noticed by the server's ``http.disconnect`` message, read by a task
beside the one writing: a write to a closed connection fails silently under uvicorn, so the
writes alone would keep a gone client's stream (its slot, its coroutine) for its lifetime.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any

from asgiref.sync import sync_to_async
from django.core.exceptions import DisallowedHost
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse, QueryDict
from django.http.response import HttpResponseBase
from django.utils import translation

from streams import views

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
GAME = re.compile(r"\A/streams/games/([0-9]{1,18})/\Z")
ACCOUNT = "/streams/account/"


def _request(scope: Scope) -> HttpRequest:
    request = HttpRequest()
    request.method = scope["method"]
    request.path = request.path_info = scope["path"]
    client = scope.get("client") or ("", 0)
    server = scope.get("server") or ("", 0)
    request.META = {
        "REMOTE_ADDR": client[0],
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1]),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        request.META[f"HTTP_{name}"] = raw_value.decode("latin-1")
    request.GET = QueryDict(request.META["QUERY_STRING"])
    cookies: SimpleCookie = SimpleCookie()
    with contextlib.suppress(Exception):
        cookies.load(request.META.get("HTTP_COOKIE", ""))
    request.COOKIES = {name: morsel.value for name, morsel in cookies.items()}
    return request


async def _answer(request: HttpRequest) -> HttpResponseBase:
    try:
        request.get_host()  # ALLOWED_HOSTS, as Django's handler checks it
    except DisallowedHost:
        return views._refusal(400, "bad_request", "Unknown host.")
    if request.method == "HEAD":  # as the GET, without its body (firenze_site.request_guards)
        request.method = "GET"
        request.head_only = True  # type: ignore[attr-defined]
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    match = GAME.match(request.path)
    if match:
        return await views.game_events(request, int(match.group(1)))
    if request.path == ACCOUNT:
        return await views.account_events(request)
    return views._refusal(404, "not_found", "No such stream.")


async def serve(scope: Scope, receive: Any, send: Any) -> None:
    await sync_to_async(close_old_connections)()  # what Django does as each request starts
    request = _request(scope)
    with translation.override(translation.get_language_from_request(request)):
        response = await _answer(request)
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1"))  # ASGI: lower-case names
        for name, value in response.items()
    ]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    if not isinstance(response, views.EventStream):
        body = b"" if getattr(request, "head_only", False) else getattr(response, "content", b"")
        await send({"type": "http.response.body", "body": body})
        return
    events: Any = response.events
    writer = asyncio.ensure_future(_write(events, send))
    watcher = asyncio.ensure_future(_gone(receive))
    try:
        await asyncio.wait([writer, watcher], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (writer, watcher):
            task.cancel()
        await asyncio.gather(writer, watcher, return_exceptions=True)
        await events.aclose()


async def _write(events: Any, send: Any) -> None:
    try:
        async for chunk in events:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    except OSError:  # the client went away (uvicorn's ClientDisconnected)
        pass


async def _gone(receive: Any) -> None:
    """Returns when the client has disconnected (a request body, if any, is read and dropped)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def with_streams(django: ASGIApp) -> ASGIApp:
    """The site's ASGI app: /streams/ here, everything else to Django."""

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/streams/"):
            await serve(scope, receive, send)
        else:
            await django(scope, receive, send)

    return app
