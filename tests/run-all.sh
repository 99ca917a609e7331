#!/usr/bin/env bash
# Runs every test suite of the project and closes with one line that sums
# them all: "N passed, N failed". Exits non-zero if anything failed or a
# suite could not run at all (counted as one failure).
#
# Each suite prints either the C harness's "N passed, N failed" or node's TAP
# summary ("# pass N" / "# fail N"); this script reads whichever it finds.
# Full logs stay under build/test-logs/ for a reviewer. A suite that cannot
# run here says so with a line "skipped: <why>" (optionally "NAME: skipped:
# <why>"): it counts nothing, and its reason is repeated before the summary,
# as are the names of the tests that failed (tests/lib/suites.sh reads the
# logs and writes that summary).
#
# The quick suites run first, one after another. Then two lanes run side by
# side: the browser suite (Chromium, mostly the processor's work) beside the
# suites of server processes (mostly waiting on sockets, disks and the
# clock), which keeps CI's run under its 15 minutes on two cores; the fuzz
# smoke test and the image check go to the lane that is free first. Each
# suite's verdict goes to a file, so the lanes need not share variables;
# the summary reads them in a fixed order. A suite still running after
# SUITE_TIMEOUT seconds (default 2400) is stopped and fails.
logs=build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.verdict "$logs"/*.started
rm -rf "$logs"/*.claim
suite_timeout=${SUITE_TIMEOUT:-2400}

. "$(dirname "$0")/lib/suites.sh"

run_suite() {        # run_suite NAME COMMAND...: runs it, writes NAME.verdict
    local name=$1; shift
    local log="$logs/$name.log" started=$SECONDS rc counts p f why report
    printf '== %s\n' "$name"
    : >"$logs/$name.started"
    timeout --kill-after=10 "$suite_timeout" "$@" >"$log" 2>&1
    rc=$?
    [ "$rc" -eq 124 ] && echo "stopped after ${suite_timeout}s" >>"$log"
    why=$(sed -nE 's/^([A-Za-z-]+: )?skipped: //p' "$log" | head -n 1)
    if [ -n "$why" ] && [ "$rc" -eq 0 ]; then
        printf '   %s: skipped: %s (%ds, log %s)\n' "$name" "$why" $((SECONDS - started)) "$log"
        printf 'skip %s\n' "$why" >"$logs/$name.verdict"
        return
    fi
    report=""
    counts=$(count_from_log "$log")
    if [ -z "$counts" ]; then
        p=0; f=1
        report=$(echo "   suite did not report a count (exit $rc); last lines:"; tail -n 30 "$log" | sed 's/^/   | /')
    else
        read -r p f <<<"$counts"
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            f=1
            report=$(echo "   suite exited $rc with no failed test; last lines:"; tail -n 30 "$log" | sed 's/^/   | /')
        fi
    fi
    if [ "$f" -gt 0 ]; then
        report+=$'\n'$(failures_of "$log" | head -n 60 | sed 's/^/   | /')
    fi
    # One write, so the lanes' lines never interleave within a suite's.
    printf '%s\n   %s: %d passed, %d failed (%ds, log %s)\n' "$report" "$name" "$p" "$f" \
        $((SECONDS - started)) "$log" | sed '/^$/d'
    printf 'count %d %d\n' "$p" "$f" >"$logs/$name.verdict"
}

node_suite() {       # node_suite NAME DIR: every *.test.mjs in DIR
    local name=$1 dir=$2
    local files=("$dir"/*.test.mjs)
    [ -e "${files[0]}" ] || return 0
    run_suite "$name" node --test --test-concurrency=1 --test-reporter=tap "${files[@]}"
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run_suite layers tests/check-layers.sh
run_suite unit build/unit-tests
run_suite unit-asan build/asan/unit-tests
# Process-level suites run the sanitized binary: every request they make is
# also a memory-safety test of the server.
export PHANTOMGO_BIN=${PHANTOMGO_BIN:-$PWD/build/asan/phantomgo}
node_suite cli tests/cli

# A directory in memory for the browser suite's temporary files, or
# nothing: /dev/shm when it is a tmpfs with room to spare. Chromium's profile
# (playwright makes it under TMPDIR) syncs a dozen small databases to disk
# on every page, thousands of fsyncs per run, which on a slow disk cost more
# than the tests themselves. The suite proves nothing about the disk: the
# server's durability is the server and hardening suites' subject, on disk.
memory_tmpdir() {
    [ -d /dev/shm ] && [ -w /dev/shm ] || return 0
    [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || return 0
    local free_kib
    free_kib=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
    [ -n "$free_kib" ] && [ "$free_kib" -ge 2097152 ] || return 0
    mktemp -d /dev/shm/phantomgo-e2e.XXXXXX 2>/dev/null
}

browser_lane() {
    local tmp
    tmp=$(memory_tmpdir)
    if [ -n "$tmp" ]; then
        TMPDIR=$tmp node_suite e2e tests/e2e
        rm -rf "$tmp"
    else
        node_suite e2e tests/e2e
    fi
    if [ -d tests/artifacts/screenshots ]; then echo "   e2e screenshots: $PWD/tests/artifacts/screenshots"; fi
    node_suite bot tests/bot
    node_suite hardening tests/hardening
    either_lane
}

server_lane() {
    node_suite server tests/server
    # The store's tests and the server suite again, on a PostgreSQL that
    # tests/pg/with-postgres.mjs starts in a temporary directory and removes;
    # all but the two files that never touch the database (static files,
    # the computer's queue), to keep CI within its time, and the hardening
    # file about the store's idempotency records.
    run_suite unit-pg node tests/pg/with-postgres.mjs build/asan/unit-tests \
        test_store.c,test_store_chat.c,test_store_admin.c,test_store_concurrency.c,test_store_pg.c,test_store_idempotency.c,test_store_push.c
    local on_pg=()
    for f in tests/server/*.test.mjs; do
        case $f in */serving.test.mjs | */computer_load.test.mjs) ;; *) on_pg+=("$f") ;; esac
    done
    # The Idempotency-Key records are the store's on either backend.
    on_pg+=(tests/hardening/idempotency.test.mjs)
    run_suite server-pg node tests/pg/with-postgres.mjs \
        node --test --test-concurrency=1 --test-reporter=tap "${on_pg[@]}"
    # Several servers on PostgreSQL, behind HAProxy or not (each file starts its own).
    node_suite cluster tests/cluster
    either_lane
}

# The suites that fit either lane go to whichever finishes its own first, so
# the run ends about when the busier lane would have alone, whichever that
# is on the machine of the day. mkdir is the claim: it succeeds in one lane
# only.
claim() { mkdir "$logs/$1.claim" 2>/dev/null; }
either_lane() {
    if [ -x tests/fuzz/smoke.sh ] && claim fuzz-smoke; then run_suite fuzz-smoke tests/fuzz/smoke.sh; fi
    # SKIP_DOCKER=1 leaves the image check out of a developer's local run (it
    # builds with podman and must not run twice at once); CI never sets it.
    if [ -x docker/check.sh ] && [ -z "${SKIP_DOCKER:-}" ] && claim docker; then run_suite docker docker/check.sh; fi
}

server_lane &
server_lane_pid=$!
browser_lane
lanes_ok=1
wait "$server_lane_pid" || { echo "the server lane ended with status $?"; lanes_ok=0; }

summarize layers unit unit-asan cli e2e bot hardening server unit-pg server-pg cluster fuzz-smoke docker &&
    [ "$lanes_ok" = 1 ]
