#!/usr/bin/env bash
# The cluster benchmark (part of `make bench`; issue 17): the same load as
# bench/load.sh (bench/loadgen.c: games in play with both seats acting,
# spectators on WebSockets), sent through HAProxy with docker/haproxy.cfg to
#   - one server on SQLite (the default site, as reference),
#   - 1, 2 and 3 servers sharing one PostgreSQL,
# all in one run, printing durable attempts per second and p50/p99 latency.
#
# Every server, HAProxy, PostgreSQL and the generator share this machine's
# cores, so the table shows what the cluster COSTS per attempt (a network
# round trip per statement, a proxy hop), not how it scales: more servers
# on the same two cores only add contention. Scaling needs more machines.
#
# PostgreSQL is started in a temporary directory by tests/pg/with-postgres.mjs
# (fsync on, synchronous_commit on: every acknowledged attempt is durable).
#   CLUSTER_GAMES (200)  CLUSTER_SPECTATORS (100)  CLUSTER_SECONDS (10)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PHANTOMGO_TEST_PG:-}" ]; then
    exec node tests/pg/with-postgres.mjs "$0" "$@"
fi

games=${CLUSTER_GAMES:-200}
spectators=${CLUSTER_SPECTATORS:-100}
seconds=${CLUSTER_SECONDS:-10}
bin=${PHANTOMGO_BIN:-build/phantomgo}
work=$(mktemp -d /tmp/pg-cluster-bench.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p build/bench
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
   -Wmissing-prototypes -o build/bench/loadgen bench/loadgen.c -lcjson
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# start_server DB LOG: starts one server, prints its port.
start_server() {
    "$bin" serve --port 0 --listen 127.0.0.1 --db "$1" --threads 32 --max-websockets $((spectators + 64)) --websockets-per-address $((spectators + 64)) \
        --rate-limit 0 --create-limit 0 >"$2" 2>"$2.err" &
    pids+=($!)
    for _ in $(seq 100); do grep -q 'listening on' "$2" 2>/dev/null && break; sleep 0.1; done
    sed -nE 's/^listening on http:\/\/[^:]+:([0-9]+).*/\1/p' "$2"
}

# run_case NAME DB N: N servers on DB behind HAProxy; prints one table row.
run_case() {
    local name=$1 db=$2 n=$3 ports=() i
    local first=${#pids[@]}
    for i in $(seq "$n"); do ports+=("$(start_server "$db" "$work/$name-$i.out")"); done
    local hport list
    hport=$(free_port)
    list=$(IFS=,; echo "${ports[*]}")
    # exit at once: the module pulls in node:test, whose reporter would
    # otherwise append its TAP summary to the configuration at exit.
    node -e "import('./tests/cluster/lib.mjs').then((m) => { process.stdout.write(m.haproxyConfig($hport, [$list])); process.exit(0); })" \
        >"$work/$name.cfg"
    haproxy -f "$work/$name.cfg" -db >"$work/$name.haproxy" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$hport/api/health" >/dev/null && break; sleep 0.1; done
    build/bench/loadgen --port "$hport" --games "$games" --spectators "$spectators" --conns 32 \
        --seconds "$seconds" --sources 16 >"$work/$name.result" 2>"$work/$name.err" || true
    val() { sed -nE "s/^$1 (.*)/\1/p" "$work/$name.result"; }
    printf '| %-30s | %8s | %10s | %8s | %8s | %6s |\n' "$name" "$(val actions)" \
        "$(val actions_per_second)" "$(val p50_ms)" "$(val p99_ms)" "$(val errors)"
    [ "$(val errors)" = 0 ] || echo "  ($name: first error: $(val first_error))"
    for p in "${pids[@]:$first}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]:$first}"; do wait "$p" 2>/dev/null || true; done
    pids=("${pids[@]:0:$first}")
}

pg_db() {   # pg_db NAME: a fresh database, prints its connection string
    psql -X -q -d "$PHANTOMGO_TEST_PG dbname=postgres" -c "CREATE DATABASE $1" >/dev/null
    echo "$PHANTOMGO_TEST_PG dbname=$1"
}

cpu=$(sed -nE 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1)
printf '\nCluster: %s games in play, %s spectator WebSockets, %ss per case, through HAProxy\n' \
    "$games" "$spectators" "$seconds"
printf '(machine: %s cores, %s; load average %s; every process shares these cores:\n' \
    "$(nproc)" "$cpu" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf ' this shows the cost of the cluster, not its scaling)\n'
printf '| %-30s | %8s | %10s | %8s | %8s | %6s |\n' "case" "attempts" "attempts/s" "p50 ms" "p99 ms" "errors"
printf '|%s|%s|%s|%s|%s|%s|\n' "--------------------------------" "----------" "------------" "----------" "----------" "--------"
run_case "1 server, SQLite" "$work/sqlite.db" 1
run_case "1 server, PostgreSQL" "$(pg_db bench1)" 1
run_case "2 servers, PostgreSQL" "$(pg_db bench2)" 2
run_case "3 servers, PostgreSQL" "$(pg_db bench3)" 3
