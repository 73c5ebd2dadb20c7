#!/usr/bin/env bash
# The proof that no test depends on the time of day, the date, the machine's time zone or the
# order (issue 29): the whole suite (scripts/test.sh) three times in a row, each in another
# zone and with the run's clock started a moment before or after midnight UTC of today
# (TEST_CLOCK, tests/conftest.py; it goes on ticking), each in an order shuffled by
# pytest-randomly with a fresh seed. Not part of `make test`: it takes three whole runs.
#
#   scripts/proof_runs.sh                 the three runs below, in this order
#   PROOF_RUNS="UTC@00:00:30" scripts/proof_runs.sh    only some (ZONE@HH:MM:SS, space apart)
#   PROOF_DATE=2026-11-26 ...             another day (default: the last midnight UTC behind
#                                         us: yesterday's date for the 23:59:30 run)
#   PROOF_ARGS="-p randomly -p randomly --randomly-seed=123" ...   repeat a run's order
#
# Each run's output is in test-artifacts/proof-<zone>.log; the end prints one line per run:
# zone, clock, seed, wall time, result and the failed tests. To tell a real dependency from a
# loaded machine, run a failed test alone with the same TZ, TEST_CLOCK and seed.
#
# The clock is moved back, never ahead: the tests that start Redis, Celery workers and beat
# run those on the real clock, and a test clock hours ahead of them made its rows "created in
# the future" to a worker's sweep (Kiritimati at 23:59:30 of a day not yet over, 2026-11-27).
set -uo pipefail
cd "$(dirname "$0")/.."

TODAY=$(date -u +%F)
YESTERDAY=$(date -u -d yesterday +%F)
read -r -a RUNS <<<"${PROOF_RUNS:-America/Adak@00:00:30 Pacific/Kiritimati@23:59:30 UTC@00:00:30}"
read -r -a ARGS <<<"${PROOF_ARGS:--p randomly}"
mkdir -p test-artifacts
SUMMARY=test-artifacts/proof-summary.txt
: >"$SUMMARY"
status=0

for run in "${RUNS[@]}"; do
    zone=${run%@*}
    time=${run#*@}
    day=${PROOF_DATE:-$([[ $time > $(date -u +%T) ]] && echo "$YESTERDAY" || echo "$TODAY")}
    clock="${day}T${time}Z"
    log="test-artifacts/proof-${zone//\//-}.log"
    echo "=== TZ=$zone TEST_CLOCK=$clock scripts/test.sh ${ARGS[*]} (log: $log)"
    TZ=$zone TEST_CLOCK=$clock scripts/test.sh "${ARGS[@]}" >"$log" 2>&1
    code=$?
    [[ $code -ne 0 ]] && status=1
    seed=$(grep -m 1 -o 'randomly-seed=[0-9]*' "$log" | cut -d= -f2)
    wall=$(grep -o 'wall [0-9]* min [0-9]* s' "$log" | tail -n 1)
    failed=$(grep -E '^(FAILED|ERROR) ' "$log" | cut -d' ' -f2 | sort -u | tr '\n' ' ')
    result=$([[ $code -eq 0 ]] && echo passed || echo "FAILED: ${failed:-see the log}")
    echo "$zone | $clock | seed ${seed:-none} | ${wall:-no wall} | $result" | tee -a "$SUMMARY"
done
echo
echo "zone | clock | seed | wall | result  (also in $SUMMARY)"
cat "$SUMMARY"
exit "$status"
