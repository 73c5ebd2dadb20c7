"""What players feel, through the production stack: gunicorn (2 workers), production settings
(DEBUG off), SQLite, the Redis cache and a Celery worker (Redis broker) that draws the players'
pages after a move. ``ab -c 4`` loads each endpoint with a bounded number of requests on the
loopback; every figure is a ratio to a bare Django endpoint (/healthz) measured right next to it
in the same run, because this machine's absolute speed varies by half: several rounds, each
endpoint paired with the bare one, and the median ratio with the rounds' spread.

Prints requests/s and the ratio per endpoint with its SQL queries (cache cold / warm), the lobby's
latency with 10,000 open games, the first view after a move against a repeat view, and a web
worker's memory after 100 and after 10,000 mixed requests. Goals: issue 11.

``--against TREE`` measures two checkouts side by side in one run instead (this one and TREE,
e.g. an unpacked ``git archive`` of main with a link to this .venv): each served by its own
gunicorn on its own data, every round loading both with the same endpoints, the trees' order
swapped each round, so the two ratios come from the same moments of the machine. Only the game
pages and the poll, with fewer requests: a couple of minutes per tree.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import Request

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.login_limit import OPENER, _stop, _wait_for, free_port  # noqa: E402
from bench.notify_bench import start_worker  # noqa: E402

BIN = Path(sys.executable).parent
MOVES = 370
WORKERS = 2
CONCURRENCY = 4
REQUESTS = 800  # per endpoint and round (the lobby: a quarter)
ROUNDS = 7  # each endpoint next to the bare one; the median ratio counts (load comes and goes)
BARE = "bare endpoint (/healthz)"
ACTION = re.compile(r'<button type="submit" name="action" value="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _env(folder: Path, redis_port: int, databases: tuple[int, int] = (1, 2)) -> dict[str, str]:
    redis = f"redis://127.0.0.1:{redis_port}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "firenze_site.settings",
        "DEBUG": "false",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "CACHE_URL": f"{redis}/{databases[0]}",
        "CELERY_BROKER_URL": f"{redis}/{databases[1]}",
        "SECRET_KEY": "bench-only-secret-key-7d2e9a4c1f6b8d0e3a5c7e9b1d3f5a7c9e1b3d5f7a9c",
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on the loopback
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "WARNING",
        "WEBPUSH_VAPID_PRIVATE_KEY": "",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def _run(args: list[str], env: dict[str, str], tree: Path = ROOT) -> str:
    done = subprocess.run(args, cwd=tree, env=env, check=True, capture_output=True, text=True)
    return done.stdout


def ab(url: str, cookie: str = "", *, requests: int = REQUESTS, concurrency: int = CONCURRENCY,
       htmx: bool = False) -> tuple[float, float]:  # fmt: skip
    """(requests per second, mean ms per request) of ``ab`` against one URL."""
    args = ["ab", "-q", "-n", str(requests), "-c", str(concurrency)]
    if cookie:
        args += ["-C", cookie]
    if htmx:
        args += ["-H", "HX-Request: true"]
    out = subprocess.run([*args, url], capture_output=True, text=True, check=True).stdout
    failed = int(re.search(r"Failed requests:\s+(\d+)", out).group(1))
    non_2xx = re.search(r"Non-2xx responses:\s+(\d+)", out)
    if failed or non_2xx:
        raise RuntimeError(f"ab: {failed} failed, {non_2xx and non_2xx.group(1)} non-2xx for {url}")
    rate = float(re.search(r"Requests per second:\s+([\d.]+)", out).group(1))
    mean = float(re.search(r"Time per request:\s+([\d.]+) \[ms\] \(mean\)", out).group(1))
    return rate, mean


def fetch(base: str, path: str, session: str, *, data: dict | None = None, htmx: bool = False,
          csrf: str = "") -> tuple[int, str, float]:  # fmt: skip
    """(status, body, milliseconds) of one request as a signed-in browser makes it."""
    body = urlencode(data).encode() if data is not None else None
    request = Request(base + path, data=body, method="POST" if body else "GET")
    cookies = [f"sessionid={session}"] + ([f"csrftoken={csrf}"] if csrf else [])
    request.add_header("Cookie", "; ".join(cookies))
    if htmx:
        request.add_header("HX-Request", "true")
    if csrf:
        request.add_header("X-CSRFToken", csrf)
        request.add_header("Referer", base + path)
    start = time.perf_counter()
    try:
        response = OPENER.open(request, timeout=30)
    except HTTPError as error:
        response = error
    with response:
        text = response.read().decode("utf-8", "replace")
    return response.status, text, (time.perf_counter() - start) * 1000


def rss_kb(master: subprocess.Popen) -> list[int]:
    """Resident memory (kB) of each gunicorn worker (the master's children)."""
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
    sizes = []
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        sizes.append(int(re.search(r"VmRSS:\s+(\d+)", status).group(1)))
    return sizes


def _redis(port: int, stack: contextlib.ExitStack) -> None:
    redis_bin = shutil.which("redis-server") or "/usr/sbin/redis-server"
    proc = subprocess.Popen(
        [redis_bin, "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    stack.callback(_stop, proc)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode:
        if time.monotonic() > deadline:
            raise RuntimeError("redis did not start")
        time.sleep(0.1)


def acting_seat(base: str, game: int, sessions: dict) -> tuple[str, str]:
    """(seat, page) of the seat whose page offers moves."""
    for seat, session in sessions.items():
        status, page, _ = fetch(base, f"/games/{game}/", session)
        if 'id="move-form"' in page:
            return seat, page
    raise RuntimeError("nobody can move")


def after_moves(base: str, game: int, sessions: dict, watcher: str, moves: int = 12) -> dict:
    """Moves made through the site; after each, a follower's page (htmx part, as their poll
    fetches it) first and again, and a watcher's (not drawn ahead) first."""
    first, repeat, cold, posts = [], [], [], []
    for _ in range(moves):
        seat, page = acting_seat(base, game, sessions)
        action = ACTION.search(page).group(1).replace("&quot;", '"')
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        csrf_cookie = _csrf_cookie(base, game, sessions[seat])
        data = {"action": action, "version": version}
        path = f"/games/{game}/move/"
        status, _, ms = fetch(base, path, sessions[seat], htmx=True, data=data, csrf=csrf_cookie)
        assert status == 200, status
        posts.append(ms)
        time.sleep(2.5)  # a follower's poll comes 0 to 5 s later (2.5 s on average)
        follower = next(s for s in sessions if s != seat)
        first.append(fetch(base, f"/games/{game}/", sessions[follower], htmx=True)[2])
        repeat.append(fetch(base, f"/games/{game}/", sessions[follower], htmx=True)[2])
        cold.append(fetch(base, f"/games/{game}/", watcher, htmx=True)[2])
    return {
        "first": statistics.median(first),
        "repeat": statistics.median(repeat),
        "cold": statistics.median(cold),
        "post": statistics.median(posts),
        "moves": moves,
    }


def _paired_rounds(base: str, endpoints: dict) -> tuple[dict, dict, int]:
    """Each endpoint loaded right next to the bare endpoint, ROUNDS times, in the order bare,
    endpoint, endpoint, bare (then the reverse next round), so a steady change of the machine's
    load during a round favours neither: requests/s of both, the ratio of each round, and how
    many requests were served."""
    bare_url = base + endpoints[BARE][0]
    rates: dict[str, dict[str, list[float]]] = {}
    ratios: dict[str, list[float]] = {}
    served = 0
    for number in range(ROUNDS):
        for name, (url, cookie, htmx) in endpoints.items():
            if name == BARE:
                continue
            count = REQUESTS // 4 if name.startswith("lobby") else REQUESTS
            pair = rates.setdefault(name, {"bare": [], "endpoint": []})
            order = ["bare", "endpoint", "endpoint", "bare"]
            found: dict[str, float] = {"bare": 0.0, "endpoint": 0.0}
            for which in order if number % 2 == 0 else reversed(order):
                if which == "bare":
                    rate = ab(bare_url, requests=count // 2)[0]
                else:
                    rate = ab(base + url, cookie, requests=count // 2, htmx=htmx)[0]
                pair[which].append(rate)
                found[which] += rate
                served += count // 2
            ratios.setdefault(name, []).append(found["endpoint"] / found["bare"])
    return rates, ratios, served


def _load() -> str:
    return ", ".join(f"{figure:.1f}" for figure in os.getloadavg())


def _browser_cookie(base: str, game: int, session: str) -> str:
    """The Cookie header of a browser signed in with ``session`` once it has been answered:
    the session and the cookies the site sets beside it (the viewer cookie where the tree has
    one), the CSRF cookie left out as before."""
    cookies = [f"sessionid={session}"]
    request = Request(f"{base}/games/{game}/")
    request.add_header("Cookie", cookies[0])
    with OPENER.open(request, timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, value = header.partition(";")[0].partition("=")
            if name not in ("csrftoken", "sessionid") and value:
                cookies.append(f"{name}={value}")
    return "; ".join(cookies)


def _csrf_cookie(base: str, game: int, session: str) -> str:
    request = Request(f"{base}/games/{game}/")
    request.add_header("Cookie", f"sessionid={session}")
    with OPENER.open(request, timeout=30) as response:
        for header in response.headers.get_all("Set-Cookie") or []:
            match = re.match(r"csrftoken=([^;]+)", header)
            if match:
                return match.group(1)
    raise RuntimeError("no CSRF cookie")


def main() -> None:  # noqa: PLR0915
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        redis_port = int(os.environ.get("BENCH_REDIS_PORT") or free_port())
        _redis(redis_port, stack)
        env = _env(folder, redis_port)
        manage = [sys.executable, "manage.py"]
        _run([*manage, "migrate", "--noinput"], env)
        _run([*manage, "collectstatic", "--noinput"], env)
        data = json.loads(_run([sys.executable, "bench/serve_setup.py", "setup", str(MOVES)], env))
        port = int(os.environ.get("BENCH_WEB_PORT") or free_port())
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [str(BIN / "gunicorn"), "firenze_site.wsgi", "-w", str(WORKERS), "-b",
             f"127.0.0.1:{port}", "--access-logfile", "-"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        stack.callback(_stop, server)
        worker = start_worker(folder / "worker.log", env)
        stack.callback(_stop, worker)
        _wait_for(base)

        fresh, long = data["fresh"], data["long"]
        sessions = data["sessions"]
        seat_fresh = next(iter(sessions["fresh"]))
        seat_long = next(iter(sessions["long"]))
        cookie_fresh = _browser_cookie(base, fresh, sessions["fresh"][seat_fresh])
        cookie_long = _browser_cookie(base, long, sessions["long"][seat_long])
        status, page, _ = fetch(base, f"/games/{long}/", sessions["long"][seat_long])
        version, chat = re.search(r"\?v=(\d+)&amp;c=(\d+)", page).groups()
        endpoints = {
            BARE: ("/healthz", "", False),
            "version poll, unchanged": (
                f"/games/{long}/version/?v={version}&c={chat}",
                cookie_long,
                False,
            ),
            "game page, fresh game": (f"/games/{fresh}/", cookie_fresh, False),
            f"game page, {data['long_moves']}-move game": (f"/games/{long}/", cookie_long, False),
            "game part (htmx), long game": (f"/games/{long}/", cookie_long, True),
            f"lobby, {10_000:,} open games": ("/games/", "", False),
        }
        query_urls = {
            name: [url, _session_of(cookie), htmx]
            for name, (url, cookie, htmx) in endpoints.items()
        }
        counts = json.loads(
            _run([sys.executable, "bench/serve_setup.py", "queries", json.dumps(query_urls)], env)
        )
        # Warm up both workers (imports, connections, the cache): 96 requests, then measure.
        for url, cookie, htmx in endpoints.values():
            ab(base + url, cookie, requests=16, htmx=htmx)
        rss_100 = rss_kb(server)
        load_before = _load()
        rates, ratios, served = _paired_rounds(base, endpoints)
        load_after = _load()
        lobby_ms = ab(base + "/games/", requests=300, concurrency=1)[1]
        moves = after_moves(base, long, sessions["long"], sessions["watcher"])
        while served < 10_000:
            for url, cookie, htmx in endpoints.values():
                ab(base + url, cookie, requests=500, htmx=htmx)
                served += 500
        rss_10k = rss_kb(server)

        print(
            f"Through gunicorn ({WORKERS} workers, production settings: DEBUG off), SQLite, Redis "
            f"cache, ab -c {CONCURRENCY}; {ROUNDS} rounds, each endpoint measured right next to "
            f"the bare endpoint ({REQUESTS} requests each, the lobby a quarter, in the order bare, "
            "endpoint, endpoint, bare, reversed every other round), so each ratio is of one "
            "moment of this shared machine (load average "
            f"{load_before} before, {load_after} after); the median ratio of the rounds and "
            "their spread; the game pages are a seated player's; queries per request: cache "
            "cold / warm"
        )
        goals = {
            "version poll, unchanged": 0.80,
            "game page, fresh game": 0.30,
            f"game page, {data['long_moves']}-move game": 0.30,
        }
        bare_rates = [rate for pair in rates.values() for rate in pair["bare"]]
        print(
            f"  {BARE:34s} {statistics.median(bare_rates):7.0f} req/s (median of "
            f"{len(bare_rates)} runs, {min(bare_rates):.0f} to {max(bare_rates):.0f})"
        )
        bare_ms = counts[BARE][3]
        for name in endpoints:
            if name == BARE:
                continue
            cold, warm, trips, in_process = counts[name][:4]
            median = statistics.median(ratios[name])
            goal = ""
            if name in goals:
                met = "met" if median >= goals[name] else "NOT MET"
                goal = f"goal >= {goals[name]:.0%}: {met}"
            if name.startswith("version poll"):
                goal += ", 0 queries warm"
            print(
                f"  {name:34s} {statistics.median(rates[name]['endpoint']):7.0f} req/s  "
                f"{median:6.1%} of bare (rounds {min(ratios[name]):.0%} to "
                f"{max(ratios[name]):.0%})  {cold:2d}/{warm:2d} queries  {trips} Redis round "
                f"trips  {goal}"
            )
            if name.startswith("game page"):
                extra = in_process - bare_ms
                met = "met" if extra <= 2.0 else "NOT MET"
                print(
                    f"  {'':34s} in process {in_process:.2f} ms, bare {bare_ms:.2f} ms: "
                    f"+{extra:.2f} ms (goal within 2 ms: {met}); CPU {_cpu(counts, name)}"
                )
        print(
            f"  lobby with {10_000:,} open games: {lobby_ms:.1f} ms per request one at a time "
            f"(goal <= 10 ms), {counts[f'lobby, {10_000:,} open games'][1]} queries"
        )
        ratio = moves["first"] / moves["repeat"]
        print(
            f"  first view after a move {moves['first']:.1f} ms, repeat view {moves['repeat']:.1f}"
            f" ms: {ratio:.2f}x (goal <= 1.5x; median of {moves['moves']} moves, the follower's "
            f"htmx part drawn by the worker); a watcher's first view (not drawn ahead) "
            f"{moves['cold']:.1f} ms; move POST {moves['post']:.1f} ms (SQLite)"
        )
        growth = max(b / a for a, b in zip(rss_100, rss_10k, strict=True))
        print(
            f"  worker memory after 100 requests {', '.join(f'{k / 1024:.0f} MB' for k in rss_100)}"
            f"; after {served:,} mixed requests "
            f"{', '.join(f'{k / 1024:.0f} MB' for k in rss_10k)}: {growth:.2f}x (goal <= 1.2x)"
        )


def _session_of(cookie: str) -> str:
    """The session in a Cookie header ("" for none)."""
    for part in cookie.split("; "):
        if part.startswith("sessionid="):
            return part.removeprefix("sessionid=")
    return ""


def _cpu(counts: dict[str, list], name: str) -> str:
    """In-process CPU per request, and over bare, where the tree's bench/serve_setup.py
    measures it."""
    if len(counts[name]) < 5 or len(counts[BARE]) < 5:
        return "not measured"
    cpu, bare = counts[name][4], counts[BARE][4]
    return f"{cpu:.2f} ms (bare {bare:.2f}, +{cpu - bare:.2f})"


# --- two trees side by side ----------------------------------------------------------------

COMPARE_ROUNDS = 6
COMPARE_REQUESTS = 600
IN_PROCESS_ROUNDS = 3  # the costs in process: each tree's median of this many measurements


@dataclass
class Tree:
    """One checkout served by its own gunicorn: its endpoints and their costs in process."""

    label: str
    base: str
    endpoints: dict[str, tuple[str, str, bool]]
    counts: dict[str, list]
    ratios: dict[str, list[float]]
    measure: Callable[[], dict[str, list]]  # the costs in process once more
    runs: list[dict[str, list]] = field(default_factory=list)

    def measure_again(self) -> None:
        """Time and CPU in process measured once more: each figure becomes the median of
        every measurement so far (the trees measured in turn, so both meet the same load)."""
        if not self.runs:
            self.runs.append(json.loads(json.dumps(self.counts)))
        self.runs.append(self.measure())
        for name, found in self.counts.items():
            for place in range(3, len(found)):
                found[place] = statistics.median(run[name][place] for run in self.runs)


def _serve_tree(tree: Path, folder: Path, redis_port: int, databases: tuple[int, int],
                stack: contextlib.ExitStack) -> Tree:  # fmt: skip
    """Data, query counts and a running gunicorn for ``tree`` (its own code, database and
    cache database)."""
    env = _env(folder, redis_port, databases)
    manage = [sys.executable, "manage.py"]
    _run([*manage, "migrate", "--noinput"], env, tree)
    _run([*manage, "collectstatic", "--noinput"], env, tree)
    data = json.loads(
        _run([sys.executable, "bench/serve_setup.py", "setup", str(MOVES)], env, tree)
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "firenze_site.wsgi", "-w", str(WORKERS), "-b",
         f"127.0.0.1:{port}", "--access-logfile", "-"],
        cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    stack.callback(_stop, server)
    _wait_for(base)
    sessions = data["sessions"]
    seat_fresh, seat_long = next(iter(sessions["fresh"])), next(iter(sessions["long"]))
    session_fresh, session_long = sessions["fresh"][seat_fresh], sessions["long"][seat_long]
    long = data["long"]
    page = fetch(base, f"/games/{long}/", session_long)[1]
    version, chat = re.search(r"\?v=(\d+)&amp;c=(\d+)", page).groups()
    cookie_fresh = _browser_cookie(base, data["fresh"], session_fresh)
    cookie_long = _browser_cookie(base, long, session_long)
    endpoints = {
        BARE: ("/healthz", "", False),
        "version poll, unchanged": (
            f"/games/{long}/version/?v={version}&c={chat}",
            cookie_long,
            False,
        ),
        "game page, fresh game": (f"/games/{data['fresh']}/", cookie_fresh, False),
        f"game page, {data['long_moves']}-move game": (f"/games/{long}/", cookie_long, False),
        "game part (htmx), long game": (f"/games/{long}/", cookie_long, True),
    }
    query_urls = {
        name: [url, _session_of(cookie), htmx] for name, (url, cookie, htmx) in endpoints.items()
    }

    def measure() -> dict[str, list]:
        queries = [sys.executable, "bench/serve_setup.py", "queries", json.dumps(query_urls)]
        return json.loads(_run(queries, env, tree))

    counts = measure()
    for url, cookie, htmx in endpoints.values():  # warm both workers
        ab(base + url, cookie, requests=16, htmx=htmx)
    label = _run(["git", "log", "-1", "--format=%h"], env, tree).strip() if (
        tree / ".git"
    ).exists() else tree.name  # fmt: skip
    return Tree(label or tree.name, base, endpoints, counts, {}, measure)


def _compare_rounds(trees: list[Tree], rounds: int = COMPARE_ROUNDS) -> None:
    """Each round: every endpoint of every tree next to that tree's bare endpoint (bare,
    endpoint, endpoint, bare), the trees' order swapped every round."""
    for number in range(rounds):
        for name in trees[0].endpoints:
            if name == BARE:
                continue
            for tree in trees if number % 2 == 0 else reversed(trees):
                url, cookie, htmx = tree.endpoints[name]
                found = {"bare": 0.0, "endpoint": 0.0}
                for which in ("bare", "endpoint", "endpoint", "bare"):
                    if which == "bare":
                        found[which] += ab(tree.base + "/healthz", requests=COMPARE_REQUESTS // 2)[
                            0
                        ]
                    else:
                        found[which] += ab(
                            tree.base + url, cookie, requests=COMPARE_REQUESTS // 2, htmx=htmx
                        )[0]
                tree.ratios.setdefault(name, []).append(found["endpoint"] / found["bare"])


def compare(other: Path, rounds: int = COMPARE_ROUNDS) -> None:
    """This tree and ``other``, side by side in one run (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        redis_port = int(os.environ.get("BENCH_REDIS_PORT") or free_port())
        _redis(redis_port, stack)
        trees = []
        for number, checkout in enumerate([ROOT, other.resolve()]):
            folder = Path(tmp) / str(number)
            folder.mkdir()
            trees.append(
                _serve_tree(checkout, folder, redis_port, (1 + 2 * number, 2 + 2 * number), stack)
            )
        load_before = _load()
        _compare_rounds(trees, rounds)
        for _ in range(IN_PROCESS_ROUNDS - 1):  # the first was measured as each tree started
            for tree in reversed(trees):
                tree.measure_again()
        load_after = _load()
        print(
            f"Side by side through gunicorn ({WORKERS} workers each, production settings), "
            f"SQLite, Redis, ab -c {CONCURRENCY}: {rounds} rounds, each endpoint of "
            f"each tree next to that tree's bare endpoint ({COMPARE_REQUESTS} requests each), "
            f"the trees' order swapped every round; load average {load_before} before, "
            f"{load_after} after. Median share of bare (rounds' spread); queries warm, Redis "
            f"round trips, in process over bare and CPU in process (medians of {IN_PROCESS_ROUNDS} "
            "measurements, the trees in turn):"
        )
        width = max(len(name) for name in trees[0].endpoints)
        print(f"  {'':{width}s}  " + "  ".join(f"{tree.label:>42s}" for tree in trees))
        for name in trees[0].endpoints:
            if name == BARE:
                continue
            cells = []
            for tree in trees:
                ratios = tree.ratios[name]
                _, warm, trips, in_process = tree.counts[name][:4]
                extra = in_process - tree.counts[BARE][3]
                cells.append(
                    f"{statistics.median(ratios):6.1%} ({min(ratios):.0%}-{max(ratios):.0%}) "
                    f"{warm}q {trips}r +{extra:.2f} ms, CPU {_cpu(tree.counts, name)}"
                )
            print(f"  {name:{width}s}  " + "  ".join(f"{cell:>42s}" for cell in cells))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout, measured side by side")
    parser.add_argument(
        "--rounds", type=int, default=COMPARE_ROUNDS, help="rounds of --against (a short run: 2)"
    )
    arguments = parser.parse_args()
    if arguments.against:
        compare(arguments.against, arguments.rounds)
    else:
        main()
