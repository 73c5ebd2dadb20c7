"""How many password guesses one account allows, against the real production stack: gunicorn with
several worker processes behind a (simulated) reverse proxy that appends the client address to
X-Forwarded-For, the rate limits counted in Redis. The attacker spreads the guesses over many
addresses and sends them in parallel, so they land on every worker.

Used by ``make bench`` (prints the figure) and by tests/integration/test_login_limit.py (asserts
it). ``measure(shared_cache=False)`` runs the development settings' per-process cache instead,
to show what the shared cache fixes.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import HTTPRedirectHandler, ProxyHandler, Request, build_opener

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
EMAIL, PASSWORD = "victim@example.com", "correct-horse-battery-42"
TOO_MANY = "Too many failed login attempts"


class _NoRedirect(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = build_opener(ProxyHandler({}), _NoRedirect)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Result:
    workers: int
    guesses_sent: int
    guesses_allowed: int
    right_password_after: bool
    workers_hit: int
    shared_cache: bool

    def line(self) -> str:
        cache = "Redis cache" if self.shared_cache else "per-process cache (development)"
        return (
            f"guesses allowed against one account: {self.guesses_allowed} of "
            f"{self.guesses_sent} sent (goal 5), {self.workers} gunicorn workers "
            f"({self.workers_hit} answered), {cache}, behind a proxy "
            f"(TRUSTED_PROXY_COUNT=1, every guess from another address); the right password "
            f"afterwards {'signed in' if self.right_password_after else 'refused too'}"
        )


def _request(base: str, path: str, data: dict | None, client_ip: str, cookies: dict):
    body = urlencode(data).encode() if data is not None else None
    request = Request(base + path, data=body, method="POST" if body else "GET")
    request.add_header("X-Forwarded-For", client_ip)
    if cookies:
        request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
    try:
        response = OPENER.open(request, timeout=30)
    except HTTPError as error:
        response = error
    with response:
        text = response.read().decode("utf-8", "replace")
        jar: SimpleCookie = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar.load(header)
        return response.status, text, {k: m.value for k, m in jar.items()}, response.headers


def guess(base: str, password: str, client_ip: str) -> tuple[bool, bool]:
    """(reached the password check, signed in) for one guess from a fresh browser at
    ``client_ip``."""
    _, page, cookies, _ = _request(base, "/accounts/login/", None, client_ip, {})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = {"login": EMAIL, "password": password, "csrfmiddlewaretoken": token}
    status, text, new_cookies, _ = _request(base, "/accounts/login/", data, client_ip, cookies)
    signed_in = status == 302 and "sessionid" in new_cookies
    return TOO_MANY not in text, signed_in


def _env(directory: Path, redis_url: str | None, port: int) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "firenze_site.settings",
        "DATABASE_URL": f"sqlite:///{directory / 'db.sqlite3'}",
        "SECRET_KEY": "bench-only-secret-key-3f9a7c1e5b2d4f6a8c0e2b4d6f8a1c3e5b7d9f0a2c4e6",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on the loopback
        "TRUSTED_PROXY_COUNT": "1",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "CELERY_BROKER_URL": "memory://",
        "LOG_LEVEL": "WARNING",
    }
    if redis_url:
        env.update(DEBUG="false", CACHE_URL=redis_url)
    else:
        env.update(DEBUG="true")
        env.pop("CACHE_URL", None)
    return env


SETUP = f"""
from allauth.account.models import EmailAddress
from accounts.models import User
user = User.objects.create_user("victim", "{EMAIL}", "{PASSWORD}", display_name="Victim")
EmailAddress.objects.create(user=user, email="{EMAIL}", verified=True, primary=True)
"""


def measure(workers: int = 4, guesses: int = 40, *, shared_cache: bool = True) -> Result:
    redis_bin = shutil.which("redis-server") or "/usr/sbin/redis-server"
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        directory = Path(folder)
        redis_url = None
        if shared_cache:
            redis_port = free_port()
            redis = subprocess.Popen(
                [redis_bin, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            stack.callback(_stop, redis)
            redis_url = f"redis://127.0.0.1:{redis_port}/1"
        port = free_port()
        env = _env(directory, redis_url, port)
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                       capture_output=True)  # fmt: skip
        subprocess.run([*manage, "shell", "-c", SETUP], cwd=ROOT, env=env, check=True,
                       capture_output=True)  # fmt: skip
        if shared_cache:  # DEBUG off serves static files from the collected manifest
            subprocess.run([*manage, "collectstatic", "--noinput"], cwd=ROOT, env=env,
                           check=True, capture_output=True)  # fmt: skip
        server = subprocess.Popen(
            [str(BIN / "gunicorn"), "firenze_site.wsgi", "-w", str(workers), "-b",
             f"127.0.0.1:{port}", "--access-logfile", str(directory / "access.log"),
             "--access-logformat", "%(p)s %(m)s %(U)s"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        stack.callback(_stop, server)
        base = f"http://127.0.0.1:{port}"
        _wait_for(base)
        addresses = [f"203.0.113.{n % 250 + 1}" for n in range(guesses)]
        with ThreadPoolExecutor(max_workers=workers * 2) as pool:
            answers = list(pool.map(lambda ip: guess(base, f"wrong-{ip}", ip), addresses))
        allowed = sum(reached for reached, _ in answers)
        _, signed_in = guess(base, PASSWORD, "198.51.100.9")
        log = (directory / "access.log").read_text().splitlines()
        pids = {line.split()[0] for line in log if " POST /accounts/login/" in line}
        return Result(workers, guesses, allowed, signed_in, len(pids), shared_cache)


def _wait_for(base: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with OPENER.open(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("gunicorn did not start")
        time.sleep(0.2)


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def main() -> None:
    print(measure().line())
    print(measure(shared_cache=False).line())


if __name__ == "__main__":
    main()
