"""How soon a player hears about their turn by webhook and by push (issue 12).

The time from the commit of the move that passes the turn to the arrival of the webhook POST,
and of the encrypted push at the push service, as a real deployment runs it: the move commits
in this process, the outbox row goes to a broker, a separate Celery worker process claims it and
sends it to receivers on the loopback (tests/receivers.py; the push one is decrypted, so it is a
real push). Median and p95 of 20 turns, for each broker side by side in one run:

- the embedded default: SQLite and the filesystem broker (what `make run` uses),
- SQLite with Redis as the broker,
- PostgreSQL with Redis, when BENCH_POSTGRES_URL is set (make bench sets it).

Goal (our choice; the issue sets none): the median under 2 s on the embedded default (its
broker is polled about once a second) and under 0.5 s with Redis.

`python -m bench.notify_bench` runs every configuration, each in a child process of its own
(`--child`), because Django and Celery bind to one database and broker per process.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = 20
GOALS = {"filesystem": 2.0, "redis": 0.5}


# --- the parent: one child per configuration ------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Redis:
    def __init__(self, folder: str) -> None:
        self.port = free_port()
        binary = shutil.which("redis-server") or "/usr/sbin/redis-server"
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                folder,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def child_env(database_url: str, broker_url: str, folder: str) -> dict[str, str]:
    from notifications.management.commands.vapid_keys import new_private_key

    private, _ = new_private_key()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "firenze_site.settings",
        "DEBUG": "true",
        "DATABASE_URL": database_url,
        "DB_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker_url,
        "CELERY_FILESYSTEM_DIR": os.path.join(folder, "celery"),
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "NOTIFICATIONS_ALLOW_HTTP_TARGETS": "true",
        "NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS": "true",
        "WEBPUSH_VAPID_PRIVATE_KEY": private,
        "WEBPUSH_VAPID_SUBJECT": "mailto:bench@firenze.example",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


def run_all() -> None:
    print(
        f"Notifications: move commit -> webhook request / push at the push service, "
        f"{SAMPLES} turns each (a separate Celery worker, --pool=solo)"
    )
    configs: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        redis = Redis(folder)
        try:
            configs = [
                (
                    "SQLite + filesystem broker (embedded default)",
                    f"sqlite:///{folder}/fs.sqlite3",
                    "filesystem://",
                ),
                ("SQLite + Redis", f"sqlite:///{folder}/redis.sqlite3", redis.url),
            ]
            postgres = os.environ.get("BENCH_POSTGRES_URL")
            if postgres:
                configs.append(("PostgreSQL + Redis", postgres, redis.url))
            for name, database, broker in configs:
                env = child_env(database, broker, folder)
                subprocess.run(
                    [sys.executable, "-m", "bench.notify_bench", "--child", name],
                    cwd=ROOT,
                    env=env,
                    check=True,
                )
        finally:
            redis.stop()
    if not os.environ.get("BENCH_POSTGRES_URL"):
        print("  PostgreSQL + Redis: not run (set BENCH_POSTGRES_URL, as make bench does)")


# --- the child: one configuration -----------------------------------------------------------


def start_worker(log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """A Celery worker (solo pool), returned once it says it is ready; ``env``: its environment
    (default: this process's)."""
    celery = str(Path(sys.executable).parent / "celery")
    handle = log.open("wb")
    proc = subprocess.Popen(
        [
            celery,
            "-A",
            "firenze_site",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-Q",
            "celery,pages",
        ],
        cwd=ROOT,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90
    while " ready." not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    return proc


def stamp(times: list[float]) -> None:
    """Registered before the move's own on_commit callbacks, so it runs first after commit."""
    times.append(time.time())


def child(name: str) -> None:
    sys.path.insert(0, str(ROOT))
    import logging

    import django

    django.setup()
    logging.getLogger("kombu").setLevel(logging.ERROR)
    from allauth.account.models import EmailAddress
    from django.core.management import call_command
    from django.db import transaction

    from games import lobby, play
    from games.rules.firenze import rules
    from games.rules.firenze.rules.bots import greedy
    from notifications.models import PushSubscription, Webhook
    from tests.factories import UserFactory
    from tests.receivers import Device, Receiver

    call_command("migrate", verbosity=0)  # a throw-away database: a temporary file or cluster
    receiver = Receiver().start()
    people = [UserFactory(username=f"bench{i}-{random.randrange(10**9)}") for i in range(2)]
    devices = {}
    for person in people:
        EmailAddress.objects.filter(user=person).update(verified=False)  # no emails to send
        Webhook.objects.create(user=person, url=receiver.url(f"/hook/{person.pk}"), format="json")
        device = Device(receiver, f"p{person.pk}")
        PushSubscription.objects.create(
            user=person,
            endpoint=device.endpoint,
            p256dh=device.p256dh,
            auth=device.subscription()["auth"],
        )
        devices[person.pk] = device
    game = lobby.create_game(people[0], num_players=2)
    lobby.join(game, people[1])  # the table is full: the game starts

    log = Path(os.environ["CELERY_FILESYSTEM_DIR"]).parent / f"worker-{os.getpid()}.log"
    worker = start_worker(log)
    for person in people:  # the game-started news first, so each turn's news is counted alone
        receiver.wait_for(f"/hook/{person.pk}")
        receiver.wait_for(devices[person.pk].path)
    webhook_times, push_times = [], []
    rng = random.Random(12)
    try:
        # Warm the worker up (imports, first connections): one turn not counted.
        while len(push_times) < SAMPLES + 1:
            game.refresh_from_db()
            if not game.is_active:
                raise RuntimeError("the game ended before enough turns")
            mover = game.seats.get(number=game.acting_seat).user
            state = game.load_state()
            action = greedy(state, rng)
            paths = [f"/hook/{p.pk}" for p in people] + [d.path for d in devices.values()]
            before = {path: len(receiver.at(path)) for path in paths}
            committed: list[float] = []
            with transaction.atomic():
                transaction.on_commit(partial(stamp, committed))
                play.submit_move(game.pk, mover, action, game.version)
            game.refresh_from_db()
            if game.acting_seat == rules.acting_seat(state) or not game.is_active:
                continue  # the turn did not pass
            waiting = game.seats.get(number=game.acting_seat).user
            hook_path, device = f"/hook/{waiting.pk}", devices[waiting.pk]
            hooks = receiver.wait_for(hook_path, before[hook_path] + 1)
            pushed = receiver.wait_for(device.path, before[device.path] + 1)
            assert json.loads(hooks[-1].body)["event"] == "your_turn"
            assert device.read(pushed[-1])["kind"] == "your_turn"
            webhook_times.append(hooks[-1].at - committed[0])
            push_times.append(pushed[-1].at - committed[0])
    finally:
        worker.terminate()
        worker.wait(15)
        receiver.stop()
    broker = "redis" if os.environ["CELERY_BROKER_URL"].startswith("redis") else "filesystem"
    goal = GOALS[broker]
    for label, times in (("webhook", webhook_times[1:]), ("push", push_times[1:])):
        median = statistics.median(times)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        verdict = "met" if median <= goal else "NOT met"
        print(
            f"  {name:48s} {label:8s} median {median * 1000:7.0f} ms  p95 {p95 * 1000:7.0f} ms"
            f"   (goal: median <= {goal * 1000:.0f} ms, {verdict})"
        )


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "firenze_site.settings_test")
        run_all()
