"""One Redis subscription per server process, shared by every open stream in it.

Each process (uvicorn worker) holds a single pub/sub connection subscribed to every channel's
events by pattern, and hands each message to the in-process queues of the streams open on its
channel. An idle stream is then a suspended coroutine and a small queue: no connection of its
own, no task, no timer. One loop sends the keep-alive tick to every queue, so a proxy does not
close a quiet stream, and ends streams past their lifetime.

Why one pattern subscription rather than a subscription per channel: no subscribe and
unsubscribe churn as streams come and go, and no window in which a new stream is registered but
its channel not yet subscribed. The price is that every process sees every event of the site;
for a turn-based site that is a few per second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import Any

from django.conf import settings

from streams import channels, metrics

log = logging.getLogger(__name__)

END = object()  # the stream must close (Redis lost, queue overflow, lifetime over)
KEEPALIVE = object()
QUEUE_SIZE = 64  # events waiting for one slow client; past that it is dropped (it reconnects)

Event = tuple[str, str, str]  # id, kind, JSON data


def frame(event_id: str, kind: str, data: str) -> bytes:
    """An event as Server-Sent Events write it."""
    return f"id: {event_id}\nevent: {kind}\ndata: {data}\n\n".encode()


class Hub:
    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis

        self.redis = aioredis.Redis.from_url(url, socket_connect_timeout=2)
        self.listeners: dict[str, set[asyncio.Queue]] = {}
        self.ready = asyncio.Event()
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> None:
        """Subscribe (once per process); raises if Redis cannot be reached."""
        if self.tasks:
            await self.ready.wait()
            return
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.tasks = [asyncio.get_running_loop().create_task(self._read(pubsub))]
        try:
            await pubsub.psubscribe(channels.PATTERN)
        except Exception:
            self._stop()
            raise
        self.tasks.append(asyncio.get_running_loop().create_task(self._tick()))
        self.ready.set()

    async def close(self) -> None:
        """Stop listening and close the connection (tests; a server just exits)."""
        tasks = self.tasks
        self._stop()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.redis.aclose()
        _HUBS.pop(asyncio.get_running_loop(), None)

    def _stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.tasks = []
        self.ready = asyncio.Event()
        for queues in self.listeners.values():
            for queue in queues:
                _offer(queue, END)

    async def _read(self, pubsub: Any) -> None:
        try:
            while True:
                if not pubsub.subscribed:
                    await asyncio.sleep(0.01)
                    continue
                message = await pubsub.get_message(timeout=None)
                if message is None or message.get("type") != "pmessage":
                    continue
                self._dispatch(message["channel"], message["data"])
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Redis gone: every stream ends, clients reconnect later
            log.warning("live streams lost Redis: %s", exc)
            self._stop()
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    def _dispatch(self, raw_channel: bytes, raw: bytes) -> None:
        queues = self.listeners.get(channels.channel_of(raw_channel.decode()))
        if not queues:
            return
        event_id, kind, data = raw.decode().split(" ", 2)
        # Parsed and framed once for every stream on the channel.
        item = (channels.event_id(event_id), frame(event_id, kind, data))
        metrics.fanned_out(item[0])
        for queue in list(queues):
            _offer(queue, item)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(settings.STREAMS_KEEPALIVE_SECONDS)
            for queues in self.listeners.values():
                for queue in queues:
                    _offer(queue, KEEPALIVE)

    def listen(self, channel: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        self.listeners.setdefault(channel, set()).add(queue)
        return queue

    def forget(self, channel: str, queue: asyncio.Queue) -> None:
        queues = self.listeners.get(channel)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[channel]

    async def since(self, channel: str, last: str) -> list[Event] | None:
        """The logged events after ``last``, or None when the log no longer reaches back to
        it (the client missed events: it must reload)."""
        key = channels.log_key(channel)
        first: Any = await self.redis.xrange(key, "-", "+", count=1)
        entries: Any = await self.redis.xrange(key, f"({last}", "+")
        oldest = channels.event_id(first[0][0].decode()) if first else None
        asked = channels.event_id(last)
        if oldest is None or asked is None or oldest > asked:
            return None if first else []
        return [
            (entry_id.decode(), fields[b"k"].decode(), fields[b"d"].decode())
            for entry_id, fields in entries
        ]


def _offer(queue: asyncio.Queue, item: object) -> None:
    try:
        queue.put_nowait(item)
    except asyncio.QueueFull:  # a client that does not read: drop it
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(END)


_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


async def hub() -> Hub:
    """This event loop's hub, started."""
    loop = asyncio.get_running_loop()
    found = _HUBS.get(loop)
    if found is None:
        found = _HUBS[loop] = Hub(settings.STREAMS_REDIS_URL)
    await found.start()
    return found


def lifetime_over(started: float) -> bool:
    return time.monotonic() - started > settings.STREAMS_MAX_SECONDS
