#!/usr/bin/env bash
# `make tsan`: the server's concurrency under ThreadSanitizer. Runs the
# server suite and the hardening suite against build/tsan/phantomgo (built
# by make tsan with -fsanitize=thread -O1). TSan writes each report to a
# file under build/tsan/reports/ (not the server's stderr, which the tests
# capture), so a race fails this run even when every test passed.
#
# The tests that measure time (rate-limit windows, latency under a slow
# client) read PHANTOMGO_SLOW=1 and widen their margins: TSan makes the
# server several times slower.
set -uo pipefail
cd "$(dirname "$0")/../.."

bin=$PWD/build/tsan/phantomgo
reports=$PWD/build/tsan/reports
[ -x "$bin" ] || { echo "no $bin: run make tsan"; echo "0 passed, 1 failed"; exit 1; }
rm -rf "$reports"
mkdir -p "$reports"
export PHANTOMGO_BIN=$bin PHANTOMGO_SLOW=1
export TSAN_OPTIONS="log_path=$reports/race halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

files=()
for f in tests/server/*.test.mjs tests/hardening/*.test.mjs; do [ -e "$f" ] && files+=("$f"); done
started=$SECONDS
node --test --test-concurrency=1 --test-reporter=tap "${files[@]}" >build/tsan/tests.log 2>&1
rc=$?
pass=$(grep -E '^# pass [0-9]+' build/tsan/tests.log | tail -n 1 | awk '{print $3}')
fail=$(grep -E '^# fail [0-9]+' build/tsan/tests.log | tail -n 1 | awk '{print $3}')
races=$(find "$reports" -type f | wc -l)
echo "tests under TSan: ${pass:-0} passed, ${fail:-?} failed in $((SECONDS - started))s (log build/tsan/tests.log)"
grep -E '^not ok' build/tsan/tests.log | head -n 20 | sed 's/^/   /'
if [ "$races" -gt 0 ]; then
    echo "ThreadSanitizer reports: $races file(s) in $reports"
    grep -h -A 12 -E '^WARNING: ThreadSanitizer' "$reports"/* | head -n 80 | sed 's/^/   /'
fi
[ "$races" -eq 0 ] && echo "no ThreadSanitizer report"
p=${pass:-0}; f=${fail:-1}
[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
echo "tsan: $p passed, $((f + races)) failed"
[ "$f" -eq 0 ] && [ "$races" -eq 0 ]
