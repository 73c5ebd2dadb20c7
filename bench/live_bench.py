"""Live updates and the API, on the production stack (bench/live_stack.py: gunicorn for pages
and the API, uvicorn for /streams/, Redis; PostgreSQL when BENCH_POSTGRES_URL is set, else
SQLite), side by side in one run:

1. a move's event on another client's game stream, from the move's commit (the "at" the server
   stamps on each event when the move commits) to its arrival, against today's 5-second poll
   watching the same moves (goal: p95 <= 300 ms);
2. 2,000 idle streams held by one uvicorn process: memory per stream, CPU while idle (keep-alive
   every 45 s included), and one move fanned out to all of them (goals: no CPU while idle,
   <= 50 KB each);
3. an API move against the page's move POST (htmx, as the page sends it), alternating on two
   games dealt alike (goal: API <= 1.2x the page);
4. 1,000 open streams of every kind (a token's, a signed-in browser's, an anonymous visitor's)
   on one game, and moves fanned out to all of them (goal: p95 <= 300 ms from the commit);
5. clients that vanish without a word: their slots freed (goal: all, within one keep-alive
   interval);
6. SIGTERM with streams open: the time until uvicorn has exited, and how many clients were told
   to reconnect (goal: <= 5 s, all).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.live_stack import LiveStack, more_files  # noqa: E402

LATENCY_MOVES = 40
POLL_SECONDS = 5.0
IDLE_STREAMS = 2000
IDLE_SECONDS = 60.0
COMPARED_MOVES = 60
FANOUT_STREAMS = 1000
FANOUT_MOVES = 5
GONE_CLIENTS = 200
SHUTDOWN_STREAMS = 500
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http(
    method: str, url: str, body: bytes | None = None, **headers: str
) -> tuple[int, bytes, Any]:
    request = urllib.request.Request(url, body, headers, method=method)
    try:
        with OPENER.open(request, timeout=30) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Players:
    """Both players of the benchmark's games: their tokens, sessions and CSRF cookies."""

    def __init__(self, stack: LiveStack, data: dict[str, Any]) -> None:
        self.stack = stack
        self.players = data["players"]
        self.csrf: dict[str, str] = {}

    def api(self, uid: str, method: str, path: str, data: Any = None) -> tuple[int, Any]:
        body = json.dumps(data).encode() if data is not None else None
        status, content, _ = http(
            method, f"{self.stack.web}/api/v1{path}", body,
            Authorization=f"Bearer {self.players[uid]['token']}",
            **{"Content-Type": "application/json"},
        )  # fmt: skip
        return status, json.loads(content or b"null")

    def acting(self, game: int) -> tuple[str, dict[str, Any]]:
        """(the acting player's id, their listed actions) for a game."""
        for uid in self.players:
            status, listed = self.api(uid, "GET", f"/games/{game}/actions")
            if status == 200 and listed["my_turn"]:
                return uid, listed
        raise RuntimeError(f"nobody's turn in game {game}")

    def cookie(self, uid: str, game: int) -> str:
        session = self.players[uid]["session"]
        if uid not in self.csrf:
            _, _, headers = http(
                "GET", f"{self.stack.web}/games/{game}/", Cookie=f"sessionid={session}"
            )
            for header in headers.get_all("Set-Cookie") or []:
                match = re.match(r"csrftoken=([^;]+)", header)
                if match:
                    self.csrf[uid] = match.group(1)
        return f"sessionid={session}; csrftoken={self.csrf[uid]}"

    def page_move(self, uid: str, game: int, action: dict, version: int) -> int:
        body = urllib.parse.urlencode({"action": json.dumps(action), "version": version}).encode()
        status, _, _ = http(
            "POST", f"{self.stack.web}/games/{game}/move/", body, Cookie=self.cookie(uid, game),
            **{"X-CSRFToken": self.csrf[uid], "HX-Request": "true",
               "Content-Type": "application/x-www-form-urlencoded"},
        )  # fmt: skip
        return status


def read_stream(
    url: str, events: list[tuple[float, dict]], ready: threading.Event, stop: threading.Event
) -> None:
    """Read a game's stream in a thread: each event's arrival time and data."""
    with OPENER.open(
        urllib.request.Request(url, headers={"Accept": "text/event-stream"}), timeout=120
    ) as stream:
        ready.set()
        fields: dict[str, str] = {}
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
            elif "event" in fields:
                events.append((time.time(), json.loads(fields["data"])))
                fields = {}
            else:
                fields = {}
            if stop.is_set():
                return


def latency(stack: LiveStack, players: Players, game: int) -> list[str]:
    events: list[tuple[float, dict]] = []
    polled: list[tuple[float, int]] = []  # (when the poll saw a change, version it saw)
    ready, stop = threading.Event(), threading.Event()
    reader = threading.Thread(
        target=read_stream,
        args=(f"{stack.streams}/streams/games/{game}/", events, ready, stop),
        daemon=True,
    )
    reader.start()
    ready.wait(30)

    def poll() -> None:
        seen = None
        while not stop.is_set():
            status, content, _ = http("GET", f"{stack.web}/games/{game}/version/?v={seen or 0}&c=0")
            if status == 200:
                version = json.loads(content)["version"]
                if seen is not None and version != seen:
                    polled.append((time.time(), version))
                seen = version
            stop.wait(POLL_SECONDS)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    rng = random.Random(5)
    for _ in range(LATENCY_MOVES):
        uid, listed = players.acting(game)
        assert players.page_move(uid, game, listed["actions"][0], listed["version"]) == 200
        time.sleep(rng.uniform(0.3, 1.5))
    time.sleep(POLL_SECONDS + 1)
    stop.set()
    moves = [(arrived, data) for arrived, data in events if data.get("game") == game]
    stream_ms = [1000 * (arrived - data["at"]) for arrived, data in moves]
    committed = {data["version"]: data["at"] for _, data in moves}
    poll_ms = []
    for version, at in committed.items():
        seen = next((when for when, polled_version in polled if polled_version >= version), None)
        if seen is not None:
            poll_ms.append(1000 * (seen - at))
    return [
        f"live: a move's event on another client's game stream, from its commit: "
        f"p50 {statistics.median(stream_ms):.0f} ms, p95 {pct(stream_ms, 0.95):.0f} ms "
        f"(goal p95 <= 300 ms; {len(stream_ms)} moves posted as the page does)",
        "live: the same moves seen by today's 5-second poll: "
        f"p50 {statistics.median(poll_ms):.0f} ms, "
        f"p95 {pct(poll_ms, 0.95):.0f} ms ({len(poll_ms)} moves; "
        f"stream p95 / poll p95 = {pct(stream_ms, 0.95) / pct(poll_ms, 0.95):.3f})",
    ]


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _open(
    host: str, port: int, path: str, header: str = ""
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{header}\r\n".encode()
    )
    await writer.drain()
    buffer = b""
    while b"retry:" not in buffer:
        buffer += await reader.read(4096)
    return reader, writer


async def idle_streams(stack: LiveStack, players: Players, game: int) -> list[str]:
    host, port = stack.streams.removeprefix("http://").split(":")
    pid = stack.procs["uvicorn"].pid
    path = f"/streams/games/{game}/"
    warm = [await _open(host, int(port), path) for _ in range(20)]
    await asyncio.sleep(2)
    before = rss_kb(pid)
    streams = []
    for _batch in range(0, IDLE_STREAMS, 200):
        streams += await asyncio.gather(*[_open(host, int(port), path) for _ in range(200)])
    await asyncio.sleep(3)
    after = rss_kb(pid)
    per_stream = (after - before) / IDLE_STREAMS
    keepalives = [0]

    async def drain(reader: asyncio.StreamReader) -> None:
        while True:
            chunk = await reader.read(4096)
            if not chunk:
                return
            keepalives[0] += chunk.count(b": keepalive")

    drains = [asyncio.ensure_future(drain(reader)) for reader, _ in streams]
    await asyncio.sleep(2)  # what came while they were being opened is read first
    keepalives[0] = 0
    cpu_before, started = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(IDLE_SECONDS)
    idle_cpu = cpu_seconds(pid) - cpu_before
    window = time.monotonic() - started
    for task in drains:
        task.cancel()
    await asyncio.gather(*drains, return_exceptions=True)
    # One move, fanned out to every stream: how many got it, how fast.
    arrivals: list[float] = []

    async def first_move(reader: asyncio.StreamReader) -> None:
        buffer = b""
        while b"event: move" not in buffer:
            buffer += await reader.read(4096)
        data = buffer.split(b"event: move\ndata: ", 1)[1].split(b"\n", 1)[0]
        arrivals.append(1000 * (time.time() - json.loads(data)["at"]))

    waiting = [asyncio.ensure_future(first_move(reader)) for reader, _ in streams]
    uid, listed = await asyncio.to_thread(players.acting, game)
    await asyncio.to_thread(players.page_move, uid, game, listed["actions"][0], listed["version"])
    await asyncio.wait(waiting, timeout=20)
    for task in waiting:
        task.cancel()
    for _, writer in streams + warm:
        writer.close()
    return [
        f"live: {IDLE_STREAMS:,} idle streams on one uvicorn process: "
        f"{per_stream:.1f} KB each (goal <= 50 KB; "
        f"RSS {before / 1024:.0f} -> {after / 1024:.0f} MB)",
        f"live: CPU of that process while they idled: {idle_cpu:.2f} s in {window:.0f} s "
        f"({100 * idle_cpu / window:.2f} % of a core; "
        f"{keepalives[0] / IDLE_STREAMS:.1f} keep-alive "
        f"per stream in the window, every {os.environ.get('STREAMS_KEEPALIVE_SECONDS', '45')} s; "
        f"goal: no CPU while idle)",
        f"live: one move fanned out to all {IDLE_STREAMS:,}: {len(arrivals)} got it, "
        f"p50 {statistics.median(arrivals):.0f} ms, "
        f"p95 {pct(arrivals, 0.95):.0f} ms from its commit",
    ]


async def _first_move_after(reader: asyncio.StreamReader, version: int) -> float:
    """Milliseconds from the commit of the move to ``version`` to its arrival here."""
    buffer = b""
    while True:
        while b"\n\n" not in buffer:
            chunk = await reader.read(65536)
            if not chunk:
                raise ConnectionError("stream ended")
            buffer += chunk
        frame, buffer = buffer.split(b"\n\n", 1)
        if b"event: move" in frame:
            data = json.loads(frame.split(b"data: ", 1)[1])
            if data["version"] >= version:
                return 1000 * (time.time() - data["at"])


async def fanout(stack: LiveStack, players: Players, game: int) -> list[str]:
    """Streams of every kind on one game, then moves: each move's arrival on every stream."""
    host, port = stack.streams.removeprefix("http://").split(":")
    path = f"/streams/games/{game}/"
    uids = list(players.players)
    kinds = {
        "token": [f"Authorization: Bearer {players.players[u]['token']}\r\n" for u in uids],
        "session": [f"Cookie: sessionid={players.players[u]['session']}\r\n" for u in uids],
        "anonymous": [""],
    }
    every_kind = list(kinds.items())
    plan = []  # a third of each kind, each kind's callers taken in turn
    for number in range(FANOUT_STREAMS):
        kind, headers = every_kind[number % len(every_kind)]
        plan.append((kind, headers[number // len(every_kind) % len(headers)]))
    streams = []
    for start in range(0, len(plan), 100):
        batch = plan[start : start + 100]
        streams += await asyncio.gather(*[_open(host, int(port), path, h) for _, h in batch])
    arrivals: dict[str, list[float]] = {kind: [] for kind in kinds}
    missed = 0
    for _ in range(FANOUT_MOVES):
        uid, listed = await asyncio.to_thread(players.acting, game)
        waiting = [
            asyncio.ensure_future(_first_move_after(reader, listed["version"] + 1))
            for reader, _ in streams
        ]
        status = await asyncio.to_thread(
            players.page_move, uid, game, listed["actions"][0], listed["version"]
        )
        assert status == 200, status
        await asyncio.wait(waiting, timeout=20)
        for (kind, _), task in zip(plan, waiting, strict=True):
            if task.done() and task.exception() is None:
                arrivals[kind].append(task.result())
            else:
                task.cancel()
                missed += 1
        await asyncio.sleep(1)
    for _, writer in streams:
        writer.close()
    every = [ms for values in arrivals.values() for ms in values]
    by_kind = ", ".join(
        f"{kind} p95 {pct(values, 0.95):.0f} ms" for kind, values in arrivals.items() if values
    )
    return [
        f"live: {FANOUT_MOVES} moves fanned out to {len(streams):,} open streams of every kind "
        f"(a third each: token, signed-in session, anonymous): p50 {statistics.median(every):.0f}"
        f" ms, p95 {pct(every, 0.95):.0f} ms from the commit (goal p95 <= 300 ms; {by_kind}; "
        f"{missed} arrivals missing)",
    ]


def _open_stream_counts(stack: LiveStack) -> int:
    """The open streams the limits count (every address and account), read from Redis."""
    import redis

    client = redis.Redis(port=stack.redis_port, db=1)
    keys = list(client.scan_iter(match="*api-streams:*"))
    return sum(int(value or 0) for value in client.mget(keys)) if keys else 0


async def gone_clients(stack: LiveStack, game: int) -> list[str]:
    """Clients that close their connection without a word: are their slots freed?"""
    host, port = stack.streams.removeprefix("http://").split(":")
    before, settled = await asyncio.to_thread(_open_stream_counts, stack), 0
    while settled < 10:  # the streams of the parts before have closed
        await asyncio.sleep(0.1)
        now = await asyncio.to_thread(_open_stream_counts, stack)
        before, settled = now, (settled + 1 if now == before else 0)
    streams = await asyncio.gather(
        *[_open(host, int(port), f"/streams/games/{game}/") for _ in range(GONE_CLIENTS)]
    )
    opened = await asyncio.to_thread(_open_stream_counts, stack)
    started = time.monotonic()
    for _, writer in streams:
        writer.transport.abort()  # gone: no FIN handshake, no more reads
    keepalive = float(os.environ.get("STREAMS_KEEPALIVE_SECONDS", "45"))
    left = opened - before
    while left > 0 and time.monotonic() - started < keepalive:
        await asyncio.sleep(0.1)
        left = await asyncio.to_thread(_open_stream_counts, stack) - before
    return [
        f"live: {GONE_CLIENTS} clients gone without a word: {opened - before - left} of "
        f"{opened - before} slots freed in {time.monotonic() - started:.1f} s (goal: all, within "
        f"one keep-alive interval, {keepalive:.0f} s)",
    ]


async def shutdown(stack: LiveStack, game: int) -> list[str]:
    """SIGTERM with streams open: how long until uvicorn exits, who was told to reconnect."""
    host, port = stack.streams.removeprefix("http://").split(":")
    streams = []
    for _batch in range(0, SHUTDOWN_STREAMS, 100):
        streams += await asyncio.gather(
            *[_open(host, int(port), f"/streams/games/{game}/") for _ in range(100)]
        )

    async def told(reader: asyncio.StreamReader) -> bool:
        body = b""
        while chunk := await reader.read(65536):
            body += chunk
        return b": restarting" in body

    listening = [asyncio.ensure_future(told(reader)) for reader, _ in streams]
    proc = stack.procs["uvicorn"]
    started = time.monotonic()
    proc.terminate()
    await asyncio.to_thread(proc.wait, 30)
    took = time.monotonic() - started
    done, _ = await asyncio.wait(listening, timeout=5)
    reconnect = sum(1 for task in done if task.exception() is None and task.result())
    return [
        f"live: SIGTERM with {len(streams)} streams open: uvicorn exited in {took:.2f} s "
        f"(goal <= 5 s), {reconnect} of {len(streams)} clients told to reconnect (goal: all)",
    ]


def api_against_page(players: Players, page_game: int, api_game: int) -> list[str]:
    page_ms: list[float] = []
    api_ms: list[float] = []
    for step in range(COMPARED_MOVES):
        order = ("page", "api") if step % 2 == 0 else ("api", "page")
        for which in order:
            game = page_game if which == "page" else api_game
            uid, listed = players.acting(game)
            action = listed["actions"][0]
            started = time.perf_counter()
            if which == "page":
                status = players.page_move(uid, game, action, listed["version"])
                page_ms.append(1000 * (time.perf_counter() - started))
            else:
                status, _ = players.api(
                    uid,
                    "POST",
                    f"/games/{game}/move",
                    {"action": action, "version": listed["version"]},
                )
                api_ms.append(1000 * (time.perf_counter() - started))
            assert status == 200, (which, status)
    ratio = statistics.median(api_ms) / statistics.median(page_ms)
    return [
        f"api: a move through the API {statistics.median(api_ms):.1f} ms against the page's move "
        f"POST (htmx) {statistics.median(page_ms):.1f} ms, medians of {COMPARED_MOVES} alternating "
        f"on two games dealt alike: {ratio:.2f}x (goal <= 1.2x)",
    ]


def main() -> None:
    more_files()
    database = os.environ.get("BENCH_POSTGRES_URL")
    with tempfile.TemporaryDirectory() as folder:
        url = database or f"sqlite:///{folder}/live.sqlite3"
        if database:  # a fresh database in the cluster make bench started
            import psycopg

            base, _, _name = database.rpartition("/")
            with psycopg.connect(database, autocommit=True) as connection:
                connection.execute("DROP DATABASE IF EXISTS bench_live")
                connection.execute("CREATE DATABASE bench_live")
            url = f"{base}/bench_live"
        with LiveStack(Path(folder), url, collectstatic=True) as stack:
            data = json.loads(stack.python("bench/live_setup.py").splitlines()[-1])
            players = Players(stack, data)
            games = data["games"]
            where = "PostgreSQL" if database else "SQLite"
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(
                "Live updates and API (production settings, gunicorn 2 workers + uvicorn "
                f"1 process, Redis, {where}; load {load}):"
            )
            every_part = "latency,idle,api,fanout,gone,shutdown"
            parts = os.environ.get("BENCH_LIVE_PARTS", every_part).split(",")
            lines = latency(stack, players, games["latency"]) if "latency" in parts else []
            if "idle" in parts:
                lines += asyncio.run(idle_streams(stack, players, games["latency"]))
            if "api" in parts:
                lines += api_against_page(players, games["page"], games["api"])
            if "fanout" in parts:
                lines += asyncio.run(fanout(stack, players, games["fanout"]))
            if "gone" in parts:
                lines += asyncio.run(gone_clients(stack, games["fanout"]))
            if "shutdown" in parts:  # last: it stops the streams' server
                lines += asyncio.run(shutdown(stack, games["fanout"]))
            for line in lines:
                print(f"  {line}", flush=True)


if __name__ == "__main__":
    main()
