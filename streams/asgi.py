"""/streams/ served straight from the ASGI server, beside Django's ASGI handler.

Django's handler runs every request in a context of its own with a thread of its own for the
sync middleware (asgiref's ThreadSensitiveContext), and keeps both for as long as the response
streams: some 300 KB per open stream. An idle stream needs none of it. So this app answers
/streams/ itself: it reads the request into a plain HttpRequest (headers, query, cookies),
asks the same code as the views (streams.views: access, limits, the event generator) and
writes the events to the connection; everything else goes to Django. A client that has gone
is noticed at the next write (an event or the keep-alive) and its stream closed then.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any

from asgiref.sync import sync_to_async
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
    request.META = {
        "REMOTE_ADDR": client[0],
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
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
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
        await send({"type": "http.response.body", "body": getattr(response, "content", b"")})
        return
    events: Any = response.events
    try:
        async for chunk in events:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    except OSError:  # the client went away (uvicorn's ClientDisconnected)
        pass
    finally:
        await events.aclose()


def with_streams(django: ASGIApp) -> ASGIApp:
    """The site's ASGI app: /streams/ here, everything else to Django."""

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/streams/"):
            await serve(scope, receive, send)
        else:
            await django(scope, receive, send)

    return app
