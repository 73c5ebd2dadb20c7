"""The soak test with faults: the production stack plays games to the end while its parts are
killed, and afterwards nothing is lost, doubled or left half-done.

The stack runs on this machine as production runs it (DEBUG off): gunicorn with 4 sync workers,
2 Celery workers (prefork, the pool that enforces time limits) and beat, PostgreSQL, Redis
(cache and broker), an SMTP server that keeps what it receives (bench/stack.py starts them all).
Two accounts per game create and join it and then play it through HTTP, each move the built-in
bot's choice for the acting seat, as many games at once as ``Plan.concurrency``. Some games are
played to the engine's end; in some a seat never moves, so the harness runs its clock down, the
sweep's bot plays its timed-out turns and then the seat stays on autopilot; the rest end when a
player resigns. After ``Plan.calm_seconds`` a fault loop starts: every ``Plan.fault_every``
seconds, in turn, a random gunicorn worker is killed (SIGKILL; the master forks another), a
Celery worker and its pool are killed and started again, and Redis is killed and started again
empty (every queued task, cached page, session copy and rate-limit count gone).

At the end it checks and prints:

- every game's log replays to its stored state (manage.py replay_games);
- no move applied twice or lost: the moves people made in each game's log are exactly the
  move POSTs that were accepted, in order, plus some of those a killed worker cut off (whose
  answer never came), each at most once;
- every email sent at most once (counted by the X-Firenze-Notification header the SMTP server
  received), and every one that was due sent, or recorded as skipped or failed with its
  reason: none left pending or sending;
- no 5xx, and no more requests cut off than web workers killed;
- p50/p95 move latency without faults and with them.

``make soak`` runs 200 games (about half an hour here); tests/integration/test_soak.py runs a
few games with one fault of each kind in ``make test``. ``python -m bench.soak --help``.
docs/operations-soak.md says what the figures mean.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import re
import secrets
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.login_limit import _wait_for  # noqa: E402
from bench.stack import (  # noqa: E402
    Process,
    RedisServer,
    Stack,
    children,
    free_port,
    production_env,
    request,
    session_for,
    start_mailbox,
    wait_until,
)

HEADER = "X-Firenze-Notification"
CREATE = {"num_players": "2", "neutral_seals": "5", "seal_placement": "recommended",
          "time_limit": str(3 * 86400), "is_public": "1", "auto_start": "on"}  # fmt: skip
FAULTS = ("web worker killed", "Celery worker killed", "Redis restarted")


@dataclass
class Plan:
    games: int = 200
    concurrency: int = 12  # games played at once
    played_out_every: int = 20  # every n-th game is played to the engine's end (0: none)
    absent_every: int = 40  # every n-th game a seat never moves: timeouts, then autopilot
    # Every n-th game its players wait this long at the start of each turn, as a person
    # would: their turn emails are due long enough to be sent (others move on at once).
    pause_every: int = 3
    pause_seconds: float = 2.0
    resign_after: tuple[int, int] = (10, 40)  # moves before the other games are resigned
    calm_seconds: float = 60.0  # without faults first: the latency to compare with
    fault_every: float = 4.0
    max_faults: int | None = None  # None: until the games are over
    faults: bool = True  # False: the throughput mode, no fault at all (--no-faults)
    web_workers: int = 4
    celery_workers: int = 2
    stuck_after: float = 60.0  # NOTIFICATIONS_STUCK_AFTER_SECONDS of the stack
    settle_timeout: float = 300.0  # for the last games and emails after the play


# The throughput mode (docs/capacity.md): people's games only, no faults, nobody pausing, every
# game resigned after 10 to 40 moves; the harness's players move as fast as the site answers.
THROUGHPUT = Plan(games=50, played_out_every=0, absent_every=0, pause_every=0, faults=False)


@dataclass
class Attempt:
    """One move POST and what came of it (status None: cut off, no answer)."""

    game: int
    seat: int
    version: int  # the version it was posted against
    action: dict[str, Any]
    status: int | None
    ms: float
    faulted: bool
    at: float = 0.0  # time.monotonic() of the answer


@dataclass
class Record:
    attempts: list[Attempt] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)  # every request's status
    cut: int = 0  # requests of any kind without an answer
    faults: Counter[str] = field(default_factory=Counter)
    faults_on: bool = False
    faults_done: threading.Event = field(default_factory=threading.Event)
    stopping: threading.Event = field(default_factory=threading.Event)  # the run is aborted
    restarts: Counter[str] = field(default_factory=Counter)  # processes that exited by themselves
    processes: threading.Lock = field(default_factory=threading.Lock)  # the stack's process list
    games: dict[int, str] = field(default_factory=dict)  # game id -> how it ended
    ended: list[float] = field(default_factory=list)  # time.monotonic() each game was over
    lock: threading.Lock = field(default_factory=threading.Lock)

    def request(self, status: int | None, ms: float = 0.0) -> None:
        with self.lock:
            if status is None:
                self.cut += 1
            else:
                self.statuses[status] += 1


# --- HTTP as the players' browsers send it ----------------------------------------------------


def http(
    base: str, path: str, session: str, record: Record, data: dict | None = None
) -> tuple[int | None, str, float]:
    """One request of a player's browser (bench.stack.request), counted."""
    status, location, ms = request(base, path, session, data)
    record.request(status, ms)
    return status, location, ms


# --- one game -------------------------------------------------------------------------------


@dataclass
class Table:
    index: int
    players: list[Any]  # the two accounts
    sessions: dict[int, str]  # user id -> session key
    played_out: bool
    absent: bool
    resign_after: int
    pause: float  # seconds at the start of each of its turns


def play_game(base: str, table: Table, record: Record, deadline: float) -> None:
    """Create, join and play one game through HTTP until it is over."""
    from django.db import connection

    try:
        _play_game(base, table, record, deadline)
    finally:
        connection.close()  # this thread's


def _play_game(base: str, table: Table, record: Record, deadline: float) -> None:
    from games.models import Game

    game_id = create_and_join(base, table, record, deadline)
    rng = random.Random(f"soak/{table.index}")
    absent_user = table.players[1].pk if table.absent else None
    moves = 0
    last_seat = None
    while time.monotonic() < deadline and not record.stopping.is_set():
        game = Game.objects.get(pk=game_id)
        if game.is_finished:
            break
        seat = game.seats.get(number=game.acting_seat)
        if table.pause and seat.number != last_seat:
            last_seat = seat.number
            time.sleep(table.pause)  # a new turn: a person reads the board (and the email)
            continue
        if seat.bot_plays or seat.user_id == absent_user:
            if not seat.bot_plays:
                run_clock_down(game)  # the sweep's bot plays the timed-out turn
            time.sleep(0.3)
            continue
        session = table.sessions[seat.user_id]
        # A game that is to be resigned waits for the faults of a short run to be over.
        if not table.played_out and moves >= table.resign_after and record.faults_done.is_set():
            http(base, f"/games/{game_id}/resign/", session, record, {"confirm": "on"})
            continue
        engine = game.engine
        action = engine.bots[engine.default_bot](game.load_state(), rng)
        data = {"action": json.dumps(action), "version": str(game.version)}
        faulted = record.faults_on
        status, _, ms = http(base, f"/games/{game_id}/move/", session, record, data)
        with record.lock:
            record.attempts.append(
                Attempt(
                    game_id,
                    seat.number,
                    game.version,
                    action,
                    status,
                    ms,
                    faulted,
                    time.monotonic(),
                )  # fmt: skip
            )
        if status == 302:
            moves += 1
        elif status == 429:
            time.sleep(1)
    game = Game.objects.get(pk=game_id)
    ending = "unfinished"
    if game.is_finished:
        ending = "resigned" if game.ended_by_resignation else "played out"
        if game.seats.filter(autopilot=True, resigned_at=None).exists():
            ending = "played out, a seat on autopilot"
    with record.lock:
        record.games[game_id] = ending
        record.ended.append(time.monotonic())


def create_and_join(base: str, table: Table, record: Record, deadline: float) -> int:
    """The first player creates the game, the second joins it (it starts). A request cut off
    is looked up in the database and sent again if it did not happen."""
    from games.models import Game

    creator, joiner = table.players
    game_id = None
    while game_id is None and time.monotonic() < deadline:
        status, location, _ = http(base, "/games/new/", table.sessions[creator.pk], record, CREATE)
        found = re.search(r"/games/(\d+)/", location)
        if status in (302, 303) and found:
            game_id = int(found.group(1))
        elif status is None:  # did it create the game before the worker died?
            game_id = Game.objects.filter(creator=creator).values_list("pk", flat=True).first()
        else:
            time.sleep(1)
    for _attempt in range(20):
        game = Game.objects.get(pk=game_id)
        if game.is_active:
            return game.pk
        if not game.seats.filter(user=joiner).exists():
            http(base, f"/games/{game_id}/join/", table.sessions[joiner.pk], record, {})
        else:
            time.sleep(0.5)
    raise RuntimeError(f"game {game_id} did not start: {Game.objects.get(pk=game_id).status}")


def run_clock_down(game: Any) -> None:
    """The absent player's clock runs out at once (their time limit is days): the sweep of the
    stack times the turn out and its bot plays it; after three, the seat is on autopilot."""
    from django.utils import timezone

    from games.models import Game

    soon = timezone.now() - timezone.timedelta(seconds=1)
    Game.objects.filter(pk=game.pk, version=game.version, deadline__gt=soon).update(deadline=soon)


# --- the faults -----------------------------------------------------------------------------


class FaultLoop(threading.Thread):
    """Every ``every`` seconds the next fault, in turn: a gunicorn worker, a Celery worker (and
    its pool), Redis; each killed with SIGKILL, the Celery worker and Redis started again."""

    def __init__(self, stack: Stack, web: Process, plan: Plan, record: Record) -> None:
        super().__init__(daemon=True)
        self.stack, self.web, self.plan, self.record = stack, web, plan, record
        self.stopping = threading.Event()
        self.errors: list[str] = []

    def run(self) -> None:
        try:
            self._run()
        finally:
            self.record.faults_done.set()

    def _run(self) -> None:
        number = 0
        rng = random.Random(7)
        while not self.stopping.wait(self.plan.fault_every):
            if self.plan.max_faults is not None and number >= self.plan.max_faults:
                return
            kind = FAULTS[number % len(FAULTS)]
            try:
                {FAULTS[0]: self.kill_web, FAULTS[1]: self.kill_celery,
                 FAULTS[2]: self.restart_redis}[kind](rng)  # fmt: skip
            except Exception as exc:  # a fault that could not be made is reported, not hidden
                self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            else:
                with self.record.lock:
                    self.record.faults[kind] += 1
            number += 1

    def kill_web(self, rng: random.Random) -> None:
        os.kill(rng.choice(children(self.web.proc.pid)), signal.SIGKILL)

    def kill_celery(self, rng: random.Random) -> None:
        with self.record.processes:
            workers = [p for p in self.stack.processes if p.name.startswith("worker")]
            victim = rng.choice([p for p in workers if p.proc.poll() is None])
            os.killpg(victim.proc.pid, signal.SIGKILL)
            victim.proc.wait(10)
            self.stack.processes.remove(victim)
            self.stack.start_worker(victim.name, pool="prefork", concurrency=2)

    def restart_redis(self, rng: random.Random) -> None:
        self.stack.redis.crash()
        time.sleep(0.5)
        self.stack.redis.start()


class Supervisor(threading.Thread):
    """What systemd's Restart=always does in production: a Celery worker or beat that exited
    by itself is started again at once (a worker can exit on its own when the broker goes
    away: kombu's "Unrecoverable error" while it reconnects). Each restart is counted."""

    def __init__(self, stack: Stack, record: Record) -> None:
        super().__init__(daemon=True)
        self.stack, self.record = stack, record
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(0.5):
            with self.record.processes:
                for process in list(self.stack.processes):
                    if process.proc.poll() is None or process.name == "collectstatic":
                        continue
                    self.stack.processes.remove(process)
                    if process.name == "beat":
                        (self.stack.directory / "beat.pid").unlink(missing_ok=True)
                        self.stack.start_beat()
                    elif process.name.startswith("worker"):
                        self.stack.start_worker(process.name, pool="prefork", concurrency=2)
                    else:
                        continue
                    self.record.restarts[process.name.rstrip("0123456789")] += 1


# --- the run --------------------------------------------------------------------------------


def accounts(count: int) -> list[Any]:
    """Players with a confirmed address (so turn emails go out) and no password (they are
    signed in by session, as after a sign-in)."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    User = get_user_model()
    tag = secrets.token_hex(3)
    made = []
    for number in range(count):
        user = User(username=f"soak{tag}{number}", email=f"soak{tag}{number}@example.com",
                    display_name=f"Soak {tag} {number}")  # fmt: skip
        user.set_unusable_password()
        user.save()
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        made.append(user)
    return made


def run(plan: Plan, database_url: str, directory: Path, *, say: Any = print) -> Report:
    """Start the stack, play, break things, check; the figures."""
    redis = RedisServer(directory)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    record = Record()
    if plan.max_faults is None or not plan.faults:
        record.faults_done.set()  # faults until the end (or none): games are resigned when due
    with contextlib.ExitStack() as cleanup:
        redis.start()
        cleanup.callback(redis.stop)
        mailbox, stop_mailbox = start_mailbox()
        cleanup.callback(stop_mailbox)
        env = production_env(redis, mailbox.port, database_url, base)
        # The sweeps run often, so what a fault dropped is picked up within seconds.
        env.update(
            NOTIFICATIONS_SEND_PENDING_SECONDS="2",
            NOTIFICATIONS_PENDING_AFTER_SECONDS="5",
            NOTIFICATIONS_STUCK_AFTER_SECONDS=str(plan.stuck_after),
            FIRENZE_SWEEP_SECONDS="3",
        )
        stack = Stack(directory, redis, mailbox, env)
        cleanup.callback(stack.stop)
        say("soak: collecting static files, starting gunicorn, Celery and beat...")
        stack.spawn("collectstatic", ["manage.py", "collectstatic", "--noinput", "-v", "0"],
                    program=[sys.executable]).proc.wait(300)  # fmt: skip
        web = stack.start_web("web", port, plan.web_workers)
        for number in range(plan.celery_workers):
            stack.start_worker(f"worker{number + 1}", pool="prefork", concurrency=2)
        stack.start_beat()
        for process in stack.processes:
            if process.name.startswith("worker"):
                stack.wait_ready(process, " ready.")
        _wait_for(base, timeout=120)
        supervisor = Supervisor(stack, record)
        supervisor.start()
        cleanup.callback(supervisor.stopping.set)
        tables = make_tables(plan)
        say(f"soak: playing {plan.games} games, {plan.concurrency} at a time...")
        started = time.monotonic()
        faults = FaultLoop(stack, web, plan, record)
        timer = threading.Timer(plan.calm_seconds, lambda: start_faults(faults, record))
        if plan.faults:
            timer.start()
        deadline = started + 24 * 3600
        progress = threading.Thread(target=report_progress, args=(plan, record, say), daemon=True)
        progress.start()
        with ThreadPoolExecutor(max_workers=plan.concurrency) as players:
            games = [players.submit(play_game, base, t, record, deadline) for t in tables]
            try:
                for outcome in games:
                    outcome.result()
            except BaseException:
                record.stopping.set()  # the players stop at their next step
                raise
        timer.cancel()
        faults.stopping.set()
        if faults.is_alive():
            faults.join(30)
        record.faults_on = False
        played = time.monotonic() - started
        say("soak: waiting for the last emails...")
        # Only the soak's own rows are checked: its players', and the games they made (a
        # database shared with anything else, a test's say, holds others).
        players = [user.pk for table in tables for user in table.players]
        settle(plan, players)
        report = check(record, mailbox, played, plan, faults.errors, players)
    return report


def report_progress(plan: Plan, record: Record, say: Any, every: float = 60.0) -> None:
    """A line a minute while the games are played."""
    started = time.monotonic()
    while len(record.games) < plan.games:
        time.sleep(every)
        with record.lock:
            moves = sum(1 for a in record.attempts if a.status == 302)
            faults = sum(record.faults.values())
            over = len(record.games)
        minutes = (time.monotonic() - started) / 60
        say(f"soak: {minutes:.0f} min: {over} of {plan.games} games over, {moves} moves, "
            f"{faults} faults")  # fmt: skip


def start_faults(faults: FaultLoop, record: Record) -> None:
    record.faults_on = True
    faults.start()


def make_tables(plan: Plan) -> list[Table]:
    players = accounts(2 * plan.games)
    rng = random.Random(11)
    tables = []
    for index in range(plan.games):
        pair = players[2 * index : 2 * index + 2]
        played_out = bool(plan.played_out_every) and index % plan.played_out_every == 0
        absent = played_out and bool(plan.absent_every) and index % plan.absent_every == 0
        pause = plan.pause_seconds if plan.pause_every and index % plan.pause_every == 1 else 0
        sessions = {u.pk: session_for(u) for u in pair}
        resign_after = rng.randint(*plan.resign_after)
        tables.append(Table(index, pair, sessions, played_out, absent, resign_after, pause))
    return tables


def settle(plan: Plan, players: list[int]) -> None:
    """Until every email row of the ``players`` is done with (sent, skipped or failed): a row a
    killed worker left in "sending" is marked failed by the sweep after
    NOTIFICATIONS_STUCK_AFTER_SECONDS."""
    from notifications.models import Notification

    open_rows = Notification.objects.filter(
        user_id__in=players, status__in=["pending", "sending"], digest=False
    )
    wait_until(lambda: not open_rows.exists(), "the outbox to be done with every row",
               timeout=plan.stuck_after + plan.settle_timeout)  # fmt: skip


# --- the checks -----------------------------------------------------------------------------


@dataclass
class Report:
    lines: list[str]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def check(
    record: Record,
    mailbox: Any,
    played: float,
    plan: Plan,
    fault_errors: list[str],
    players: list[int],
) -> Report:
    lines: list[str] = []
    problems = list(fault_errors)
    endings = Counter(record.games.values())
    accepted = [a for a in record.attempts if a.status == 302]
    how = ", ".join(f"{n} {e}" for e, n in sorted(endings.items()))
    lines.append(
        f"{len(record.games)} games in {played / 60:.1f} min ({how}); "
        f"{len(record.attempts)} move POSTs, {len(accepted)} accepted "
        f"({len(accepted) / played:.1f} a second); {plan.web_workers} gunicorn workers, "
        f"{plan.celery_workers} Celery workers (prefork) and beat, PostgreSQL, Redis, SMTP sink"
    )
    restarted = ", ".join(f"{n} {name}" for name, n in sorted(record.restarts.items()))
    lines.append(
        "faults: none (throughput mode)"
        if not plan.faults
        else f"faults from {plan.calm_seconds:.0f} s on, every {plan.fault_every:g} s: "
        + ", ".join(f"{record.faults[k]} {k}" for k in FAULTS)
        + f"; exited by themselves and started again, as a supervisor would: {restarted or 0}"
    )
    if endings.get("unfinished"):
        problems.append(f"{endings['unfinished']} games did not finish")
    problems += check_replay(players, plan, lines)
    problems += check_moves(record, lines)
    problems += check_emails(mailbox, players, lines)
    server_errors = sum(n for status, n in record.statuses.items() if status >= 500)
    kills = record.faults[FAULTS[0]]
    lines.append(
        f"5xx answers: {server_errors} (goal 0); requests cut off without an answer: "
        f"{record.cut} (web workers killed: {kills})"
    )
    if server_errors:
        problems.append(f"{server_errors} answers were 5xx: {dict(record.statuses)}")
    if record.cut > kills:
        problems.append(f"{record.cut} requests cut off but only {kills} web workers killed")
    lines.append(latency_line(record))
    if not plan.faults:
        lines.append(throughput_line(record, plan))
    elif not plan.max_faults and not all(record.faults[k] for k in FAULTS):
        problems.append("not every kind of fault happened")
    return Report(lines, problems)


def check_replay(players: list[int], plan: Plan, lines: list[str]) -> list[str]:
    """The games the soak's players made replay to their stored states; there are as many
    as the plan's (a create request cut off and sent again must not have made two)."""
    from django.core.management import CommandError, call_command

    from games.models import Game

    games = list(Game.objects.filter(creator_id__in=players).values_list("pk", flat=True))
    problems = [] if len(games) == plan.games else [f"{len(games)} games made, {plan.games} due"]
    out = StringIO()
    try:
        call_command("replay_games", *games, stdout=out)
    except CommandError as exc:
        lines.append(f"replay: {exc}")
        return [*problems, f"replay_games: {out.getvalue()[-2000:]}"]
    lines.append(f"replay: {out.getvalue().strip().splitlines()[-1]} (goal: 0 differ)")
    return problems


def check_moves(record: Record, lines: list[str]) -> list[str]:
    """Per game, the people's moves in the log against the move POSTs, in order: every
    accepted POST is the next move of the log; a POST cut off may be there or not; nothing
    else is."""
    from games.models import Move

    problems = []
    by_game: dict[int, list[Attempt]] = {}
    for attempt in record.attempts:
        by_game.setdefault(attempt.game, []).append(attempt)
    cut_applied = cut_lost = 0
    for game_id, attempts in by_game.items():
        logged = list(
            Move.objects.filter(game_id=game_id, by_bot=False)
            .order_by("seq")
            .values_list("seat", "action")
        )
        position = 0
        for number, attempt in enumerate(attempts):
            here = position < len(logged) and logged[position] == (attempt.seat, attempt.action)
            if attempt.status == 302:
                if not here:
                    problems.append(
                        f"game {game_id}: accepted move {attempt.action} not in the log"
                    )
                    continue
                position += 1
            elif attempt.status is None or attempt.status >= 500:
                # Cut off (or answered by a node losing its database midway, a 5xx counted
                # apart): applied if the log has it next and the game moved on before the
                # player's next POST (which was then sent against a newer version).
                later = attempts[number + 1] if number + 1 < len(attempts) else None
                if here and (later is None or later.version != attempt.version):
                    position += 1
                    cut_applied += 1
                else:
                    cut_lost += 1
        if position != len(logged):
            problems.append(
                f"game {game_id}: {len(logged) - position} moves in the log that no POST made"
            )
    lines.append(
        f"moves: every accepted move POST is in its game's log once, and nothing else is "
        f"({sum(1 for a in record.attempts if a.status == 302)} accepted; of the move POSTs cut "
        f"off, {cut_applied} were applied and {cut_lost} not); problems: {len(problems)}"
    )
    return problems[:20]


def check_emails(mailbox: Any, players: list[int], lines: list[str]) -> list[str]:
    from notifications.models import Notification

    problems = []
    received = Counter(m[HEADER] for m in mailbox.messages if m[HEADER])
    twice = {row: n for row, n in received.items() if n > 1}
    if twice:
        problems.append(f"emails received more than once: {twice}")
    rows = Notification.objects.filter(channel="email", user_id__in=players)
    by_status = Counter(rows.values_list("status", flat=True))
    turns = rows.filter(kind="your_turn")
    turn_status = Counter(turns.values_list("status", flat=True))
    unexplained = rows.filter(status__in=["skipped", "failed"], last_error="").count()
    if unexplained:
        problems.append(f"{unexplained} rows skipped or failed without a reason")
    left = by_status.get("pending", 0) + by_status.get("sending", 0)
    if left:
        problems.append(f"{left} email rows left pending or sending")
    sent_ids = set(rows.filter(status="sent").values_list("pk", flat=True))
    missing = [pk for pk in sent_ids if str(pk) not in received]
    if missing:
        problems.append(f"{len(missing)} rows marked sent but never received: {missing[:10]}")
    failures = Counter(rows.filter(status="failed").values_list("failure", flat=True))
    lines.append(
        f"turn emails: {sum(turn_status.values())} due: {turn_status.get('sent', 0)} sent, "
        f"{turn_status.get('skipped', 0)} skipped with their reason (the player had moved), "
        f"{turn_status.get('failed', 0)} failed with their reason; all emails: "
        f"{len(received)} received, {len(twice)} twice, "
        f"{', '.join(f'{n} {s}' for s, n in sorted(by_status.items()))}"
        + (f" (failed: {dict(failures)})" if failures else "")
    )
    return problems


def latency_line(record: Record) -> str:
    def figures(faulted: bool) -> str:
        times = sorted(a.ms for a in record.attempts if a.status == 302 and a.faulted == faulted)
        if not times:
            return "none"
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        return f"p50 {statistics.median(times):.0f} ms, p95 {p95:.0f} ms ({len(times)} moves)"

    return f"move POST latency: without faults {figures(False)}; with faults {figures(True)}"


def throughput_line(record: Record, plan: Plan) -> str:
    """Moves per second while ``concurrency`` games were being played: from the first accepted
    move until fewer games were left than that, so neither the start (games being created) nor
    the tail (the last few games alone) dilutes it."""
    accepted = sorted(a.at for a in record.attempts if a.status == 302)
    ended = sorted(record.ended)
    tail = max(0, min(len(ended) - 1, plan.games - plan.concurrency))
    window_end = ended[tail] if ended else (accepted[-1] if accepted else 0.0)
    inside = [at for at in accepted if at <= window_end]
    seconds = window_end - accepted[0] if accepted else 0.0
    rate = len(inside) / seconds if seconds > 0 else 0.0
    times = sorted(a.ms for a in record.attempts if a.status == 302)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return (
        f"throughput: {rate:.1f} moves/s with {plan.concurrency} games at once "
        f"({len(inside)} moves in {seconds:.1f} s), move POST p95 {p95:.0f} ms, "
        f"{plan.web_workers} web workers (earlier: 22.5 moves/s at p95 377 ms on the code of "
        f"2026-11-23; goal: no regression beyond noise, compared side by side)"
    )


# --- make soak ------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, help=f"default {Plan.games}; "
                        f"{THROUGHPUT.games} with --no-faults")  # fmt: skip
    parser.add_argument("--concurrency", type=int, default=Plan.concurrency)
    parser.add_argument("--played-out-every", type=int, default=None)
    parser.add_argument("--fault-every", type=float, default=Plan.fault_every)
    parser.add_argument("--calm-seconds", type=float, default=Plan.calm_seconds)
    parser.add_argument(
        "--no-faults",
        action="store_true",
        help="the throughput mode: no faults, no pauses, every game resigned after 10 to 40 "
        "moves; prints moves per second and the p95 move latency",
    )
    options = parser.parse_args()
    # Stopped from outside (Ctrl-C, a kill): the stack's processes are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    database_url = os.environ.get("SOAK_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not database_url or not database_url.startswith("postgres"):
        print("make soak needs PostgreSQL: SOAK_DATABASE_URL=postgres://... (make soak starts one)")
        return 2
    # This process is the harness: it reads the database and writes its players' sessions,
    # with the test settings (no Celery, no email of its own) on the soak's database.
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "firenze_site.settings_test"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    base = THROUGHPUT if options.no_faults else Plan()
    plan = dataclasses.replace(
        base,
        games=options.games or base.games,
        concurrency=options.concurrency,
        played_out_every=base.played_out_every
        if options.played_out_every is None
        else options.played_out_every,
        fault_every=options.fault_every,
        calm_seconds=options.calm_seconds,
    )
    print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        report = run(plan, database_url, Path(folder))
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("\n".join(f"  {line}" for line in report.lines))
    for problem in report.problems:
        print(f"  PROBLEM: {problem}")
    print("soak: " + ("all checks passed" if report.ok else f"{len(report.problems)} problems"))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
