"""`make bench`: every benchmark of the project, printing its figures.

The web benchmark runs in a child process per database, because Django binds to one database
per process: SQLite always, PostgreSQL when BENCH_POSTGRES_URL is set (make bench starts one).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import rules_bench  # noqa: E402


def _web(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "bench.web_bench"], cwd=ROOT, env=env, check=True)


def main() -> None:
    rules_bench.main()
    with tempfile.TemporaryDirectory() as folder:
        _web(f"sqlite:///{folder}/bench.sqlite3")
    postgres = os.environ.get("BENCH_POSTGRES_URL")
    if postgres:
        _web(postgres)
    else:
        print("Web, postgresql: skipped (set BENCH_POSTGRES_URL, as make bench does)")


if __name__ == "__main__":
    main()
