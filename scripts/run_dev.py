"""Run the development stack as production runs it, on one machine: a Redis of its own (cache,
Celery broker and the live streams' event channel, shared by every process), the site under
uvicorn (pages, the API and the live event streams, which are async views: docs/api.md), two
Celery workers (tasks and pages; bots) and Celery beat. SQLite stays the database.

All start together and stop together: Ctrl-C (or SIGTERM, or any one of them exiting) stops
the others, Redis last, so no stray worker keeps running after the terminal closes. Redis keeps
nothing on disk: each run starts empty. Run it from the repository root with the project's
virtualenv: ``make run`` does (after the migrations).
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ADDRESS = os.environ.get("RUN_ADDRESS", "0.0.0.0:8000")
VAR = ROOT / "var"
# Folders of the project the reloader leaves alone: the virtualenv alone holds thousands of
# files, and polling them kept a core busy while nothing happened.
NOT_WATCHED = {".venv", ".git", "var", "node_modules", "tests", "bench", "docs", "examples"}
# How long the stack may take to come up before the demo line is printed anyway.
READY_SECONDS = 90.0


def site_url(address: str) -> str:
    """The address links in emails should use, from the one the server listens on: a
    wildcard host (0.0.0.0, ::) becomes localhost, a bare port means localhost too."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    if not host or host in ("0.0.0.0", "::", "*"):
        host = "localhost"
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"http://{host}:{port}" if port else f"http://{host}"


def uvicorn_args(address: str) -> list[str]:
    """uvicorn's --host and --port for a runserver-style address ("0.0.0.0:8000", "8000")."""
    host, _, port = address.rpartition(":")
    return ["--host", host.strip("[]") or "127.0.0.1", "--port", port or "8000"]


def watched_dirs(root: Path = ROOT) -> list[Path]:
    """The folders the reloader watches: the project's own code and templates, not the
    virtualenv, the runtime files or the tests."""
    return sorted(
        path
        for path in root.iterdir()
        if path.is_dir() and path.name not in NOT_WATCHED and not path.name.startswith(".")
    )


def free_port() -> int:
    """A TCP port on the loopback nobody listens on now (the kernel's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_server() -> str:
    """Debian's redis-server, installed when missing the way `make test` installs its
    packages (scripts/system_packages.sh: as root, through sudo -n, or one line saying what
    to run)."""
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin")
    if found is None:
        subprocess.run([str(ROOT / "scripts" / "system_packages.sh"), "redis-server"], check=True)
        found = shutil.which("redis-server", path="/usr/sbin:/usr/bin:" + os.environ["PATH"])
    if found is None:
        raise SystemExit("redis-server is needed: sudo apt-get install -y redis-server")
    return found


def redis_command(server: str, port: int, folder: Path) -> list[str]:
    """A Redis for this run only: on the loopback, nothing saved (each run starts empty)."""
    return [
        server,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(folder),
        "--loglevel",
        "warning",
    ]


def redis_environment(port: int) -> dict[str, str]:
    """Every process shares the one Redis: database 0 is Celery's broker, 1 the cache (and
    with it the sessions and the game versions the pages poll), the live streams use the
    cache's (settings.STREAMS_REDIS_URL)."""
    return {
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/0",
        "CACHE_URL": f"redis://127.0.0.1:{port}/1",
    }


def wait_for_redis(port: int, proc: subprocess.Popen, seconds: float = 10.0) -> None:
    """Until Redis answers PING (it takes milliseconds), or stop if it exited."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as c:
            c.sendall(b"PING\r\n")
            if c.recv(16).startswith(b"+PONG"):
                return
        time.sleep(0.05)
    raise SystemExit(f"redis-server did not start on port {port}")


CELERY = [str(BIN / "celery"), "-A", "firenze_site"]
# Quiet workers: no banner, no gossip or heartbeats to other workers (nothing uses them here,
# and they cost CPU while idle); warnings and errors are still logged.
WORKER = ["worker", "--without-gossip", "--without-mingle", "--without-heartbeat"]


def commands(address: str, root: Path = ROOT) -> dict[str, list[str]]:
    """The processes of the stack. Two workers, as in production (docs/bots.md): one for
    emails, the clock and page drawing (the "celery" and "pages" queues: a worker takes from
    them in turn, so an email never waits behind a queue of pages), one at a lower priority
    for bot moves and reviews (the "bots" queue), so a bot thinking never holds up the rest."""
    reload_dirs = [arg for path in watched_dirs(root) for arg in ("--reload-dir", str(path))]
    return {
        # An ASGI server, so the live streams hold no worker. --reload restarts it when the
        # project's code changes.
        "web": [
            str(BIN / "uvicorn"),
            "firenze_site.asgi:application",
            *uvicorn_args(address),
            "--reload",
            *reload_dirs,
        ],
        "worker": [*CELERY, "--quiet", *WORKER, "--loglevel=WARNING", "--concurrency=1"]
        + ["-Q", "celery,pages"],
        "bots": ["nice", "-n", "10", *CELERY, "--quiet", *WORKER, "--loglevel=WARNING"]
        + ["--concurrency=1", "-Q", "bots", "--hostname=bots@%h"],
        "beat": [*CELERY, "--quiet", "beat", "--loglevel=WARNING", "-s", "var/celerybeat-schedule"],
    }


def wait_until_ready(url: str, procs: dict[str, subprocess.Popen], seconds: float) -> None:
    """Until the site answers and both workers reply to a ping, so the demo line comes after
    what the processes print while they start."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and all(p.poll() is None for p in procs.values()):
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).close()
            break
        except urllib.error.HTTPError:
            break  # it answers
        except OSError:
            time.sleep(0.2)
    from celery import Celery

    pinger = Celery(broker=os.environ["CELERY_BROKER_URL"])
    while time.monotonic() < deadline and all(p.poll() is None for p in procs.values()):
        if len(pinger.control.ping(timeout=1.0)) >= 2:
            return


def main() -> int:
    """Start Redis, the demo and every process, wait until one exits or we are told to stop,
    then stop all."""
    os.chdir(ROOT)
    VAR.mkdir(exist_ok=True)
    (VAR / "redis").mkdir(exist_ok=True)
    # The server listens on every interface so a phone on the LAN can try the mobile layout.
    os.environ.setdefault("ALLOWED_HOSTS", "*")
    # Development mode is an explicit choice (production is the settings' default).
    os.environ["DEBUG"] = "true"
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    # Emails: one line each in this terminal, with their link, and kept in var/mail/.
    os.environ.setdefault("EMAIL_BACKEND", "firenze_site.dev_mail.EmailBackend")
    # Emails link to where the site is actually served (web, worker and beat all send them),
    # unless an operator set SITE_URL (a public name behind a proxy).
    os.environ.setdefault("SITE_URL", site_url(ADDRESS))

    stopping = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    port = free_port()
    # Its log (start-up notes, warnings) goes to var/redis/redis.log, not the terminal.
    with (VAR / "redis" / "redis.log").open("ab") as redis_log:
        redis = subprocess.Popen(
            redis_command(redis_server(), port, VAR / "redis"),
            stdout=redis_log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    procs: dict[str, subprocess.Popen] = {}
    exit_code = 0
    try:
        wait_for_redis(port, redis)
        os.environ.update(redis_environment(port))
        # The demo account and its game (its bots' first moves go through this Redis).
        demo = subprocess.run(
            [sys.executable, "manage.py", "demo"], capture_output=True, text=True, check=False
        )
        if demo.returncode:
            print(demo.stdout + demo.stderr, file=sys.stderr, flush=True)
            return demo.returncode
        # Each child gets its own process group: Ctrl-C in the terminal then reaches only
        # this script, which stops the children in order, and leftovers can be killed group
        # by group.
        procs = {
            name: subprocess.Popen(cmd, start_new_session=True)
            for name, cmd in commands(ADDRESS).items()
        }
        wait_until_ready(site_url(ADDRESS), procs, READY_SECONDS)
        print(
            f"Firenze is running on {os.environ['SITE_URL']}/ (web, Celery workers for tasks "
            "and bots, beat, Redis). Press Ctrl-C to stop.",
            flush=True,
        )
        # The last line before the wait: where to sign in.
        print(demo.stdout.strip(), flush=True)
        procs["redis"] = redis
        while not stopping:
            for name, proc in procs.items():
                if proc.poll() is not None:
                    print(
                        f"{name} exited with code {proc.returncode}; stopping the others.",
                        file=sys.stderr,
                        flush=True,
                    )
                    exit_code = proc.returncode or 1
                    stopping = True
                    break
            time.sleep(0.5)
    finally:
        procs.pop("redis", None)
        stop_all(procs)
        stop_all({"redis": redis})  # last: the others may still talk to it while stopping
    return exit_code


def stop_all(procs: dict[str, subprocess.Popen], grace: float = 10.0) -> None:
    """Stop every process, then kill what is left of its group after ``grace`` seconds.

    SIGTERM goes to each main process only: Celery then shuts its pool down cleanly and
    runserver's reloader takes its child with it. Signalling the whole group at once would
    kill Celery's pool processes under it mid-shutdown.
    """
    for proc in procs.values():
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
    deadline = time.monotonic() + grace
    for proc in procs.values():
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        # Anything still alive in the group (a stuck child, a grandchild) is killed.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--site-url"]:  # make run: the demo command prints the same link
        print(site_url(sys.argv[2] if len(sys.argv) > 2 else ADDRESS))
        sys.exit(0)
    sys.exit(main())
