"""Run the development stack: the site under uvicorn (pages, the API and the live event
streams, which are async views: docs/api.md), a Celery worker and Celery beat.

All three start together and stop together: Ctrl-C (or SIGTERM, or any one of them
exiting) stops the others, so no stray worker keeps running after the terminal closes.
Run it from the repository root with the project's virtualenv: ``make run`` does.
"""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ADDRESS = os.environ.get("RUN_ADDRESS", "0.0.0.0:8000")


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


CELERY = [str(BIN / "celery"), "-A", "firenze_site"]
COMMANDS = {
    # An ASGI server, so the live streams hold no worker (they need Redis: STREAMS_REDIS_URL or
    # CACHE_URL; without it pages poll). --reload restarts it when the code changes.
    "web": [
        str(BIN / "uvicorn"),
        "firenze_site.asgi:application",
        *uvicorn_args(ADDRESS),
        "--reload",
        "--reload-dir",
        str(ROOT),
    ],
    "worker": [*CELERY, "worker", "--loglevel=INFO", "--concurrency=1"],
    "beat": [*CELERY, "beat", "--loglevel=INFO", "-s", "var/celerybeat-schedule"],
}


def main() -> int:
    """Start every process, wait until one exits or we are told to stop, then stop all."""
    os.chdir(ROOT)
    (ROOT / "var").mkdir(exist_ok=True)
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

    # Each child gets its own process group: Ctrl-C in the terminal then reaches only this
    # script, which stops the children in order, and leftovers can be killed group by group.
    procs = {name: subprocess.Popen(cmd, start_new_session=True) for name, cmd in COMMANDS.items()}
    print(
        f"Firenze is running on {os.environ['SITE_URL']}/ "
        "(web, Celery worker and beat). Press Ctrl-C to stop.",
        flush=True,
    )

    exit_code = 0
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

    stop_all(procs)
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
