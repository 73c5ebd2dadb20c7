"""Emails under a load of bot games (issue 27): page redraws must never crowd out mail.

The processes of `make run` (scripts/run_dev.py) on the production settings: redis-server as
broker and cache, a Celery worker of the "celery" and "pages" queues (prefork, one process),
one of the "bots" queue (prefork, one process) and beat, an SMTP server that keeps what it
receives (bench/stack.py). This process plays ``GAMES`` games of a person against a bot: it
makes the person's moves as fast as it can (the bot worker answers each), so every game's page
is redrawn again and again; meanwhile it invites a new address to a game every
``INVITE_EVERY`` seconds (an invitation email, sent by the worker through the outbox's task).

It prints, with their goals:

- the lengths of the "pages", "celery" and "bots" queues while the load runs (largest and
  median of samples every 0.2 s). A redraw is queued only if none of its game is pending
  (games/redraws.py), so "pages" never holds more than one message per game;
- the email delay, from the commit of the invitation to the SMTP server's receipt: p50 and
  p95 (goal: p95 within 5 s);
- the moves made (people's and bots'), so a run that did no load shows it.

Database: a SQLite file, as `make run` uses (``--database URL`` for another).
`python -m bench.mail_load_bench [--games 50] [--seconds 60]`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack import (  # noqa: E402
    Mailbox,
    RedisServer,
    Stack,
    production_env,
    wait_until,
)

GAMES = 50
SECONDS = 60.0
INVITE_EVERY = 1.0
GOAL_P95 = 5.0
QUEUES = ("pages", "celery", "bots")


class TimedMailbox(Mailbox):
    """A Mailbox that also notes when each recipient's message arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: dict[str, float] = {}

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        now = time.time()
        for address in envelope.rcpt_tos:
            self.arrived.setdefault(address.lower(), now)
        return await super().handle_DATA(server, session, envelope)


def start_timed_mailbox() -> tuple[TimedMailbox, Any]:
    import logging

    from aiosmtpd.controller import Controller

    from bench.stack import free_port

    mailbox = TimedMailbox()
    mailbox.port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=mailbox.port)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    controller.start()
    return mailbox, controller.stop


def queue_length(client: Any, queue: str) -> int:
    """Messages waiting in a queue of the Redis transport (its priority lists included)."""
    return sum(client.llen(key) for key in client.scan_iter(match=f"{queue}*", count=100))


class Sampler(threading.Thread):
    def __init__(self, redis: RedisServer) -> None:
        super().__init__(daemon=True)
        self.redis = redis
        self.samples: dict[str, list[int]] = {queue: [] for queue in QUEUES}
        self.stopping = threading.Event()

    def run(self) -> None:
        with self.redis.client() as client:
            while not self.stopping.wait(0.2):
                for queue in QUEUES:
                    self.samples[queue].append(queue_length(client, queue))


def stamp(times: list[float]) -> None:
    """Registered before the invitation's own on_commit callbacks, so it runs first."""
    times.append(time.time())


def invite(game: Any, by: Any, address: str) -> float:
    """Invite ``address`` (no account: the invitation email); the commit's time."""
    from django.db import transaction

    from games import lobby

    committed: list[float] = []
    with transaction.atomic():
        transaction.on_commit(partial(stamp, committed))
        lobby.invite_by_email(game, by, address)
    return committed[0]


def play(games: list[int], people: dict[int, Any], until: float, moves: list[int]) -> None:
    """Make the person's move in every game where it is their turn, round and round."""
    from django.db import connection

    from games import play as play_service
    from games.errors import GameError
    from games.models import Game

    rng = random.Random(27)
    try:
        while time.monotonic() < until:
            moved = False
            for game in Game.objects.filter(pk__in=games, status=Game.Status.ACTIVE):
                seat = game.seats.get(number=game.acting_seat)
                if seat.user_id != people[game.pk].pk or seat.bot_plays:
                    continue
                action = game.engine.bots[game.engine.default_bot](game.load_state(), rng)
                with contextlib.suppress(GameError):  # the bot moved on under us
                    play_service.submit_move(game.pk, people[game.pk], action, game.version)
                    moves[0] += 1
                    moved = True
                if time.monotonic() >= until:
                    return
            if not moved:
                time.sleep(0.05)
    finally:
        connection.close()


def run(games_count: int, seconds: float, directory: Path, database_url: str) -> list[str]:
    from django.conf import settings

    redis = RedisServer(directory)
    with contextlib.ExitStack() as cleanup:
        redis.start()
        cleanup.callback(redis.stop)
        mailbox, stop_mailbox = start_timed_mailbox()
        cleanup.callback(stop_mailbox)
        env = production_env(redis, mailbox.port, database_url, "http://127.0.0.1:8000")
        os.environ.update({k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"})
        os.environ["DJANGO_SETTINGS_MODULE"] = "firenze_site.settings"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", "--noinput", verbosity=0)
        assert not getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False)
        stack = Stack(directory, redis, mailbox, env)
        cleanup.callback(stack.stop)
        # As scripts/run_dev.py starts them: one worker of the tasks and redraws, one of bots.
        worker = stack.start_worker("worker", pool="prefork", concurrency=1, queues="celery,pages")
        bots = stack.start_worker("bots", pool="prefork", concurrency=1, queues="bots")
        stack.start_beat()
        for process in (worker, bots):
            stack.wait_ready(process, " ready.")
        return load(stack, mailbox, games_count, seconds)
    return []


def load(stack: Stack, mailbox: TimedMailbox, games_count: int, seconds: float) -> list[str]:
    from django.contrib.auth import get_user_model

    from games import lobby
    from games.models import Move

    User = get_user_model()
    tag = random.randrange(10**6)
    people = [User.objects.create(username=f"load{tag}-{n}") for n in range(games_count + 1)]
    host, players = people[0], people[1:]
    open_game = lobby.create_game(host, num_players=4)
    games = {lobby.play_bots_now(person, 2).pk: person for person in players}
    moves_before = Move.objects.count()
    sampler = Sampler(stack.redis)
    sampler.start()
    people_moves = [0]
    until = time.monotonic() + seconds
    player = threading.Thread(target=play, args=(list(games), games, until, people_moves))
    player.start()
    sent: dict[str, float] = {}
    number = 0
    while time.monotonic() < until:
        address = f"invited{tag}-{number}@example.com"
        sent[address] = invite(open_game, host, address)
        number += 1
        time.sleep(INVITE_EVERY)
    player.join()
    wait_until(lambda: set(sent) <= set(mailbox.arrived), "every invitation email", timeout=120)
    sampler.stopping.set()
    sampler.join()
    moves = Move.objects.count() - moves_before
    delays = sorted(mailbox.arrived[address] - at for address, at in sent.items())
    p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
    lines = [
        f"load: {games_count} games of a person against a bot for {seconds:.0f} s: "
        f"{moves} moves ({people_moves[0]} the people's, the rest the bots'), "
        f"{moves / seconds:.1f} a second; workers as in make run (celery+pages, bots), Redis",
    ]
    for queue in QUEUES:
        samples = sampler.samples[queue]
        limit = ""
        if queue == "pages":
            verdict = "met" if max(samples) <= games_count else "NOT met"
            limit = f"  (goal: at most {games_count}, one per game: {verdict})"
        lines.append(
            f"queue {queue:6s}: largest {max(samples)}, median {statistics.median(samples):.0f} "
            f"({len(samples)} samples){limit}"
        )
    verdict = "met" if p95 <= GOAL_P95 else "NOT met"
    lines.append(
        f"invitation email delay (commit -> SMTP), {len(delays)} emails: "
        f"p50 {statistics.median(delays):.2f} s, p95 {p95:.2f} s, worst {delays[-1]:.2f} s "
        f"(goal: p95 <= {GOAL_P95:.0f} s, {verdict})"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--database", default="", help="a database URL (default: SQLite)")
    options = parser.parse_args()
    print(f"Emails under load (load average {os.getloadavg()[0]:.1f}):")
    with tempfile.TemporaryDirectory() as folder:
        database = options.database or f"sqlite:///{folder}/load.sqlite3"
        lines = run(options.games, options.seconds, Path(folder), database)
    kind = "PostgreSQL" if database.startswith("postgres") else "SQLite"
    print("\n".join(f"  {line}" for line in lines))
    print(f"  ({kind}; load average after {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
