#!/usr/bin/env bash
# The whole suite, as `make test` runs it (after the deploy check): the SQLite tests on two
# pytest-xdist workers (whole files per worker: a module's fixtures and the browser and live
# server are built once per worker) while the PostgreSQL tests run beside them on a throw-away
# cluster, with the tests marked `beside` (they wait on servers or processes of their own).
# Both parts mostly wait (browsers, servers, subprocesses), so on two cores they overlap well.
# The workers take the files in collection order, the long ones first (tests/conftest.py):
# xdist's own order (most tests first) left a lone long test to end the run. Each part prints
# its 20 slowest tests; the run ends with its wall and CPU time.
# Extra pytest options for both parts: scripts/test.sh -p randomly. TEST_PATHS: fewer tests.
# TEST_WORKERS: the SQLite part's workers (2; 3 or auto to try, docs/operations.md).
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=.venv/bin
WORKERS=${TEST_WORKERS:-2}
read -r -a PATHS <<<"${TEST_PATHS:-tests}"
mkdir -p test-artifacts
POSTGRES_LOG=test-artifacts/postgres-tests.log
start=$(date +%s)

trap 'scripts/postgres.sh stop' EXIT
# The lane beside collects only the files that mark tests `postgres` or `beside` (tests/conftest.py
# checks that every such test's file says so): collecting all the tests costs about 12 s of CPU,
# its 21 files 5, twice, while the SQLite workers start and work.
MARKS='mark\.(postgres|beside)'
BESIDE_PATHS=()
for path in "${PATHS[@]}"; do
    file=${path%%::*}  # a test's id: its file says it or not
    if [[ -d $file ]]; then
        mapfile -t -O "${#BESIDE_PATHS[@]}" BESIDE_PATHS < <(
            grep -rlE --include='test_*.py' "$MARKS" "$file" | sort
        )
    elif grep -qE "$MARKS" "$file" 2>/dev/null; then
        BESIDE_PATHS+=("$path")
    fi
done
# The tests marked `beside` run after the PostgreSQL tests, in a process of their own: the
# cluster rehearsal leaves the test process's broker connections behind it, and the email
# tests that stop and restart their broker then waited in vain for its sweep.
beside_lane() {
    local status=0 part code
    [[ ${#BESIDE_PATHS[@]} -eq 0 ]] && return 0  # none of them among TEST_PATHS
    # Started here, not before the SQLite workers: they need no server and start at once.
    scripts/postgres.sh start || return 1
    for part in "postgres" "beside and not postgres"; do
        DATABASE_URL=$(scripts/postgres.sh url) "$BIN/pytest" "${BESIDE_PATHS[@]}" -m "$part" \
            --durations=20 -p no:cacheprovider "$@"
        code=$?
        [[ $code -eq 5 ]] && code=0  # none of them among TEST_PATHS
        [[ $code -ne 0 ]] && status=$code
    done
    return "$status"
}
beside_lane "$@" >"$POSTGRES_LOG" 2>&1 &
postgres_pid=$!

"$BIN/pytest" "${PATHS[@]}" -m "not postgres and not beside" -n "$WORKERS" --dist loadfile \
    --no-loadscope-reorder --durations=20 "$@"
sqlite_status=$?

wait "$postgres_pid"
postgres_status=$?
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
