"""The production stack on the loopback, for the live-updates benchmark and the bot's
end-to-end test: redis-server, gunicorn serving the pages and the API (WSGI), and uvicorn
serving /streams/ (ASGI), as docs/api.md lays out production (a proxy sends /streams/ to
uvicorn; here clients are given both addresses).

Settings are production's (DEBUG off) with the limits raised for machine-speed play
(bench/stack_settings.py). Every process is stopped on exit, whatever happened.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
START_TIMEOUT = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def more_files() -> None:
    """Raise this process's open-file limit to the hard limit (thousands of streams)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def _wait_http(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{url}: server exited\n{log.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return
        except urllib.error.HTTPError as error:
            if error.code < 500:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url}: not up after {START_TIMEOUT:.0f} s")


class LiveStack(contextlib.ExitStack):
    def __init__(
        self,
        directory: Path,
        database_url: str,
        *,
        web_workers: int = 2,
        migrate: bool = True,
        collectstatic: bool = False,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.directory = directory
        self.redis_port = free_port()
        redis_url = f"redis://127.0.0.1:{self.redis_port}"
        self.web = f"http://127.0.0.1:{free_port()}"
        self.streams = f"http://127.0.0.1:{free_port()}"
        self.web_workers = web_workers
        self.migrate = migrate
        self.collectstatic = collectstatic
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "bench.stack_settings",
            "DEBUG": "false",
            "SECRET_KEY": "live-stack-only-4d2c8e1f6a9b3d7c5e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": database_url,
            "DB_CONN_MAX_AGE": "0",
            "CACHE_URL": f"{redis_url}/1",
            "STREAMS_REDIS_URL": f"{redis_url}/0",
            "CELERY_BROKER_URL": "memory://",
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            **(extra_env or {}),
        }
        self.procs: dict[str, subprocess.Popen] = {}

    def log(self, name: str) -> Path:
        return self.directory / f"{name}.log"

    def spawn(self, name: str, args: list[str], **kw: Any) -> subprocess.Popen:
        with self.log(name).open("ab") as log:
            proc = subprocess.Popen(
                args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, **kw,
            )  # fmt: skip
        self.procs[name] = proc
        self.callback(_stop, proc)
        return proc

    def manage(self, *args: str) -> str:
        return self.python("manage.py", *args)

    def python(self, *args: str) -> str:
        """A script run with the servers' environment; its output."""
        done = subprocess.run(
            [sys.executable, *args], cwd=ROOT, env=self.env,
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"{' '.join(args)}:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def __enter__(self) -> LiveStack:
        super().__enter__()
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def _start(self) -> None:
        redis = shutil.which("redis-server") or "/usr/sbin/redis-server"
        self.spawn(
            "redis",
            [redis, "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory)],
        )  # fmt: skip
        if self.migrate:
            self.manage("migrate", "--noinput")
        if self.collectstatic:
            self.manage("collectstatic", "--noinput")
        web_port = self.web.rsplit(":", 1)[1]
        streams_port = self.streams.rsplit(":", 1)[1]
        gunicorn = self.spawn(
            "gunicorn",
            [str(BIN / "gunicorn"), "firenze_site.wsgi", "-w", str(self.web_workers), "-b",
             f"127.0.0.1:{web_port}"],
        )  # fmt: skip
        uvicorn = self.spawn(
            "uvicorn",
            [str(BIN / "uvicorn"), "firenze_site.asgi:application", "--host", "127.0.0.1",
             "--port", streams_port, "--no-access-log", "--timeout-graceful-shutdown", "2"],
            preexec_fn=more_files,
        )  # fmt: skip
        _wait_http(f"{self.web}/healthz", gunicorn, self.log("gunicorn"))
        _wait_http(f"{self.streams}/healthz", uvicorn, self.log("uvicorn"))

    def tails(self) -> str:
        return "\n".join(
            f"--- {name} ---\n{self.log(name).read_text(errors='replace')[-3000:]}"
            for name in self.procs
            if self.log(name).exists()
        )
