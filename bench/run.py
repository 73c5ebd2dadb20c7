"""`make bench`: every benchmark of the project, printing its figures.

bench/serve_bench.py loads the site through gunicorn (SQLite, Redis) and prints ratios to a
bare endpoint. The web and sweep benchmarks run in a child process per database, because Django
binds to one database per process: SQLite always, PostgreSQL when BENCH_POSTGRES_URL is set
(make bench starts one).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import bots_bench, login_limit, plans_bench, rules_bench  # noqa: E402


def _django_benches(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    for module in ("bench.web_bench", "bench.sweep_bench", "bench.archive_bench",
                   "bench.tournament_bench"):  # fmt: skip
        subprocess.run([sys.executable, "-m", module], cwd=ROOT, env=env, check=True)


def main() -> None:
    rules_bench.main()
    bots_bench.main()
    plans_bench.main()  # planned turns: how much of a slow game plans would play
    login_limit.main()
    # What players feel: the site through gunicorn, side by side with a bare endpoint.
    subprocess.run([sys.executable, "-m", "bench.serve_bench"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory() as folder:
        _django_benches(f"sqlite:///{folder}/bench.sqlite3")
    postgres = os.environ.get("BENCH_POSTGRES_URL")
    if postgres:
        _django_benches(postgres)
        # Backup and restore of 100,000 games, in a database of its own (it fills it).
        subprocess.run(
            [sys.executable, "-m", "bench.backup_bench", "--database-of", postgres],
            cwd=ROOT, check=True,
        )  # fmt: skip
    else:
        print("PostgreSQL figures: not run (set BENCH_POSTGRES_URL, as make bench does)")
    # Webhook and push delivery: real worker processes, each broker side by side.
    subprocess.run([sys.executable, "-m", "bench.notify_bench"], cwd=ROOT, check=True)
    # Live streams against the poll, 2,000 idle streams, an API move against the page's.
    subprocess.run([sys.executable, "-m", "bench.live_bench"], cwd=ROOT, check=True)
    # Emails under a 50-game load of bot games: the queues and the email delay (issue 27).
    subprocess.run([sys.executable, "-m", "bench.mail_load_bench"], cwd=ROOT, check=True)
    # make run itself: an invitation email, a tournament's next round and its end.
    subprocess.run([sys.executable, "-m", "bench.dev_run_bench"], cwd=ROOT, check=True)
    # /healthz while webhook tests drip: no outgoing request holds a web worker.
    subprocess.run([sys.executable, "-m", "bench.drip_bench"], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
