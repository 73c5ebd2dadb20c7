#!/usr/bin/env bash
# The whole suite, as `make test` runs it (after the deploy check): the SQLite tests on two
# pytest-xdist workers (whole files per worker: a module's fixtures and the browser and live
# server are built once per worker) while the PostgreSQL tests run beside them on a throw-away
# cluster, with the tests marked `beside` (they wait on servers of their own). Both parts
# mostly wait (browsers, servers, subprocesses), so on two cores they overlap well. The workers
# take the files in collection order, the long ones first (tests/conftest.py): xdist's own
# order (most tests first) left a lone long test to end the run. Each part prints its 20
# slowest tests; the run ends with its wall and CPU time.
# Extra pytest options for both parts: scripts/test.sh -p randomly. TEST_PATHS: fewer tests.
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=.venv/bin
WORKERS=${TEST_WORKERS:-2}
read -r -a PATHS <<<"${TEST_PATHS:-tests}"
mkdir -p test-artifacts
POSTGRES_LOG=test-artifacts/postgres-tests.log
start=$(date +%s)

scripts/postgres.sh start || exit 1
trap 'scripts/postgres.sh stop' EXIT
DATABASE_URL=$(scripts/postgres.sh url) "$BIN/pytest" "${PATHS[@]}" -m "postgres or beside" \
    --durations=20 -p no:cacheprovider "$@" >"$POSTGRES_LOG" 2>&1 &
postgres_pid=$!

"$BIN/pytest" "${PATHS[@]}" -m "not postgres and not beside" -n "$WORKERS" --dist loadfile \
    --no-loadscope-reorder --durations=20 "$@"
sqlite_status=$?

wait "$postgres_pid"
postgres_status=$?
[[ $postgres_status -eq 5 ]] && postgres_status=0  # no postgres test among TEST_PATHS
echo
echo "=== PostgreSQL tests (run beside the SQLite ones; also in $POSTGRES_LOG) ==="
cat "$POSTGRES_LOG"

wall=$(($(date +%s) - start))
echo
times >test-artifacts/times.txt  # a builtin, in this shell: its children's CPU time counts
read -r user system < <(tail -n 1 test-artifacts/times.txt)
echo "make test: wall $((wall / 60)) min $((wall % 60)) s; CPU of the tests: user $user, system $system"
if [[ $sqlite_status -ne 0 || $postgres_status -ne 0 ]]; then
    echo "FAILED: SQLite part exit $sqlite_status, PostgreSQL part exit $postgres_status" >&2
    exit 1
fi
