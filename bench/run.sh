#!/usr/bin/env bash
# `make bench`: every benchmark of the project, one section after another,
# each printing its own table. The machine is noted once at the top, since
# figures mean little without it. Sections are independent: to add one,
# append a block "section NAME; commands" at the end, keeping the others.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${PHANTOMGO_BIN:-build/phantomgo}
SECONDS_EACH=${BENCH_SECONDS:-2}

section() { printf '\n== %s\n' "$1"; }

make --no-print-directory -s all >/dev/null

cpu_model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "machine: $(nproc) cores, ${cpu_model:-unknown CPU}, $(uname -sr)"
echo "load average when starting: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---------------------------------------------------------------------------
section "engine: light playouts, referee games and views (issue 2)"
# One thread; rates are per second of the thread's own CPU time. The 9x9
# playout target is 80,000 per second.
"$BIN" bench --seconds "$SECONDS_EACH"

# ---------------------------------------------------------------------------
section "storage: durable writes, plain SQLite loop vs the store's group commit (issue 3)"
# The reference of issue 3: a plain SQLite loop committing one row per
# transaction (WAL, synchronous=FULL), on the disk the load benchmark's
# database uses (/tmp); then the store itself with 1 and 200 writer threads,
# each append waiting for its own commit. The server's durable attempts per
# second over HTTP must reach at least the loop's rate.
"$BIN" bench --storage "${TMPDIR:-/tmp}" --seconds "$SECONDS_EACH"

# ---------------------------------------------------------------------------
section "load: 2,000 games in play, both seats acting, 1,000 spectator WebSockets (issue 7)"
bench/load.sh

# ---------------------------------------------------------------------------
section "server: view reads vs nginx, durable attempts over HTTP vs the loop, memory (issue 3)"
PHANTOMGO_BIN="$BIN" BENCH_SECONDS="$SECONDS_EACH" bench/server.sh

# ---------------------------------------------------------------------------
section "cluster: HAProxy with 1, 2, 3 servers on PostgreSQL beside 1 on SQLite (issue 17)"
PHANTOMGO_BIN="$BIN" bench/cluster.sh

# ---------------------------------------------------------------------------
section "pages: ready time of every page, first and return visit, in Chromium (issue 13)"
PHANTOMGO_BIN="$BIN" node bench/pages.mjs

# ---------------------------------------------------------------------------
section "computer: 1, 10 and 50 games against the computer at once, per level (issue 16)"
PHANTOMGO_BIN="$BIN" bench/computer.sh
