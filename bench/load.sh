#!/usr/bin/env bash
# The load benchmark of issue 7 (part of `make bench`, never a timed test):
# 2,000 games in play at once, both seats acting, while 1,000 spectators
# watch over WebSockets, all on loopback against one server process.
# Prints one table: errors, attempts per second, p50/p99 latency of an
# attempt, the server's memory, and the settings the server ran with.
#
# Shape: builds bench/loadgen.c (one epoll thread, so the generator takes
# little of the two cores from the server it measures), starts
# build/phantomgo serve on a free port with a fresh database, runs the
# generator, and reads the server's peak and final RSS from /proc.
# Exit status: 0 only if the generator saw zero errors.
#
#   LOAD_GAMES (2000)  LOAD_SPECTATORS (1000)  LOAD_SECONDS (60)
#   LOAD_CONNS (64): HTTP keep-alive connections carrying the players
#   LOAD_SOURCES (64): loopback source addresses 127.0.0.1..N the clients use
#   LOAD_THREADS (64): the server's --threads (HTTP workers)
set -euo pipefail
cd "$(dirname "$0")/.."

games=${LOAD_GAMES:-2000}
spectators=${LOAD_SPECTATORS:-1000}
seconds=${LOAD_SECONDS:-60}
conns=${LOAD_CONNS:-64}
sources=${LOAD_SOURCES:-64}
threads=${LOAD_THREADS:-64}
max_ws=$((spectators + 64))
bin=${PHANTOMGO_BIN:-build/phantomgo}

work=$(mktemp -d /tmp/pg-load.XXXXXX)
server_pid=
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p build/bench
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
   -Wmissing-prototypes -o build/bench/loadgen bench/loadgen.c -lcjson

# Every open WebSocket holds a server thread and a socket; every client a socket.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# Rate limits off: the point is capacity, and one machine plays thousands of
# clients. (The limits themselves are tested in tests/hardening/abuse.test.mjs.)
"$bin" serve --port 0 --listen 127.0.0.1 --db "$work/pg.db" --threads "$threads" \
    --max-websockets "$max_ws" --rate-limit 0 --create-limit 0 >"$work/out" 2>"$work/err" &
server_pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$work/out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -nE 's/^listening on http:\/\/[^:]+:([0-9]+).*/\1/p' "$work/out")
[ -n "$port" ] || { echo "load: the server did not start"; cat "$work/err"; exit 1; }

rss_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$server_pid/status"; }
rss_idle=$(rss_kb VmRSS)

set +e
build/bench/loadgen --port "$port" --games "$games" --spectators "$spectators" --conns "$conns" \
    --seconds "$seconds" --sources "$sources" >"$work/result" 2>"$work/loadgen.err"
rc=$?
set -e
rss_end=$(rss_kb VmRSS)
rss_peak=$(rss_kb VmHWM)
server_threads=$(awk '$1 == "Threads:" { print $2 }' "/proc/$server_pid/status")
val() { sed -nE "s/^$1 (.*)/\1/p" "$work/result"; }

cpu=$(sed -nE 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1)
printf '\nLoad: %s games in play, %s spectator WebSockets, %ss (machine: %s cores, %s, %s MiB RAM)\n' \
    "$games" "$spectators" "$seconds" "$(nproc)" "$cpu" "$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)"
printf '| %-36s | %18s |\n' "measure" "value"
printf '|%s|%s|\n' "--------------------------------------" "--------------------"
row() { printf '| %-36s | %18s |\n' "$1" "$2"; }
row "games created (incl. restarted)" "$(val games_created)"
row "spectators open / alive at end" "$(val spectators_open) / $(val spectators_alive_at_end)"
row "spectators saw every event" "$(val spectators_caught_up)"
row "actions acknowledged in play" "$(val actions)"
row "attempts per second" "$(val actions_per_second)"
row "  of which moves / illegal / passes" "$(val moves) / $(val illegal) / $(val passes)"
row "attempt latency p50 (ms)" "$(val p50_ms)"
row "attempt latency p90 (ms)" "$(val p90_ms)"
row "attempt latency p99 (ms)" "$(val p99_ms)"
row "attempt latency max (ms)" "$(val max_ms)"
row "WebSocket frames received" "$(val ws_frames)"
row "errors (HTTP, WebSocket)" "$(val errors) ($(val ws_errors) ws)"
row "keep-alive reconnect retries" "$(val retries)"
row "server RSS idle / end (MiB)" "$((rss_idle / 1024)) / $((rss_end / 1024))"
row "server RSS peak (MiB)" "$((rss_peak / 1024))"
row "server threads at end" "$server_threads"
printf 'server settings: --threads %s --max-websockets %s --rate-limit 0 --create-limit 0; ' "$threads" "$max_ws"
printf 'client: %s HTTP keep-alive connections from %s loopback addresses\n' "$conns" "$sources"
if [ "$rc" -ne 0 ]; then
    echo "load: FAILED: $(val first_error)"
    tail -n 5 "$work/loadgen.err"
    tail -n 5 "$work/err"
fi
exit "$rc"
