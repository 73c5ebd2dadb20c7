"""`make cluster`: the site on several nodes, with one cut off at a time (issue 32).

Network namespaces on this machine stand for the nodes, joined by a bridge in a namespace of
their own (every address private, inside the namespaces only):

- ``fz32-data`` 10.32.0.10: PostgreSQL and Redis (cache, broker, streams);
- ``fz32-web1`` .11 and ``fz32-web2`` .12: uvicorn (pages, API, streams) with 2 workers;
- ``fz32-work1`` .21 and ``fz32-work2`` .22: a Celery worker of every queue each, a beat on
  each (ops/beat_lock.py: one schedules, the other waits) and the workers' metrics server;
- ``fz32-edge`` .2: HAProxy in front (checking ``/readyz``), Prometheus scraping every node
  each second, the SMTP server that keeps what it receives, and this harness with the soak's
  players (bench/soak.py): two-player games played over HTTP through HAProxy.

While they play, in turn: web node 1's link is cut (``ip link set … down``) and restored; worker
node 2 is killed (every process of it, mid-task) and comes back; beat's node (work1) is killed,
the standby beat on work2 takes over, and work1 comes back; Redis is killed and started again
empty. Then the soak's checks: every game replays to its stored state, no move lost or doubled,
no email twice or left behind, no 5xx but the requests in flight on the cut node; beat never
sent one entry twice in an interval; Prometheus' series show each fault and the recovery.

``make cluster`` plays 50 games; tests/integration/test_cluster.py a few. Needs root, haproxy,
prometheus, redis-server and PostgreSQL (Debian packages). ``python -m bench.cluster --help``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import soak  # noqa: E402
from bench.stack import Mailbox, production_env, tail, wait_until  # noqa: E402

NET = "10.32.0"
HOSTS = {"edge": 2, "data": 10, "web1": 11, "web2": 12, "work1": 21, "work2": 22}
SWITCH = "fz32-sw"
PG_BIN = (sorted(Path("/usr/lib/postgresql").glob("*/bin")) or [Path("/nonexistent")])[-1]
BIN = Path(sys.executable).parent
SITE = f"http://{NET}.2:8080"
PROMETHEUS = f"http://{NET}.2:9090"
CUT_SECONDS = 8.0
HEARTBEAT_SECONDS = 2


def ns(node: str) -> str:
    return f"fz32-{node}"


def ip(node: str) -> str:
    return f"{NET}.{HOSTS[node]}"


def run(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True)


# --- the network ----------------------------------------------------------------------------


def network_up() -> None:
    network_down()
    run("ip", "netns", "add", SWITCH)
    run("ip", "-n", SWITCH, "link", "add", "br0", "type", "bridge")
    run("ip", "-n", SWITCH, "link", "set", "br0", "up")
    for node in HOSTS:
        run("ip", "netns", "add", ns(node))
        run("ip", "-n", ns(node), "link", "set", "lo", "up")
        run("ip", "-n", SWITCH, "link", "add", f"p-{node}", "type", "veth",
            "peer", "name", "eth0", "netns", ns(node))  # fmt: skip
        run("ip", "-n", SWITCH, "link", "set", f"p-{node}", "master", "br0")
        run("ip", "-n", SWITCH, "link", "set", f"p-{node}", "up")
        run("ip", "-n", ns(node), "addr", "add", f"{ip(node)}/24", "dev", "eth0")
        run("ip", "-n", ns(node), "link", "set", "eth0", "up")


def network_down() -> None:
    """Every process left in the namespaces is killed, then the namespaces deleted."""
    for name in [*(ns(node) for node in HOSTS), SWITCH]:
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True)
        for pid in pids.stdout.split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def set_link(node: str, up: bool) -> None:
    run("ip", "-n", SWITCH, "link", "set", f"p-{node}", "up" if up else "down")


# --- the processes --------------------------------------------------------------------------


@dataclass
class Proc:
    name: str
    node: str
    args: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen | None = None

    def start(self) -> Proc:
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                ["ip", "netns", "exec", ns(self.node), *self.args], env=self.env, cwd=ROOT,
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        return self

    def kill(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(10)

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None


@dataclass
class Cluster:
    directory: Path
    env: dict[str, str] = field(default_factory=dict)
    procs: dict[str, Proc] = field(default_factory=dict)

    def add(self, name: str, node: str, args: list[str], env: dict | None = None) -> Proc:
        proc = Proc(name, node, args, {**self.env, **(env or {})}, self.directory / f"{name}.log")
        self.procs[name] = proc
        return proc.start()

    def node_procs(self, node: str) -> list[Proc]:
        return [p for p in self.procs.values() if p.node == node]

    def stop(self) -> None:
        for proc in reversed(list(self.procs.values())):
            proc.kill()


def start_postgres(directory: Path) -> str:
    folder = directory / "pg"
    folder.mkdir()
    shutil.chown(folder, "postgres", "postgres")
    as_postgres = ["runuser", "-u", "postgres", "--"]
    run(*as_postgres, str(PG_BIN / "initdb"), "-D", str(folder / "data"), "-U", "postgres",
        "--auth=trust")  # fmt: skip
    with (folder / "data" / "pg_hba.conf").open("a") as hba:
        hba.write(f"host all all {NET}.0/24 trust\n")
    options = (f"-p 5432 -k {folder} -c listen_addresses={ip('data')} -c fsync=off "
               "-c max_connections=300")  # fmt: skip
    run("ip", "netns", "exec", ns("data"), *as_postgres, str(PG_BIN / "pg_ctl"), "-D",
        str(folder / "data"), "-l", str(folder / "log"), "-w", "-o", options, "start")  # fmt: skip
    return f"postgres://postgres@{ip('data')}:5432/postgres"


def stop_postgres(directory: Path) -> None:
    data = directory / "pg" / "data"
    if data.is_dir():
        subprocess.run(["ip", "netns", "exec", ns("data"), "runuser", "-u", "postgres", "--",
                        str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)  # fmt: skip


def start_redis(cluster: Cluster) -> Proc:
    proc = cluster.add("redis", "data", ["redis-server", "--bind", ip("data"), "--port", "6379",
                       "--save", "", "--appendonly", "no", "--protected-mode", "no"])  # fmt: skip
    wait_until(lambda: "Ready to accept connections" in proc.log.read_text(), "Redis", 15)
    return proc


def haproxy_config(directory: Path) -> Path:
    """Both web nodes checked on /readyz each second; if every node is unready at once (a
    shared dependency restarting), the same nodes unchecked as backups: fail open."""
    config = directory / "haproxy.cfg"
    config.write_text(f"""
global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 15s
    timeout http-request 10s
    option redispatch
    retries 2
frontend site
    bind {ip("edge")}:8080
    option forwardfor
    default_backend webs
frontend stats
    bind {ip("edge")}:8404
    http-request use-service prometheus-exporter if {{ path /metrics }}
backend webs
    balance roundrobin
    http-response set-header X-Served-By %s
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 1s fall 2 rise 2
    server web1 {ip("web1")}:8000 check
    server web2 {ip("web2")}:8000 check
    server web1-open {ip("web1")}:8000 backup
    server web2-open {ip("web2")}:8000 backup
""")
    return config


def prometheus_config(directory: Path) -> Path:
    config = directory / "prometheus.yml"
    targets = {
        "web": [f"{ip('web1')}:8000", f"{ip('web2')}:8000"],
        "workers": [f"{ip('work1')}:9808", f"{ip('work2')}:9808"],
        "haproxy": [f"{ip('edge')}:8404"],
    }
    jobs = [{"job_name": job, "static_configs": [{"targets": hosts}]}
            for job, hosts in targets.items()]  # fmt: skip
    settings = {"global": {"scrape_interval": "1s", "scrape_timeout": "900ms"},
                "scrape_configs": jobs}  # fmt: skip
    config.write_text(json.dumps(settings))  # JSON is YAML
    return config


def start_web(cluster: Cluster, node: str) -> Proc:
    metrics = cluster.directory / f"prom-{node}"
    shutil.rmtree(metrics, ignore_errors=True)
    metrics.mkdir()
    return cluster.add(node, node, [
        str(BIN / "uvicorn"), "firenze_site.asgi:application", "--host", ip(node), "--port",
        "8000", "--workers", "2", "--no-access-log",
    ], {"PROMETHEUS_MULTIPROC_DIR": str(metrics)})  # fmt: skip


def start_worker_node(cluster: Cluster, node: str) -> None:
    """A worker node boots: its worker (every queue), its beat (a standby while the other
    node's holds the lock) and its metrics server."""
    metrics = cluster.directory / f"prom-{node}"
    shutil.rmtree(metrics, ignore_errors=True)
    metrics.mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics)}
    celery = [str(BIN / "celery"), "-A", "firenze_site"]
    cluster.add(f"{node}-worker", node, [
        *celery, "worker", "-Q", "celery,pages,bots", "--pool", "prefork", "--concurrency", "2",
        f"--hostname={node}@%h", "--loglevel=INFO", "--without-gossip", "--without-mingle",
    ], env)  # fmt: skip
    cluster.add(f"{node}-beat", node, [
        *celery, "beat", "--loglevel=INFO", "-s", str(cluster.directory / f"{node}-schedule"),
    ], env)  # fmt: skip
    cluster.add(f"{node}-metrics", node, [
        sys.executable, "manage.py", "serve_metrics", "--address", ip(node), "--port", "9808",
    ], env)  # fmt: skip


def kill_node(cluster: Cluster, node: str) -> None:
    for proc in cluster.node_procs(node):
        proc.kill()


def get(url: str, timeout: float = 3.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError:
        return 0, ""


# --- the players and the faults -------------------------------------------------------------


class Record(soak.Record):
    """The soak's record, with when every 5xx was asked and answered (only those asked before
    web1's link came back and answered after it was cut were in flight on the cut node: a
    request there can wait on its database connection well after the link is back)."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[tuple[float, float, int]] = []

    def request(self, status: int | None, ms: float = 0.0) -> None:
        if status is not None and status >= 500:
            answered = time.monotonic()
            with self.lock:
                self.errors.append((answered - ms / 1000, answered, status))
            status = None  # an answer from the proxy, not the site: counted as cut off
        super().request(status, ms)


def wait_for_a_running_task(node: str, timeout: float = 30.0) -> str:
    """Ask the node's worker (Celery's remote control) until it is running a task; its name."""
    import socket

    from celery import Celery

    app = Celery(broker=f"redis://{ip('data')}:6379/0")
    destination = [f"{node}@{socket.gethostname()}"]
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                active = app.control.inspect(destination=destination, timeout=0.3).active() or {}
                for tasks in active.values():
                    if tasks:
                        return str(tasks[0].get("name", "a task"))
        return ""
    finally:
        app.close()


@dataclass
class Faults:
    running: str = ""  # the task worker node 2 was running when it was killed
    windows: dict[str, tuple[float, float]] = field(default_factory=dict)  # monotonic
    moments: dict[str, float] = field(default_factory=dict)  # wall clock, for Prometheus
    errors: list[str] = field(default_factory=list)


def fault_sequence(
    cluster: Cluster, record: Record, faults: Faults, calm: float, say, clients: list[StreamClient]
) -> None:
    try:
        _faults(cluster, record, faults, calm, say, clients)
    except Exception as exc:  # reported, never hidden
        faults.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        record.faults_on = False
        record.faults_done.set()


def _window(faults: Faults, name: str, start: float) -> None:
    faults.windows[name] = (start, time.monotonic())


def _faults(
    cluster: Cluster, record: Record, faults: Faults, calm: float, say, clients: list[StreamClient]
) -> None:
    time.sleep(calm)
    # The cut tests the streams' failover too: players open their streams only once their game
    # has started, so wait (a minute at most) until one is served by web1 before cutting it.
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up and not any(c.nodes[-1:] == ["web1"] for c in clients):
        time.sleep(0.5)
    record.faults_on = True
    say("cluster: cutting web node 1's link")
    start = time.monotonic()
    faults.moments["cut web1"] = time.time()
    set_link("web1", False)
    time.sleep(CUT_SECONDS)
    set_link("web1", True)
    wait_until(lambda: get(f"http://{ip('web1')}:8000/readyz")[0] == 200, "web1 ready", 60)
    _window(faults, "cut web1", start)
    record.faults["web node 1 cut off and back"] += 1
    time.sleep(3)

    running = wait_for_a_running_task("work2")
    say(f"cluster: killing worker node 2 mid-task ({running or 'no task caught running'})")
    faults.running = running
    start = time.monotonic()
    faults.moments["kill work2"] = time.time()
    kill_node(cluster, "work2")
    time.sleep(5)
    start_worker_node(cluster, "work2")
    _window(faults, "kill work2", start)
    record.faults["worker node 2 killed and back"] += 1
    time.sleep(5)

    say("cluster: killing beat's node (work1); work2's beat takes over")
    start = time.monotonic()
    faults.moments["kill work1"] = time.time()
    kill_node(cluster, "work1")
    wait_until(lambda: "this beat schedules" in cluster.procs["work2-beat"].log.read_text(),
               "the standby beat to take over", 60)  # fmt: skip
    faults.moments["beat moved"] = time.time()
    start_worker_node(cluster, "work1")
    _window(faults, "kill work1", start)
    record.faults["beat's node killed, beat moved"] += 1
    time.sleep(5)

    say("cluster: restarting Redis (empty)")
    start = time.monotonic()
    faults.moments["restart redis"] = time.time()
    cluster.procs["redis"].kill()
    time.sleep(0.5)
    start_redis(cluster)
    _window(faults, "restart redis", start)
    record.faults["Redis restarted"] += 1


class Supervisor(threading.Thread):
    """systemd's Restart=always on every node: a worker or beat that exits by itself (a beat
    that lost its lock, a worker that gave up on the broker) starts again."""

    def __init__(self, cluster: Cluster, record: Record, faults_lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.cluster, self.record, self.lock = cluster, record, faults_lock
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(1):
            for proc in list(self.cluster.procs.values()):
                if proc.node.startswith("work") and proc.popen and proc.popen.poll() is not None:
                    if proc.popen.returncode == -signal.SIGKILL:
                        continue  # killed on purpose: the fault brings it back
                    proc.start()
                    self.record.restarts[proc.name.split("-")[1]] += 1


# --- the stream clients --------------------------------------------------------------------

STREAM_READ_TIMEOUT = 6.0  # keep-alives come every 2 s: silence this long means a dead node


@dataclass
class StreamClient:
    """A browser's EventSource on a game, through HAProxy: on silence, an error or the end of
    the stream it reconnects with Last-Event-ID, as a browser does."""

    game: int
    session: str
    ids: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)  # the node of each connection
    gaps: list[tuple[str, str]] = field(default_factory=list)  # (last before, first after) a reset
    connections: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError, http.client.HTTPException, ValueError):
                self._connect()
            self.stop.wait(0.5)

    def _connect(self) -> None:
        connection = http.client.HTTPConnection(ip("edge"), 8080, timeout=STREAM_READ_TIMEOUT)
        headers = {"Cookie": f"sessionid={self.session}", "Accept": "text/event-stream"}
        if self.ids:
            headers["Last-Event-ID"] = self.ids[-1]
        try:
            connection.request("GET", f"/streams/games/{self.game}/", headers=headers)
            response = connection.getresponse()
            if response.status != 200:
                response.read()
                return
            self.connections += 1
            # web1-open is web1 taken unchecked while no node was ready (HAProxy's backups)
            self.nodes.append((response.getheader("X-Served-By") or "?").removesuffix("-open"))
            self._read(response)
        finally:
            connection.close()

    def _read(self, response: Any) -> None:
        event_id, kind, reset_from = "", "", ""
        while not self.stop.is_set():
            line = response.readline().decode()
            if not line:
                return  # the server ended the stream
            line = line.rstrip("\n")
            if line.startswith("id: "):
                event_id = line[4:]
            elif line.startswith("event: "):
                kind = line[7:]
            elif line == "" and kind:
                if kind == "reset":
                    reset_from = self.ids[-1] if self.ids else ""
                elif event_id:
                    if reset_from:
                        self.gaps.append((reset_from, event_id))
                        reset_from = ""
                    self.ids.append(event_id)
                event_id, kind = "", ""


class EventLog(threading.Thread):
    """Every event each game's log in Redis held at some moment (read each second: the log
    is lost when Redis restarts empty): what a client should have received."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.seen: dict[int, set[str]] = {}
        self.stopping = threading.Event()

    def add(self, game: int) -> None:
        self.seen[game] = set()

    def run(self) -> None:
        import redis

        client = redis.Redis(host=ip("data"), port=6379, socket_timeout=2)
        while not self.stopping.wait(1):
            with contextlib.suppress(redis.RedisError):
                for game in list(self.seen):
                    for entry_id, _fields in client.xrange(f"fz:streams:log:game:{game}"):
                        self.seen[game].add(entry_id.decode())


def order(event_id: str) -> tuple[int, int]:
    first, second = event_id.split("-")
    return int(first), int(second)


def check_streams(clients: list[StreamClient], log: EventLog, lines: list[str]) -> list[str]:
    """Every event of a client's game after its first one reached it, but those it was told
    it missed (a reset: the log restarted empty with Redis); each client's nodes."""
    missed: dict[int, int] = {}
    for client in clients:
        if not client.ids:
            continue
        got = set(client.ids)
        start = order(client.ids[0])
        excused = [(order(a), order(b)) for a, b in client.gaps]
        for event in log.seen[client.game]:
            at = order(event)
            if at > start and event not in got and not any(a < at < b for a, b in excused):
                missed[client.game] = missed.get(client.game, 0) + 1
    moved = sum(1 for c in clients if len(set(c.nodes)) > 1)
    on_web1 = sum(1 for c in clients if c.nodes and c.nodes[0] == "web1")
    lines.append(
        f"streams: {len(clients)} clients ({on_web1} first on web1), "
        f"{sum(c.connections for c in clients)} connections, {moved} served by both nodes, "
        f"{sum(len(c.ids) for c in clients)} events received, "
        f"{sum(len(c.gaps) for c in clients)} resets after Redis restarted, "
        f"{sum(missed.values())} events missed (goal 0)"
    )
    problems = []
    if missed:
        problems.append(f"stream clients missed events: {missed}")
    if not any(c.nodes and c.nodes[0] == "web1" and len(set(c.nodes)) > 1 for c in clients):
        problems.append("no stream client of web1 reconnected to web2")
    return problems


# --- the checks -----------------------------------------------------------------------------


def check_errors(record: Record, faults: Faults, lines: list[str]) -> list[str]:
    cut = faults.windows.get("cut web1")

    def in_flight(asked: float, answered: float) -> bool:
        return cut is not None and asked <= cut[1] and answered >= cut[0]

    inside = [s for a, t, s in record.errors if in_flight(a, t)]
    outside = [(t, s) for a, t, s in record.errors if not in_flight(a, t)]
    lines.append(
        f"5xx: {len(inside)} while web1 was cut (requests in flight there, answered by "
        f"HAProxy's timeout or the node's 500), {len(outside)} otherwise (goal 0)"
    )
    return (
        [f"{len(outside)} 5xx outside the cut: {Counter(s for _, s in outside)}"] if outside else []
    )


def check_beat(cluster: Cluster, lines: list[str]) -> list[str]:
    """No beat entry sent twice within half its interval: the two beats never scheduled side
    by side."""
    sends: dict[str, list[float]] = {}
    pattern = re.compile(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+).*Sending due task (\S+)")
    for proc in cluster.procs.values():
        if proc.name.endswith("-beat"):
            for moment, entry in pattern.findall(proc.log.read_text(errors="replace")):
                stamp = time.mktime(time.strptime(moment[:19], "%Y-%m-%d %H:%M:%S"))
                sends.setdefault(entry, []).append(stamp + int(moment[20:]) / 1000)
    beat_entries = sends.get("ops-heartbeat-celery", [])
    doubled = 0
    for times in sends.values():
        times.sort()
        doubled += sum(
            1 for a, b in zip(times, times[1:], strict=False) if b - a < HEARTBEAT_SECONDS / 2
        )
    lines.append(f"beat: {len(beat_entries)} heartbeat sends over two beats, "
                 f"{doubled} sent twice within half an interval (goal 0)")  # fmt: skip
    return [f"beat sent {doubled} entries twice"] if doubled else []


def check_prometheus(faults: Faults, lines: list[str]) -> list[str]:
    """The recorded `up` series: web1 down during the cut and back, work2's and work1's
    metrics servers down while their nodes were dead and back; HAProxy's view of web1."""
    problems = []
    start, end = min(faults.moments.values()) - 5, time.time()
    shown = []
    for instance, fault in ((f"{ip('web1')}:8000", "cut web1"), (f"{ip('work2')}:9808",
                            "kill work2"), (f"{ip('work1')}:9808", "kill work1")):  # fmt: skip
        query = urllib.parse.urlencode({"query": f'up{{instance="{instance}"}}', "start": start,
                                        "end": end, "step": "1"})  # fmt: skip
        status, body = get(f"{PROMETHEUS}/api/v1/query_range?{query}", 10)
        values = [float(v) for _, v in json.loads(body)["data"]["result"][0]["values"]] if (
            status == 200 and json.loads(body)["data"]["result"]) else []  # fmt: skip
        down = values.count(0.0)
        back = bool(values) and values[-1] == 1.0
        shown.append(f"{fault}: {down} s down then {'up' if back else 'NOT up'}")
        if not down or not back:
            problems.append(f"Prometheus did not record {fault} and its recovery: {values[-30:]}")
    query = urllib.parse.urlencode({"query": 'haproxy_server_status{server="web1",state="DOWN"}',
                                    "start": start, "end": end, "step": "1"})  # fmt: skip
    status, body = get(f"{PROMETHEUS}/api/v1/query_range?{query}", 10)
    result = json.loads(body)["data"]["result"] if status == 200 else []
    marked = sum(float(v) for _, v in result[0]["values"]) if result else 0
    shown.append(f"HAProxy marked web1 DOWN for {marked:.0f} s")
    lines.append("Prometheus recorded: " + "; ".join(shown))
    return problems


# --- the run --------------------------------------------------------------------------------


def inside(options: argparse.Namespace) -> int:
    """In the edge namespace: start everything, play, fault, check."""
    directory = Path(tempfile.mkdtemp(prefix="fz32-cluster-"))
    os.chmod(directory, 0o755)
    say = print
    cluster = Cluster(directory)
    try:
        return _inside(options, cluster, say)
    finally:
        cluster.stop()
        stop_postgres(directory)
        if options.keep_logs:
            say(f"cluster: logs in {directory}")
        else:
            shutil.rmtree(directory, ignore_errors=True)


def _inside(options: argparse.Namespace, cluster: Cluster, say: Any) -> int:
    directory = cluster.directory
    say("cluster: data node (PostgreSQL, Redis)...")
    database_url = start_postgres(directory)
    start_redis(cluster)
    os.environ.update(
        DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="firenze_site.settings_test"
    )
    import django

    django.setup()
    from aiosmtpd.controller import Controller
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every command
    mailbox = Mailbox()
    mailbox.port = 8025
    controller = Controller(mailbox, hostname=ip("edge"), port=mailbox.port)
    controller.start()
    try:
        redis = SimpleNamespace(url=f"redis://{ip('data')}:6379/0")
        cluster.env = production_env(redis, mailbox.port, database_url, SITE)  # type: ignore[arg-type]
        cluster.env.update(
            EMAIL_HOST=ip("edge"),
            ALLOWED_HOSTS=",".join(ip(n) for n in ("edge", "web1", "web2")),
            TRUSTED_PROXY_COUNT="1",
            OPS_ALLOWED_NETWORKS=f"{NET}.0/24",
            OPS_HEARTBEAT_SECONDS=str(HEARTBEAT_SECONDS),
            NOTIFICATIONS_SEND_PENDING_SECONDS="2",
            NOTIFICATIONS_PENDING_AFTER_SECONDS="5",
            NOTIFICATIONS_STUCK_AFTER_SECONDS="30",
            GAMES_SWEEP_SECONDS="3",
            STREAMS_KEEPALIVE_SECONDS="2",
            REQUEST_LOG_LEVEL="WARNING",
        )
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                       cwd=ROOT, env=cluster.env, check=True)  # fmt: skip
        say("cluster: web nodes, worker nodes, HAProxy, Prometheus...")
        for node in ("web1", "web2"):
            start_web(cluster, node)
        start_worker_node(cluster, "work1")
        time.sleep(3)  # work1's beat takes the lock first: the one on work2 is the standby
        start_worker_node(cluster, "work2")
        cluster.add("haproxy", "edge", ["haproxy", "-db", "-f", str(haproxy_config(directory))])
        cluster.add("prometheus", "edge", [
            "prometheus", f"--config.file={prometheus_config(directory)}",
            f"--storage.tsdb.path={directory / 'prometheus'}",
            f"--web.listen-address={ip('edge')}:9090",
        ])  # fmt: skip
        wait_until(lambda: get(f"{SITE}/readyz")[0] == 200, "the site to be ready", 180)
        return play(options, cluster, mailbox, say)
    finally:
        controller.stop()


def play(options: argparse.Namespace, cluster: Cluster, mailbox: Mailbox, say: Any) -> int:
    plan = soak.Plan(games=options.games, concurrency=options.concurrency, played_out_every=0,
                     absent_every=0, resign_after=(8, 16), pause_every=3, pause_seconds=2.0,
                     calm_seconds=options.calm, stuck_after=30, settle_timeout=120)  # fmt: skip
    record = Record()
    faults = Faults()
    tables = soak.make_tables(plan)
    clients: list[StreamClient] = []
    log = EventLog()
    log.start()
    create_and_join = soak.create_and_join

    def and_watch(base: str, table: Any, record: Any, deadline: float) -> int:
        """Once a game has started, its players open their streams on it (two tabs each)."""
        game = create_and_join(base, table, record, deadline)
        log.add(game)
        for user in table.players:
            for _tab in range(options.streams_per_player):
                client = StreamClient(game, table.sessions[user.pk])
                clients.append(client)
                threading.Thread(target=client.run, daemon=True).start()
        return game

    soak.create_and_join = and_watch
    supervisor = Supervisor(cluster, record, threading.Lock())
    supervisor.start()
    say(f"cluster: {plan.games} games, {plan.concurrency} at a time, through HAProxy; faults "
        f"after {plan.calm_seconds:.0f} s")  # fmt: skip
    sequence = threading.Thread(target=fault_sequence, args=(cluster, record, faults,
                                plan.calm_seconds, say, clients), daemon=True)  # fmt: skip
    started = time.monotonic()
    sequence.start()
    with ThreadPoolExecutor(max_workers=plan.concurrency) as players:
        games = [players.submit(soak.play_game, SITE, t, record, started + 1800) for t in tables]
        for outcome in games:
            outcome.result()
    sequence.join(300)
    played = time.monotonic() - started
    say("cluster: waiting for the last emails...")
    own = [user.pk for table in tables for user in table.players]
    soak.settle(plan, own)
    supervisor.stopping.set()
    soak.create_and_join = create_and_join
    time.sleep(3)  # the last events reach the clients
    log.stopping.set()
    log.join(10)
    for client in clients:
        client.stop.set()
    lines = [f"{len(record.games)} games in {played / 60:.1f} min "
             f"({dict(Counter(record.games.values()))}); faults: "
             + ", ".join(f"{n} {k}" for k, n in record.faults.items())]  # fmt: skip
    problems = list(faults.errors)
    if len(record.faults) < 4:
        problems.append("not every fault happened")
    lines.append(f"worker node 2 was killed while running {faults.running or 'no task seen'}")
    if Counter(record.games.values()).get("unfinished"):
        problems.append("some games did not finish")
    problems += soak.check_replay(own, plan, lines)
    problems += soak.check_moves(record, lines)
    problems += soak.check_emails(mailbox, own, lines)
    problems += check_errors(record, faults, lines)
    problems += check_beat(cluster, lines)
    problems += check_streams(clients, log, lines)
    problems += check_prometheus(faults, lines)
    lines.append(soak.latency_line(record))
    for line in lines:
        say(f"  {line}")
    for problem in problems:
        say(f"  PROBLEM: {problem}")
    if problems and options.keep_logs:
        for proc in cluster.procs.values():
            say(f"--- {proc.name}\n{tail(proc.log, 20)}")
    say("cluster: " + ("all checks passed" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--streams-per-player", type=int, default=2)
    parser.add_argument("--calm", type=float, default=20.0, help="seconds before the faults")
    parser.add_argument("--keep-logs", action="store_true")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.inside:
        return inside(options)
    if os.geteuid() != 0:
        print("make cluster needs root (network namespaces)")
        return 2
    missing = [p for p in ("haproxy", "prometheus", "redis-server") if not shutil.which(p)]
    if missing or not PG_BIN.is_dir():
        print(f"make cluster needs: apt-get install -y haproxy prometheus redis-server postgresql "
              f"(missing: {', '.join(missing) or 'postgresql'})")  # fmt: skip
        return 2
    network_up()
    try:
        inner = [sys.executable, "-m", "bench.cluster", "--inside", *sys.argv[1:]]
        return subprocess.run(["ip", "netns", "exec", ns("edge"), *inner], cwd=ROOT).returncode
    finally:
        network_down()


if __name__ == "__main__":
    sys.exit(main())
