#!/usr/bin/env bash
# Builds the libFuzzer targets (make fuzzers) and runs each one from its
# corpus, tests/fuzz/corpus/<target>/: every file there (hand-written seeds
# and the inputs of crashes found earlier, kept as regression tests) is
# replayed first, then the target fuzzes for a while. One verdict a target,
# closing with "N passed, N failed" for tests/run-all.sh.
#
#   FUZZ_SECONDS        seconds of fuzzing per target (default: 30 s shared
#                       by all targets, 5..20 s each, so make test stays lean)
#   FUZZ_KEEP_CORPUS=1  keep what the fuzzer learns in build/fuzz/corpus/
#                       across runs (make fuzz); otherwise a fresh directory
#
# tests/fuzz/<target>.flags, if present, holds extra libFuzzer flags for
# that target. fuzz_api_http has -detect_leaks=0: LeakSanitizer's checks
# stop every thread of the process, the in-process server's included, and
# interrupt its socket calls (a connection then closes unanswered, which is
# the harness's doing, not the server's); and a server's caches cannot be
# pinned on one input anyway. The server's leaks are checked where it runs
# as a process: every suite of tests/run-all.sh runs it under ASan with
# detect_leaks=1.
#
# Crashing inputs land in build/fuzz/crashes/<target>/; logs in
# build/fuzz/logs/. To turn a crash into a regression test, copy its input
# into tests/fuzz/corpus/<target>/ under a name saying what it caught.
set -uo pipefail
cd "$(dirname "$0")/../.."

mkdir -p build/fuzz/logs
if ! make -s fuzzers >build/fuzz/logs/build.log 2>&1; then
    echo "the fuzzers did not build:"; tail -n 30 build/fuzz/logs/build.log
    echo "0 passed, 1 failed"; exit 1
fi

targets=()
for src in tests/fuzz/fuzz_*.c; do
    [ -e "$src" ] && targets+=("$(basename "$src" .c)")
done
n=${#targets[@]}
if [ -n "${FUZZ_SECONDS:-}" ]; then per=$FUZZ_SECONDS
elif [ "$n" -gt 0 ]; then per=$((30 / n)); [ $per -lt 5 ] && per=5; [ $per -gt 20 ] && per=20
fi

pass=0 fail=0
for t in "${targets[@]}"; do
    seeds=tests/fuzz/corpus/${t#fuzz_}
    work=build/fuzz/corpus/${t#fuzz_}
    [ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] || rm -rf "$work"
    mkdir -p "$work" "$seeds" "build/fuzz/crashes/$t"
    log=build/fuzz/logs/$t.log
    extra=()
    [ -f "tests/fuzz/$t.flags" ] && read -r -a extra <"tests/fuzz/$t.flags"
    build/fuzz/$t -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 "${extra[@]}" \
        -artifact_prefix="build/fuzz/crashes/$t/" "$work" "$seeds" >"$log" 2>&1
    rc=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        printf 'ok   %-24s %ss, %s runs, %s exec/s, %s seed files\n' "$t" "$per" "${runs:-?}" "${rate:-?}" \
            "$(find "$seeds" -type f | wc -l)"
    else
        fail=$((fail + 1))
        printf 'FAIL %s (exit %d), log %s, input in build/fuzz/crashes/%s/\n' "$t" "$rc" "$log" "$t"
        grep -E 'ERROR|invariant failed|SUMMARY|#[0-9]+ 0x' "$log" | head -n 25 | sed 's/^/    /'
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
