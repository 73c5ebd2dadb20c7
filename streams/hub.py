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

The same loop's clock (TICK, a few times per keep-alive interval) lets each stream send its
keep-alive, end past its lifetime and check its caller's access again on its own schedule, so
the checks of a thousand streams spread out instead of landing together. Notices on the
"access" channel (a sign-out, a seat taken, a link used) ask the streams they name to check at
once. On SIGTERM (or SIGINT) the hub says goodbye to every stream, which tells its client to
reconnect and ends, so the server can stop without waiting for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
import weakref
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from streams import channels, metrics

log = logging.getLogger(__name__)

END = object()  # the stream must close (Redis lost, queue overflow, lifetime over)
TICK = object()  # the hub's clock: keep-alive, lifetime, access re-check due
RECHECK = object()  # something changed who may watch: check now
GOODBYE = object()  # the server is shutting down: tell the client to reconnect, and end
TICKS_PER_INTERVAL = 2
QUEUE_SIZE = 64  # events waiting for one slow client; past that it is dropped (it reconnects)

Event = tuple[str, str, str]  # id, kind, JSON data


def frame(event_id: str, kind: str, data: str) -> bytes:
    """An event as Server-Sent Events write it."""
    return f"id: {event_id}\nevent: {kind}\ndata: {data}\n\n".encode()


class Hub:
    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
        from redis.exceptions import ConnectionError, TimeoutError

        # A pooled connection Redis has dropped (a restart) fails once; a fresh one is tried.
        self.redis = aioredis.Redis.from_url(
            url,
            socket_connect_timeout=2,
            retry=Retry(NoBackoff(), 1),
            retry_on_error=[ConnectionError, TimeoutError],
        )
        self.listeners: dict[str, set[asyncio.Queue]] = {}
        self.watchers: dict[str, set[asyncio.Queue]] = {}  # access tag: its streams' queues
        self.draining = False
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
        _say_goodbye_on_exit(self)
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
        channel = channels.channel_of(raw_channel.decode())
        if channel == channels.ACCESS:
            for tag in raw.decode().split():
                item = END if tag.startswith(channels.END_MARK) else RECHECK
                for queue in list(self.watchers.get(tag.removeprefix(channels.END_MARK), ())):
                    _offer(queue, item)
            return
        queues = self.listeners.get(channel)
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
            await asyncio.sleep(tick_seconds())
            for queues in self.listeners.values():
                for queue in queues:
                    _offer(queue, TICK)

    def listen(self, channel: str, tags: Iterable[str] = ()) -> asyncio.Queue:
        """A queue of the channel's events, and of access notices naming one of ``tags``."""
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        self.listeners.setdefault(channel, set()).add(queue)
        for tag in tags:
            self.watchers.setdefault(tag, set()).add(queue)
        if self.draining:
            _offer(queue, GOODBYE)
        return queue

    def forget(self, channel: str, queue: asyncio.Queue, tags: Iterable[str] = ()) -> None:
        for index, key in [(self.listeners, channel)] + [(self.watchers, tag) for tag in tags]:
            queues = index.get(key)
            if queues is not None:
                queues.discard(queue)
                if not queues:
                    del index[key]

    def open_streams(self) -> int:
        return sum(len(queues) for queues in self.listeners.values())

    def drain(self) -> None:
        """The server is stopping: every stream tells its client to reconnect, and ends."""
        self.draining = True
        for queues in self.listeners.values():
            for queue in queues:
                _offer(queue, GOODBYE)

    async def since(self, channel: str, last: str) -> list[Event] | None:
        """The logged events after ``last``; None unless the log still holds ``last`` itself,
        the one proof that nothing between it and the log's events is missing (after a trim,
        an expiry, Redis losing its data, or an id that was never ours, the client must
        reload)."""
        asked = channels.event_id(last)
        if asked is None:
            return None
        key = channels.log_key(channel)
        entries: Any = await self.redis.xrange(key, f"{asked[0]}-{asked[1]}", "+")
        if not entries or channels.event_id(entries[0][0].decode()) != asked:
            return None
        return [
            (entry_id.decode(), fields[b"k"].decode(), fields[b"d"].decode())
            for entry_id, fields in entries[1:]
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


def tick_seconds() -> float:
    """Often enough that each keep-alive and re-check comes at most a tick after it is due."""
    due = min(settings.STREAMS_KEEPALIVE_SECONDS, settings.STREAMS_RECHECK_SECONDS)
    return max(due / TICKS_PER_INTERVAL, 0.01)


def _say_goodbye_on_exit(found: Hub) -> None:
    """Chain the server's SIGTERM and SIGINT handlers (uvicorn's) with the hub's drain, so open
    streams end at once instead of holding the shutdown up for their lifetime. Only a server
    that handles the signal in this process's main thread is chained."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(number)
        if not callable(previous) or getattr(previous, "drains", None) is not None:
            continue

        def handler(sig: int, frame: Any, previous: Any = previous) -> None:
            loop.call_soon_threadsafe(found.drain)
            previous(sig, frame)

        handler.drains = found  # type: ignore[attr-defined]
        signal.signal(number, handler)
