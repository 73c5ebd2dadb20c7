"""Processes of the production stack on this machine, for the integration tests, benchmarks and
the soak: redis-server, an SMTP server (aiosmtpd) that keeps what it receives, Celery workers and
beat, gunicorn. Each runs ``firenze_site.settings`` with the environment it is given.

Every wait is bounded; every process is stopped (terminate, then kill) by ``Stack.stop``, also
when the caller failed, and its log tail is at hand for a report.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# How long any one thing may take to happen (an email, the queue to drain...).
TIMEOUT = 30.0
# How long a process may take to start: a busy machine without compiled bytecode needs ~30 s.
START_TIMEOUT = 90.0
LOG_TAIL_LINES = 150
# How long a worker may take to finish its task before a test's teardown kills it
# (Stack.quiesce): an email or a sweep takes a moment, a Strong bot's turn minutes.
QUIESCE_GRACE = 15.0
# The stack signs sessions with this key; a harness writes its players' sessions with it.
SECRET_KEY = "stack-only-secret-key-2b7e9d4a6c1f8e3b5d7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f0b"
CSRF = "stackcsrf" * 3 + "xyzab"  # a CSRF cookie of the form Django expects (32 characters)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """Poll ``predicate`` until it returns something truthy (which is returned); fail after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


def stop_process(proc: subprocess.Popen | None, timeout: float = 10.0) -> None:
    """SIGTERM (a worker finishes its task and acks), then SIGKILL; always reaped."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except FileNotFoundError:
        return "(no log)"


# --- Redis ----------------------------------------------------------------------------------


class RedisServer:
    """redis-server on a loopback port, without persistence; stop() and start() again keeps
    the port (the broker's outage in test_email_delivery)."""

    def __init__(self, directory: Path) -> None:
        self.binary = shutil.which("redis-server") or "/usr/sbin/redis-server"
        self.directory = directory
        self.port = free_port()
        self.log = directory / "redis.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if not Path(self.binary).is_file():
            raise RuntimeError(
                "redis-server not found: the integration tests, benchmarks and the soak need "
                "it (apt-get install redis-server; .ci/run installs it)."
            )
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
        args += ["no", "--dir", str(self.directory)]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([self.binary, *args], stdout=log, stderr=subprocess.STDOUT)
        wait_until(self.ping, "redis-server to accept connections", timeout=15)

    def client(self):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def ping(self) -> bool:
        if self.proc is None or self.proc.poll() is not None:
            raise AssertionError(f"redis-server is not running:\n{tail(self.log)}")
        import redis

        try:
            with self.client() as client:
                return bool(client.ping())
        except redis.ConnectionError:
            return False

    def stop(self) -> None:
        stop_process(self.proc)

    def crash(self) -> None:
        """SIGKILL: what it held (queued tasks, cached pages, rate limits) is gone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def backlog(self) -> int:
        """Messages in the default queue plus those a worker holds unacknowledged."""
        with self.client() as client:
            return client.llen("celery") + client.llen("bots") + client.hlen("unacked")


# --- SMTP -----------------------------------------------------------------------------------


class Mailbox:
    """An aiosmtpd handler that keeps every message it accepts."""

    def __init__(self) -> None:
        self._messages: list[EmailMessage] = []
        self._lock = threading.Lock()
        self.port = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self._messages.append(message)
        return "250 Message accepted for delivery"

    @property
    def messages(self) -> list[EmailMessage]:
        with self._lock:
            return list(self._messages)

    def clear(self) -> None:
        with self._lock:
            self._messages.clear()

    def wait_for(
        self, match: Callable[[EmailMessage], bool], what: str, count: int = 1
    ) -> list[EmailMessage]:
        """Wait until at least ``count`` received messages match; returns the matches."""

        def found() -> list[EmailMessage]:
            matches = [m for m in self.messages if match(m)]
            return matches if len(matches) >= count else []

        return wait_until(found, what)


# --- Celery processes -----------------------------------------------------------------------


@dataclass
class Process:
    name: str
    proc: subprocess.Popen
    log: Path
    args: list[str] = field(default_factory=list)  # what started it, to start it again
    program: list[str] | None = None
    queues: list[str] = field(default_factory=list)  # a Celery worker's queues


class Stack:
    """The services of one run: Redis, the mailbox, Celery workers and beat (and, for the
    soak, gunicorn), each a process of its own with its log in ``directory``."""

    def __init__(self, directory: Path, redis: RedisServer, mailbox: Mailbox, env: dict) -> None:
        self.directory = directory
        self.redis = redis
        self.mailbox = mailbox
        self.env = env
        self.processes: list[Process] = []
        self.celery = [str(BIN / "celery"), "-A", "firenze_site"]

    def spawn(self, name: str, args: list[str], *, program: list[str] | None = None) -> Process:
        """Start ``program`` (Celery by default) with ``args``, in a session of its own so that
        it and its children can be killed together (a crash, in the soak)."""
        log_path = self.directory / f"{name}.log"
        with log_path.open("ab") as log:
            proc = subprocess.Popen(
                [*(self.celery if program is None else program), *args],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        process = Process(name, proc, log_path, args, program)
        self.processes.append(process)
        return process

    def start_worker(
        self,
        name: str,
        *,
        pool: str = "solo",
        concurrency: int = 1,
        queues: str = "celery,pages,bots",
    ) -> Process:
        """A Celery worker of ``queues``: "celery" (emails, the clock), "pages" (redraws),
        "bots" (bot moves and reviews; production gives them their own workers, docs/bots.md),
        or all. The solo pool runs tasks in the worker process itself (quick to start, what
        the email tests use); prefork, production's default, runs them in child processes and
        is the pool that enforces the tasks' time limits."""
        options = [f"--pool={pool}"] + ([f"--concurrency={concurrency}"] if pool != "solo" else [])
        process = self.spawn(
            name,
            ["worker", *options, f"--hostname={name}@%h", "--loglevel=INFO"]
            + ["-Q", queues, "--without-gossip", "--without-mingle", "--without-heartbeat"],
        )
        process.queues = queues.split(",")
        return process

    def start_web(self, name: str, port: int, workers: int) -> Process:
        """gunicorn with ``workers`` sync workers on the loopback, its access log (pid,
        method, path, status, seconds) in ``<name>-access.log``."""
        access = self.directory / f"{name}-access.log"
        return self.spawn(
            name,
            ["firenze_site.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
            + [
                "--access-logfile",
                str(access),
                "--access-logformat",
                "%(p)s %(m)s %(U)s %(s)s %(L)s",
            ],
            program=[str(BIN / "gunicorn")],
        )

    def start_beat(self) -> Process:
        schedule, pidfile = self.directory / "celerybeat-schedule", self.directory / "beat.pid"
        return self.spawn(
            "beat", ["beat", "--loglevel=INFO", "-s", str(schedule), "--pidfile", str(pidfile)]
        )

    def wait_ready(self, process: Process, marker: str, since: int = 0) -> None:
        """Until ``marker`` is in the process's log (after its first ``since`` bytes: a
        process started again appends to the log of the one before)."""

        def ready() -> bool:
            if process.proc.poll() is not None:
                raise AssertionError(
                    f"{process.name} exited with {process.proc.returncode}:\n{tail(process.log)}"
                )
            with process.log.open("rb") as log:
                log.seek(since)
                return marker in log.read().decode(errors="replace")

        try:
            wait_until(ready, f"{process.name} to start", timeout=START_TIMEOUT)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{tail(process.log)}") from None

    def restart_broker(self) -> None:
        """Start Redis again (same port), start beat again if it stopped, and wait until every
        worker has reconnected: after an outage they retry at growing intervals (2 s, 4 s,
        6 s...). A beat out of touch with Redis for longer than its lock's TTL stops
        (ops/beat_lock.py) and production's supervisor starts it again, as this does: how long
        an outage lasts must not decide whether the sweep ever runs after it."""
        workers = [p for p in self.workers() if p.proc.poll() is None]

        def connections(process: Process) -> int:
            return process.log.read_text(errors="replace").count("] Connected to redis://")

        before = {p.name: connections(p) for p in workers}
        self.redis.start()
        stopped = [p for p in self.processes if p.name == "beat" and p.proc.poll() is not None]
        for beat in stopped:
            self.processes.remove(beat)
            self.start_beat()
        wait_until(
            lambda: all(connections(p) > before[p.name] for p in workers),
            "the workers to reconnect to Redis",
        )

    # --- between tests: the workers idle, the database theirs to flush ---------------------

    def workers(self) -> list[Process]:
        return [p for p in self.processes if p.queues]

    def quiesce(self, grace: float = QUIESCE_GRACE) -> list[str]:
        """Leave the database to the caller: every worker stops taking tasks (Celery's
        cancel_consumer) and is idle, or is killed. A test's database is flushed after it, and
        a worker still in a task holds row locks the flush's TRUNCATE waits on (a bot thinks
        inside its move's transaction), or takes new ones: the flush deadlocks or fails and the
        next test finds this one's rows. A worker that answers within ``grace`` seconds with
        nothing active, reserved or scheduled, twice, stays (a solo worker in a task cannot
        answer at all); any other is killed with its pool, its transaction rolled back, and
        ``resume`` starts it again. The names of the workers killed."""
        waiting = {_node(p): p for p in self.workers() if p.proc.poll() is None}
        if not self.broker_up():  # no command reaches them: all go, resume starts them again
            grace = 0
        deadline = time.monotonic() + grace
        with self._control() as control:
            for queue in sorted({q for p in waiting.values() for q in p.queues}) if grace else []:
                nodes = [node for node, p in waiting.items() if queue in p.queues]
                control.cancel_consumer(queue, destination=nodes, reply=False)
            # Idle twice in a row: the second question is handled after the first answer, by
            # when the cancel (which a worker applies on its next turn of the loop) has
            # taken effect, so nothing it takes can start after it.
            answers: Counter[str] = Counter()
            while waiting.keys() - {n for n, times in answers.items() if times >= 2}:
                if time.monotonic() > deadline:
                    break
                asked = [n for n in waiting if answers[n] < 2]
                idle = _idle(control, asked)
                for node in asked:
                    answers[node] = answers[node] + 1 if node in idle else 0
            waiting = {n: p for n, p in waiting.items() if answers[n] < 2}
        for process in waiting.values():
            stop_group(process.proc, timeout=0)
        return [p.name for p in waiting.values()]

    def resume(self) -> None:
        """After ``quiesce``: drop what the last test left queued (its tasks name rows that
        are gone), start the workers it killed again and let every worker take tasks."""
        if not self.broker_up():
            self.restart_broker()  # a failed outage test may have left it stopped
        with self.redis.client() as client:
            queues = {q for p in self.workers() for q in p.queues}
            # kombu keeps a queue's prioritised messages under keys of their own
            steps = ("", "\x06\x163", "\x06\x166", "\x06\x169")
            client.delete(*(q + step for q in queues for step in steps), "unacked", "unacked_index")
        with self._control() as control:
            for process in self.workers():
                if process.proc.poll() is not None:
                    self.processes.remove(process)
                    logged = process.log.stat().st_size
                    again = self.spawn(process.name, process.args, program=process.program)
                    again.queues = process.queues
                    self.wait_ready(again, " ready.", since=logged)
                    continue
                for queue in process.queues:
                    replies = control.add_consumer(
                        queue, destination=[_node(process)], reply=True, timeout=TIMEOUT
                    )
                    if not replies:
                        raise AssertionError(f"{process.name} did not take up {queue!r} again")

    def broker_up(self) -> bool:
        return self.redis.proc is not None and self.redis.proc.poll() is None

    @contextlib.contextmanager
    def _control(self) -> Iterator[Any]:
        """Celery's remote control over this stack's broker (a fresh connection: Redis may
        have been restarted since the last one)."""
        from celery import Celery

        app = Celery(broker=self.redis.url, set_as_current=False)
        try:
            yield app.control
        finally:
            app.close()

    def log_text(self, name: str) -> str:
        return next(p.log for p in self.processes if p.name == name).read_text(errors="replace")

    def logs(self) -> list[tuple[str, str]]:
        sections = [(p.name, tail(p.log)) for p in self.processes]
        return [*sections, ("redis-server", tail(self.redis.log, 30))]

    def stop(self) -> None:
        with contextlib.ExitStack() as stops:  # the last started stops first; all are tried
            for process in self.processes:
                stops.callback(stop_group, process.proc)


def _node(process: Process) -> str:
    """A worker's node name, as Celery's remote control addresses it (--hostname=name@%h)."""
    return f"{process.name}@{socket.gethostname()}"


def _idle(control: Any, nodes: list[str]) -> set[str]:
    """Those of the workers ``nodes`` that answer (a solo worker in a task cannot) with no
    task running, waiting or scheduled (a retry with a countdown waits in the worker)."""
    inspect = control.inspect(destination=nodes, timeout=1.0, limit=len(nodes))
    idle = set(nodes)
    for ask in (inspect.active, inspect.reserved, inspect.scheduled):
        try:
            answer = ask() or {}
        except Exception:  # the broker restarting: none is idle yet
            return set()
        idle &= {node for node, tasks in answer.items() if not tasks}
    return idle


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (gunicorn's workers, a prefork worker's pool)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def start_mailbox() -> tuple[Mailbox, Callable[[], None]]:
    """An SMTP server on a free loopback port keeping what it receives; and its stop."""
    import logging

    from aiosmtpd.controller import Controller

    mailbox = Mailbox()
    mailbox.port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=mailbox.port)
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every command
    controller.start()
    return mailbox, controller.stop


def stop_group(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """stop_process for a process started in a session of its own, then whatever of its
    children is left (a prefork worker's pool, gunicorn's workers). ``timeout`` 0: SIGKILL
    at once (a worker in a task would finish it first on SIGTERM)."""
    if timeout > 0:
        stop_process(proc, timeout)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        proc.wait(10)


# --- the site as a browser sees it ------------------------------------------------------------


def production_env(
    redis: RedisServer, smtp_port: int, database_url: str, site_url: str
) -> dict[str, str]:
    """Production settings (DEBUG off) on the loopback: Redis for cache and broker, the SMTP
    server, the given database."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "firenze_site.settings",
        "DEBUG": "false",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on the loopback
        "DATABASE_URL": database_url,
        "DB_CONN_MAX_AGE": "0",
        "CACHE_URL": redis.url.removesuffix("/0") + "/1",
        "CELERY_BROKER_URL": redis.url,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": "false",
        "EMAIL_USE_SSL": "false",
        "SITE_URL": site_url,
        "WEBPUSH_VAPID_PRIVATE_KEY": "",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("DJANGO_ALLOW_ASYNC_UNSAFE", "CELERY_FILESYSTEM_DIR"):
        env.pop(name, None)
    return env


def session_for(user: Any) -> str:
    """A signed-in session of ``user`` (written by this process, signed with the stack's key),
    as after a sign-in; the cookie value."""
    from django.test import Client
    from django.test.utils import override_settings

    with override_settings(SECRET_KEY=SECRET_KEY):
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value


def request(
    base: str, path: str, session: str, data: dict | None = None
) -> tuple[int | None, str, float]:
    """(status, or None if the connection was cut without an answer; Location; milliseconds)
    of a GET, or a POST of ``data``, with the session and the CSRF cookie and header a page's
    form sends. Redirects are not followed."""
    from http.client import HTTPException
    from urllib.error import HTTPError
    from urllib.parse import urlencode
    from urllib.request import Request

    from bench.login_limit import OPENER

    body = urlencode(data).encode() if data is not None else None
    sent = Request(base + path, data=body, method="POST" if body is not None else "GET")
    sent.add_header("Cookie", f"sessionid={session}; csrftoken={CSRF}")
    sent.add_header("X-CSRFToken", CSRF)
    started = time.perf_counter()
    try:
        try:
            response = OPENER.open(sent, timeout=60)
        except HTTPError as error:
            response = error
        with response:
            response.read()
            status, location = response.status, response.headers.get("Location", "")
    except (OSError, HTTPException):  # the worker serving it was killed: no answer
        return None, "", (time.perf_counter() - started) * 1000
    return status, location, (time.perf_counter() - started) * 1000
