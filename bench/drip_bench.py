"""Can players stall the site with webhook tests to a server that answers one byte a second?

The production stack on the loopback (bench/stack.py): gunicorn with 4 sync workers, a Celery
worker (prefork, 2 processes), Redis, SQLite; a drip server (tests/receivers.py) that never
finishes an answer. Eight players save it as their webhook and press "Send a test" at the same
moment. Printed, side by side in one run: the latency of the bare endpoint (/healthz) while
idle and while the eight tests are under way (goal: the median within 1.5x of idle), how long
the eight POSTs took to answer, and how long after them every test was over (each request is
cut at its deadline, NOTIFICATIONS_HTTP_DEADLINE: the worker is free again).

Before the tests were queued, each POST held a web worker until gunicorn killed it (30 s);
four took /healthz from 0.9 s to 32 s (issue 18).
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.login_limit import _wait_for  # noqa: E402
from bench.stack import (  # noqa: E402
    RedisServer,
    Stack,
    free_port,
    production_env,
    request,
    session_for,
    start_mailbox,
    wait_until,
)

TESTS = 8
DEADLINE = 10.0  # the production default of NOTIFICATIONS_HTTP_DEADLINE
GOAL = 1.5


def healthz_ms(base: str, seconds: float) -> list[float]:
    """/healthz one request at a time for ``seconds``: each one's milliseconds."""
    times = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        status, _, ms = request(base, "/healthz", "")
        assert status == 200, status
        times.append(ms)
    return times


def p95(times: list[float]) -> float:
    return sorted(times)[min(len(times) - 1, int(0.95 * len(times)))]


def child(folder: Path) -> None:
    """The harness: a Django process on the bench's database (test settings: no Celery or
    email of its own) that makes the players and their sessions and reads the outcome."""
    import django

    django.setup()
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from notifications.models import Notification, Webhook
    from tests.receivers import DripServer

    call_command("migrate", verbosity=0)
    drip = DripServer("headers").start()
    redis = RedisServer(folder)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(drip.stop)
        redis.start()
        cleanup.callback(redis.stop)
        mailbox, stop_mailbox = start_mailbox()
        cleanup.callback(stop_mailbox)
        env = production_env(redis, mailbox.port, os.environ["DATABASE_URL"], base)
        env.update(
            NOTIFICATIONS_ALLOW_HTTP_TARGETS="true",  # the drip server is on the loopback
            NOTIFICATIONS_ALLOW_LOOPBACK_TARGETS="true",
            NOTIFICATIONS_HTTP_DEADLINE=str(DEADLINE),
        )
        stack = Stack(folder, redis, mailbox, env)
        cleanup.callback(stack.stop)
        stack.spawn("collectstatic", ["manage.py", "collectstatic", "--noinput", "-v", "0"],
                    program=[sys.executable]).proc.wait(300)  # fmt: skip
        stack.start_web("web", port, 4)
        worker = stack.start_worker("worker", pool="prefork", concurrency=2)
        stack.wait_ready(worker, " ready.")
        _wait_for(base, timeout=120)

        User = get_user_model()
        sessions = []
        for number in range(TESTS):
            user = User(username=f"drip{number}", email=f"drip{number}@example.com",
                        display_name=f"Drip {number}")  # fmt: skip
            user.set_unusable_password()
            user.save()
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
            Webhook.objects.create(user=user, url=drip.url(f"/hook/{number}"), format="json")
            sessions.append(session_for(user))
        healthz_ms(base, 2)  # warm every worker
        idle = healthz_ms(base, 8)

        posts: list[float] = []
        sent_at = time.monotonic()
        during: list[float] = []
        watcher = threading.Thread(target=lambda: during.extend(healthz_ms(base, DEADLINE)))
        watcher.start()
        with ThreadPoolExecutor(max_workers=TESTS) as pool:
            answers = list(pool.map(
                lambda session: request(base, "/accounts/notifications/webhook/test/", session,
                                        {}), sessions))  # fmt: skip
        posts = [ms for _, _, ms in answers]
        statuses = {status for status, _, _ in answers}
        watcher.join()
        tests = Notification.objects.filter(kind="test")
        wait_until(
            lambda: tests.count() == TESTS and not tests.exclude(status="failed").exists(),
            "every test to be over",
            timeout=TESTS * DEADLINE + 60,
        )
        over = time.monotonic() - sent_at
        reasons = set(tests.values_list("last_error", flat=True))

    ratio = statistics.median(during) / statistics.median(idle)
    print(
        f"  /healthz one at a time, idle: median {statistics.median(idle):.1f} ms, p95 "
        f"{p95(idle):.1f} ms ({len(idle)} requests); while {TESTS} webhook tests to a server "
        f"answering a byte a second are under way: median {statistics.median(during):.1f} ms, "
        f"p95 {p95(during):.1f} ms ({len(during)} requests): {ratio:.2f}x idle (goal <= "
        f"{GOAL}x: {'met' if ratio <= GOAL else 'NOT met'})"
    )
    print(
        f"  the {TESTS} 'Send a test' POSTs answered {sorted(statuses)} in {max(posts):.0f} ms "
        f"at most (queued, not sent in the request); every test was over "
        f"{over:.1f} s after they were sent, 2 worker processes, each request cut at its "
        f"{DEADLINE:g} s deadline (expected about {TESTS / 2 * DEADLINE:.0f} s): "
        f"{'; '.join(sorted(reasons))[:160]}"
    )


def main() -> None:
    print(
        f"Webhook tests to a drip server (gunicorn 4 workers, production settings, SQLite, "
        f"Redis, a Celery worker; load average {', '.join(f'{x:.1f}' for x in os.getloadavg())})"
    )
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "firenze_site.settings_test",
            "DATABASE_URL": f"sqlite:///{folder}/drip.sqlite3",
        }
        import subprocess

        subprocess.run(
            [sys.executable, "-m", "bench.drip_bench", "--child", folder],
            cwd=ROOT,
            env=env,
            check=True,
        )


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(Path(sys.argv[2]))
    else:
        main()
