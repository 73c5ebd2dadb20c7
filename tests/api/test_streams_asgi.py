"""/streams/ as uvicorn serves it: streams.asgi answers it beside Django's ASGI handler (no
per-request thread), with the views' access rules, and hands everything else to Django."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client

from games import lobby
from streams.asgi import with_streams
from tests.api.test_streams import move, run
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db


def scope(
    path: str, method: str = "GET", cookie: str = "", host: str = "testserver"
) -> dict[str, Any]:
    headers = [(b"host", host.encode())]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return {"type": "http", "method": method, "path": path, "query_string": b"",
            "headers": headers, "client": ("127.0.0.1", 5000)}  # fmt: skip


async def django_stand_in(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 299, "headers": []})
    await send({"type": "http.response.body", "body": b"django"})


class Connection:
    """One request to the ASGI app, its messages collected as they are sent."""

    def __init__(self, path: str, **kw: Any) -> None:
        self.sent: asyncio.Queue = asyncio.Queue()
        app = with_streams(django_stand_in)
        self.task = asyncio.ensure_future(app(scope(path, **kw), self.receive, self.sent.put))

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()  # the client never says more
        return {}

    async def next(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.sent.get(), 10)

    async def body_until(self, marker: bytes) -> bytes:
        body = b""
        while marker not in body:
            body += (await self.next()).get("body", b"")
        return body

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def test_it_streams_a_games_events(streams_on, anna, ben, django_capture_on_commit_callbacks):
    game = started_game(anna, ben)

    async def scenario() -> tuple[int, bytes]:
        connection = Connection(f"/streams/games/{game.pk}/")
        start = await connection.next()
        await connection.body_until(b"retry:")
        await sync_to_async(move)(game, django_capture_on_commit_callbacks)
        body = await connection.body_until(b"event: move\n")
        await connection.close()
        assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
        return start["status"], body

    status, body = run(scenario)
    assert status == 200 and b"id: " in body and b'data: {"game":' in body


def test_it_refuses_what_the_views_refuse_and_hands_the_rest_to_django(streams_on, anna, ben):
    game = lobby.create_game(anna, num_players=2, is_public=False)
    lobby.join(game, ben, token=game.invite_token)
    browser = Client()
    browser.force_login(ben)
    session = f"sessionid={browser.cookies['sessionid'].value}"

    async def answer(path: str, **kw: Any) -> tuple[int, bytes]:
        connection = Connection(path, **kw)
        start = await connection.next()
        body = (await connection.next()).get("body", b"")
        await connection.close()
        return start["status"], body

    async def scenario() -> dict[str, tuple[int, bytes]]:
        return {
            "stranger": await answer(f"/streams/games/{game.pk}/"),
            "seated": await answer(f"/streams/games/{game.pk}/", cookie=session),
            "account": await answer("/streams/account/"),
            "post": await answer("/streams/account/", method="POST"),
            "unknown": await answer("/streams/elsewhere/"),
            "page": await answer("/games/"),
        }

    seen = run(scenario)
    assert seen["stranger"][0] == 404 and b'"not_found"' in seen["stranger"][1]
    assert seen["seated"][0] == 200 and seen["seated"][1].startswith(b"retry:")
    assert seen["account"][0] == 401
    assert seen["post"][0] == 405
    assert seen["unknown"][0] == 404
    assert seen["page"] == (299, b"django")


def test_it_answers_head_as_the_get_without_a_body_or_an_open_stream(streams_on, anna, ben):
    game = started_game(anna, ben)
    browser = Client()
    browser.force_login(ben)
    session = f"sessionid={browser.cookies['sessionid'].value}"

    async def answer(path: str, **kw: Any) -> tuple[int, list, bytes]:
        connection = Connection(path, method="HEAD", **kw)
        start = await connection.next()
        body = await connection.next()
        await connection.close()
        assert not body.get("more_body")
        return start["status"], start["headers"], body.get("body", b"")

    async def scenario() -> dict[str, tuple[int, list, bytes]]:
        return {
            "game": await answer(f"/streams/games/{game.pk}/"),
            "account": await answer("/streams/account/", cookie=session),
            "anonymous": await answer("/streams/account/"),
            "huge": await answer(f"/streams/games/{2**64}/"),
        }

    seen = run(scenario)
    for status, headers, body in (seen["game"], seen["account"]):
        assert status == 200 and body == b""
        assert (b"content-type", b"text/event-stream; charset=utf-8") in headers
    assert seen["anonymous"][0] == 401 and seen["anonymous"][2] == b""
    assert seen["huge"][0] == 404
    # Nothing was subscribed: every stream a client may open is still free.
    assert not cache.get(f"api-streams:user:{ben.pk}")
    # Through Django's own handler (the middleware) the same.
    head = browser.head(f"/streams/games/{game.pk}/")
    assert head.status_code == 200 and head.content == b""
    assert not cache.get(f"api-streams:user:{ben.pk}")
