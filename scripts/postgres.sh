#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks: `start` prints nothing and leaves a
# server on 127.0.0.1:$PG_PORT (trust auth, fsync off); `stop` shuts it down and deletes it.
# Runs initdb as the postgres user when called as root (initdb refuses to run as root).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_PORT=${PG_PORT:-54329}
PG_DIR=${PG_DIR:-$PWD/var/pg}
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)

as_owner() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    if [[ -z "$BIN" ]]; then
        echo "PostgreSQL is not installed: apt-get install -y postgresql (see .ci/run)" >&2
        exit 1
    fi
    "$0" stop >/dev/null 2>&1 || true
    if [[ $(id -u) -eq 0 ]]; then install -d -o postgres -g postgres "$PG_DIR"; else mkdir -p "$PG_DIR"; fi
    as_owner "$BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust >/dev/null
    as_owner "$BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
        -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
        start >/dev/null
    ;;
stop)
    if [[ -n "$BIN" && -d "$PG_DIR/data" ]]; then
        as_owner "$BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_DIR"
    ;;
url)
    echo "postgres://postgres@127.0.0.1:$PG_PORT/postgres"
    ;;
*)
    echo "usage: $0 start|stop|url" >&2
    exit 2
    ;;
esac
