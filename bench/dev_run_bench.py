"""What a newcomer waits for in `make run` (issue 27): an invitation email and a tournament's
next round, measured in the real development stack (scripts/run_dev.py: its own Redis, uvicorn,
the two Celery workers and beat, dev_mail writing each email to var/mail/).

It starts scripts/run_dev.py on a free port with a throw-away SQLite database, finds the Redis
that script started (its child's command line), and then, in this process with the same
database, cache and broker (the settings of `make run`):

- invites ``INVITATIONS`` new addresses to a game, one every 2 s, each in its own transaction:
  the delay from the commit to the .eml file the worker writes (goal: within 5 s);
- starts a Swiss tournament of 4 players (2 rounds of 2-player tables) and ends round 1 by a
  resignation at each table: the delay from the last game's end (its commit) to round 2's
  start (goal: within 10 s); then the same for round 2 and the tournament's "Finished".

`python -m bench.dev_run_bench` (make bench runs it). The stack writes to var/ as `make run`
does (Redis folder, beat's schedule, var/mail/): do not run it beside a `make run` of the same
checkout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack import children, free_port, wait_until  # noqa: E402

INVITATIONS = 5
MAIL = ROOT / "var" / "mail"
GOALS = {"invitation": 5.0, "round": 10.0}
START_TIMEOUT = 180.0


def start_run_dev(database_url: str, log: Path) -> tuple[subprocess.Popen, int]:
    """scripts/run_dev.py on a free port; once it printed its demo line, it and its Redis
    port."""
    port = free_port()
    env = {**os.environ, "RUN_ADDRESS": f"127.0.0.1:{port}", "DATABASE_URL": database_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=ROOT, env={**env, "DEBUG": "true"}, check=True)  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "scripts/run_dev.py"], cwd=ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip

    def running() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"run_dev.py exited:\n{log.read_text(errors='replace')[-3000:]}")
        return "Firenze is running" in log.read_text(errors="replace")

    try:
        wait_until(running, "make run's stack to start", timeout=START_TIMEOUT)
        return proc, redis_port(proc.pid)
    except BaseException:
        stop_run_dev(proc)
        raise


def redis_port(parent: int) -> int:
    """The port of the redis-server ``parent`` started: it names it in its process title
    ("redis-server 127.0.0.1:PORT")."""
    for pid in children(parent):
        title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        if "redis-server" in title:
            return int(title.split()[1].rpartition(":")[2])
    raise RuntimeError("run_dev.py started no redis-server")


def stop_run_dev(proc: subprocess.Popen) -> None:
    """SIGTERM, as Ctrl-C: the script stops its processes in order, Redis last."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def use_stack(database_url: str, redis: int) -> None:
    """This process on the settings of `make run`, sharing its database, cache and broker."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="firenze_site.settings",
        DEBUG="true",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=f"redis://127.0.0.1:{redis}/0",
        CACHE_URL=f"redis://127.0.0.1:{redis}/1",
        LOG_LEVEL="WARNING",
    )
    import django

    django.setup()


def stamp(times: list[float]) -> None:
    times.append(time.time())


def mail_to(address: str, since: float) -> float | None:
    """When the .eml file addressed to ``address`` was written (st_mtime), if it was."""
    for path in MAIL.glob("*.eml"):
        written = path.stat().st_mtime
        if written >= since - 1 and address in path.read_text(errors="replace"):
            return written
    return None


def invitation_delays(tag: str) -> list[float]:
    from django.db import transaction

    from games import lobby
    from tests.factories import UserFactory

    host = UserFactory(username=f"host{tag}")
    game = lobby.create_game(host, num_players=4)
    delays = []
    for number in range(INVITATIONS):
        address = f"invited{tag}-{number}@example.com"
        committed: list[float] = []
        with transaction.atomic():
            transaction.on_commit(partial(stamp, committed))
            lobby.invite_by_email(game, host, address)
        written = wait_until(lambda a=address, c=committed: mail_to(a, c[0]), f"mail to {address}")
        delays.append(written - committed[0])
        time.sleep(2)
    return delays


def end_round(found: Any) -> float:
    """Resign the first player of every table of the current round; the last commit's time."""
    from games.resign import resign
    from tournaments.models import Table

    found.refresh_from_db()
    tables = Table.objects.filter(
        tournament=found, round__number=found.current_round, finished_at=None
    ).exclude(game=None)
    last = 0.0
    for table in tables.select_related("game"):
        seat = table.game.seats.select_related("user").order_by("number").first()
        committed: list[float] = []
        from django.db import transaction

        with transaction.atomic():
            transaction.on_commit(partial(stamp, committed))
            resign(table.game_id, seat.user)
        last = committed[0]
    return last


def tournament_delays(tag: str) -> tuple[float, float]:
    """(round 1's last game -> round 2 started, round 2's last game -> Finished), seconds."""
    from django.utils import timezone

    from tests.factories import UserFactory
    from tournaments import rounds, signup
    from tournaments.models import Round, Tournament

    creator = UserFactory(username=f"org{tag}")
    found = signup.create(
        creator, name=f"Bench Cup {tag}", fmt="swiss", table_size=2,
        signup_closes=timezone.now() + timedelta(hours=1), max_players=8, rounds=2,
    )  # fmt: skip
    for number in range(4):
        signup.sign_up(found, UserFactory(username=f"p{tag}-{number}"))
    Tournament.objects.filter(pk=found.pk).update(signup_closes=timezone.now())
    assert rounds.start(found.pk)
    ended = end_round(found)
    second = wait_until(
        lambda: Round.objects.filter(tournament=found, number=2).first(), "round 2 to start"
    )
    to_round = second.started_at.timestamp() - ended
    ended = end_round(found)

    def finished() -> datetime | None:
        found.refresh_from_db()
        return found.finished_at if found.status == Tournament.Status.FINISHED else None

    to_finished = wait_until(finished, "the tournament to finish").timestamp() - ended
    return to_round, to_finished


def main() -> None:
    tag = str(int(time.time()) % 10**6)
    print(f"make run (scripts/run_dev.py), load average {os.getloadavg()[0]:.1f}:")
    with tempfile.TemporaryDirectory() as folder:
        database_url = f"sqlite:///{folder}/dev.sqlite3"
        proc, redis = start_run_dev(database_url, Path(folder) / "run_dev.log")
        try:
            use_stack(database_url, redis)
            invitations = invitation_delays(tag)
            to_round, to_finished = tournament_delays(tag)
        finally:
            stop_run_dev(proc)
    worst = max(invitations)
    verdict = "met" if worst <= GOALS["invitation"] else "NOT met"
    print(
        f"  invitation email, commit -> var/mail/, {len(invitations)} emails: median "
        f"{statistics.median(invitations):.2f} s, worst {worst:.2f} s "
        f"(goal: within {GOALS['invitation']:.0f} s, {verdict})"
    )
    for label, delay in (("round 2 started", to_round), ('"Finished"', to_finished)):
        verdict = "met" if delay <= GOALS["round"] else "NOT met"
        print(
            f"  tournament: last game of the round ended -> {label}: {delay:.2f} s "
            f"(goal: within {GOALS['round']:.0f} s, {verdict})"
        )
    print(f"  (load average after {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
