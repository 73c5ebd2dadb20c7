"""Live streams when things go wrong: a client that leaves without a word, a server told to
stop, a Last-Event-ID the log cannot vouch for, a Redis that restarted."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st

from streams import channels, hub
from streams.asgi import with_streams
from tests.api.test_streams import move, open_stream, run
from tests.api.test_streams_asgi import Connection, scope
from tests.web.helpers import started_game

pytestmark = pytest.mark.django_db
COUNTER = "api-streams:ip:127.0.0.1"  # an anonymous stream's slot, counted per address


async def first_event(path: str, **headers: str) -> dict[str, Any]:
    stream = await open_stream(path, **headers)
    try:
        return await stream.event()
    finally:
        await stream.close()


class LeavingClient:
    """A request to the ASGI app whose client disconnects when told to; what the server
    writes after that goes nowhere, without an error (as under uvicorn)."""

    def __init__(self, path: str) -> None:
        self.sent: asyncio.Queue = asyncio.Queue()
        self.gone = asyncio.Event()
        self.asked = 0
        app = with_streams(lambda *a: None)  # type: ignore[arg-type, return-value]
        self.task = asyncio.ensure_future(app(scope(path), self.receive, self.send))

    async def receive(self) -> dict[str, Any]:
        self.asked += 1
        if self.asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        if not self.gone.is_set():
            await self.sent.put(message)

    async def body_until(self, marker: bytes) -> bytes:
        body = b""
        while marker not in body:
            body += (await asyncio.wait_for(self.sent.get(), 10)).get("body", b"")
        return body


def test_it_frees_a_gone_clients_slot_at_once(streams_on, anna, ben):
    game = started_game(anna, ben)

    async def scenario() -> tuple[Any, int]:
        client = LeavingClient(f"/streams/games/{game.pk}/")
        await client.body_until(b"retry:")
        during = await sync_to_async(cache.get)(COUNTER)
        client.gone.set()
        await asyncio.wait_for(client.task, 10)  # the server ends the stream by itself
        found = await hub.hub()
        return during, found.open_streams()

    assert run(scenario) == (1, 0)
    assert cache.get(COUNTER) == 0


def test_a_stopping_server_tells_its_clients_to_reconnect(streams_on, anna, ben):
    game = started_game(anna, ben)

    async def scenario() -> bytes:
        client = LeavingClient(f"/streams/games/{game.pk}/")
        await client.body_until(b"retry:")
        (await hub.hub()).drain()
        await asyncio.wait_for(client.task, 10)
        body = b""
        while not client.sent.empty():
            body += client.sent.get_nowait().get("body", b"")
        return body

    body = run(scenario)
    assert body.startswith(b"retry: ") and b": restarting" in body
    assert cache.get(COUNTER) == 0


def test_access_is_checked_again_within_a_minute_on_the_production_defaults():
    from firenze_site import settings as production

    with override_settings(
        STREAMS_KEEPALIVE_SECONDS=production.STREAMS_KEEPALIVE_SECONDS,
        STREAMS_RECHECK_SECONDS=production.STREAMS_RECHECK_SECONDS,
    ):
        assert production.STREAMS_RECHECK_SECONDS + hub.tick_seconds() <= 60


def test_a_sigterm_drains_the_hub_and_reaches_the_servers_own_handler(streams_on):
    heard: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda sig, frame: heard.append(sig))

    async def scenario() -> bool:
        found = hub.Hub(streams_on.url)
        hub._say_goodbye_on_exit(found)
        signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)  # type: ignore[operator]
        await asyncio.sleep(0)  # the drain is scheduled on the loop
        await found.redis.aclose()
        return found.draining

    try:
        assert asyncio.run(scenario()) is True
    finally:
        signal.signal(signal.SIGTERM, before)
    assert heard == [signal.SIGTERM]


@pytest.mark.parametrize(
    "last",
    [
        "99999999999999999999-99999999999999999999",
        "18446744073709551616-0",
        "18446744073709551615-18446744073709551615",
        "0-0",
        "garbage",
    ],
)
def test_a_last_event_id_the_log_cannot_vouch_for_gets_a_reset(
    streams_on, anna, ben, last, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)
    move(game, django_capture_on_commit_callbacks)

    async def scenario() -> str:
        return (await first_event(f"/streams/games/{game.pk}/", **{"Last-Event-ID": last}))["event"]

    assert run(scenario) == "reset"


@settings(max_examples=40, deadline=None, database=None)
@given(
    last=st.text(max_size=60)
    | st.from_regex(r"\A[0-9]{1,25}-[0-9]{1,25}\Z")
    | st.builds("{}-{}".format, st.integers(0, 2**65), st.integers(0, 2**65))
    | st.sampled_from(["0-0", "1-0", "5-0", "5-1", "9-0"])
)
def test_any_last_event_id_gets_events_or_a_reset_never_an_error(redis_server, last):
    key = channels.log_key("game:1")
    with redis_server.client() as client:
        client.delete(key)
        for number in (1, 5, 9):
            client.xadd(key, {"k": "move", "d": "{}"}, id=f"{number}-0")

    async def scenario() -> Any:
        found = hub.Hub(redis_server.url)
        try:
            return await found.since("game:1", last)
        finally:
            await found.redis.aclose()

    missed = asyncio.run(scenario())
    pair = channels.event_id(last)
    logged = {(1, 0): ["5-0", "9-0"], (5, 0): ["9-0"], (9, 0): []}  # what follows each id
    expected = logged.get(pair) if pair is not None else None
    if expected is None:  # not an id the log holds: reset
        assert missed is None
    else:
        assert missed is not None and [event[0] for event in missed] == expected


def test_a_last_event_id_redis_has_lost_gets_a_reset(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)

    async def scenario() -> str:
        stream = await open_stream(f"/streams/games/{game.pk}/")
        await sync_to_async(move)(game, django_capture_on_commit_callbacks)
        seen = await stream.event()
        await stream.close()
        with streams_on.client() as client:
            client.flushall()  # Redis restarted without its data
        path = f"/streams/games/{game.pk}/"
        return (await first_event(path, **{"Last-Event-ID": seen["id"]}))["event"]

    assert run(scenario) == "reset"


def test_a_replay_after_redis_dropped_its_connections_still_comes(
    streams_on, anna, ben, django_capture_on_commit_callbacks
):
    game = started_game(anna, ben)

    async def scenario() -> list[str]:
        stream = await open_stream(f"/streams/games/{game.pk}/")
        for _ in range(3):
            await sync_to_async(move)(game, django_capture_on_commit_callbacks)
        ids = [(await stream.event())["id"] for _ in range(3)]
        await stream.close()
        path = f"/streams/games/{game.pk}/"
        kinds = [(await first_event(path, **{"Last-Event-ID": ids[0]}))["event"]]
        redis.Redis.from_url(streams_on.url).client_kill_filter(_type="normal", skipme=True)
        kinds.append((await first_event(path, **{"Last-Event-ID": ids[1]}))["event"])
        return kinds

    assert run(scenario) == ["move", "move"]


def test_it_refuses_a_host_the_site_does_not_serve(streams_on, anna, ben):
    game = started_game(anna, ben)

    async def scenario() -> int:
        connection = Connection(f"/streams/games/{game.pk}/", host="evil.example")
        start = await connection.next()
        await connection.close()
        return start["status"]

    assert run(scenario) == 400
