#!/usr/bin/env bash
# The server's benchmark of issue 3 (part of `make bench`, never a timed
# test), on loopback, in one run so every figure has its reference beside it:
#
#  1. reads of a 9x9 game's view in mid-play (GET /api/v1/games/{id} with a
#     seat token) per second, against nginx (Debian's) serving a static
#     file of the same size from the same machine; goal: at least 0.5x;
#  2. durable attempts per second through HTTP with 200 games played at
#     once (bench/loadgen.c, each answer sent after its own commit), against
#     the plain SQLite loop committing one row per transaction (WAL,
#     synchronous=FULL) on the same disk; goal: at least 1x;
#  3. memory per open idle game and per open WebSocket: the server's RSS
#     before and after holding N of each.
#
# Both load generators get one thread (wrk -t1, loadgen's single epoll
# loop) so the server and nginx get the same share of the two cores.
#
#   BENCH_SECONDS (5)   VIEW_ROUNDS (3)   VIEW_CONNS (32)   MEM_GAMES (2000)
#   MEM_SOCKETS (500)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${BENCH_SECONDS:-5}
rounds=${VIEW_ROUNDS:-3}
view_conns=${VIEW_CONNS:-32}
mem_games=${MEM_GAMES:-2000}
mem_sockets=${MEM_SOCKETS:-500}
bin=${PHANTOMGO_BIN:-build/phantomgo}

for tool in wrk nginx node cc; do
    command -v "$tool" >/dev/null || { echo "server bench: '$tool' is missing (scripts/install-deps.sh bench; node for the clients)"; exit 1; }
done
[ -x "$bin" ] || make --no-print-directory -s all

work=$(mktemp -d /tmp/pg-server-bench.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
    [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# start_server NAME ARGS...: sets $url and $pid.
start_server() {
    local name=$1; shift
    "$bin" serve --port 0 --listen 127.0.0.1 --db "$work/$name.db" --rate-limit 0 --create-limit 0 "$@" \
        >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 100); do grep -q 'listening on' "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    url=$(sed -nE 's/^listening on (http:\/\/\S+).*/\1/p' "$work/$name.out")
    [ -n "$url" ] || { echo "server bench: the server did not start"; cat "$work/$name.err"; exit 1; }
}
stop_server() { kill -TERM "$1"; wait "$1" 2>/dev/null || true; }
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"; }
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
wrk_rate() { sed -nE 's/^Requests\/sec: *([0-9.]+).*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }'; }

# ---- 1. view reads vs nginx ------------------------------------------------
start_server views --threads 64
read -r game token < <(node bench/server_clients.mjs view "$url" "$work/view.json")
view_bytes=$(stat -c %s "$work/view.json")
mkdir -p "$work/www"
cp "$work/view.json" "$work/www/view.json"
nginx_port=$(free_port)
cat >"$work/nginx.conf" <<EOF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx.err;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000000;
    default_type application/json;
    server { listen 127.0.0.1:$nginx_port; root $work/www; }
}
EOF
[ "$(id -u)" = 0 ] && sed -i '1i user root;' "$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done
curl_bytes=$(node -e "fetch('http://127.0.0.1:$nginx_port/view.json').then(r => r.text()).then(t => console.log(t.length))")
[ "$curl_bytes" = "$view_bytes" ] || { echo "server bench: nginx does not serve the file"; cat "$work/nginx.err"; exit 1; }

# The machine is shared: the two servers take turns, several times, and each
# keeps its best run, so a burst of someone else's work hurts neither more.
view_rate=0 nginx_rate=0
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }
wrk -t1 -c"$view_conns" -d1s -H "Authorization: Bearer $token" "$url/api/v1/games/$game" >/dev/null
wrk -t1 -c"$view_conns" -d1s "http://127.0.0.1:$nginx_port/view.json" >/dev/null
for _ in $(seq "$rounds"); do
    r=$(wrk -t1 -c"$view_conns" -d"${seconds}s" -H "Authorization: Bearer $token" "$url/api/v1/games/$game" | wrk_rate)
    view_rate=$(best "$view_rate" "$r")
    r=$(wrk -t1 -c"$view_conns" -d"${seconds}s" "http://127.0.0.1:$nginx_port/view.json" | wrk_rate)
    nginx_rate=$(best "$nginx_rate" "$r")
done
kill -QUIT "$(cat "$work/nginx.pid")"
rm -f "$work/nginx.pid"
stop_server "$pid"

# ---- 2. durable attempts vs the one-row-per-commit loop --------------------
loop_rate=$("$bin" bench --storage "$work" --seconds "$seconds" | awk '/plain SQLite loop/ { print $(NF-2) }')
mkdir -p build/bench
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
   -Wmissing-prototypes -o build/bench/loadgen bench/loadgen.c -lcjson
start_server attempts --threads 256
build/bench/loadgen --port "${url##*:}" --games 200 --spectators 0 --conns 200 --seconds "$seconds" \
    --sources 16 >"$work/attempts.result" 2>"$work/attempts.err" || true
attempt_rate=$(sed -nE 's/^actions_per_second (.*)/\1/p' "$work/attempts.result")
attempt_errors=$(sed -nE 's/^errors (.*)/\1/p' "$work/attempts.result")
attempt_p50=$(sed -nE 's/^p50_ms (.*)/\1/p' "$work/attempts.result")
attempt_p99=$(sed -nE 's/^p99_ms (.*)/\1/p' "$work/attempts.result")
stop_server "$pid"

# ---- 3. memory per idle game and per WebSocket -----------------------------
start_server memory --threads 16 --max-websockets "$((mem_sockets + 16))" --websockets-per-address "$((mem_sockets + 16))"
server_pid=$pid
node bench/server_clients.mjs hold "$url" 20 0 < /dev/null >/dev/null     # warm up the allocator and threads
rss0=$(rss_kb "$server_pid")
coproc CLIENTS { node bench/server_clients.mjs hold "$url" "$mem_games" "$mem_sockets"; }
read -r line <&"${CLIENTS[0]}"
sleep 0.5
rss1=$(rss_kb "$server_pid")
echo go >&"${CLIENTS[1]}"
read -r line <&"${CLIENTS[0]}"
sleep 0.5
rss2=$(rss_kb "$server_pid")
threads_open=$(awk '$1 == "Threads:" { print $2 }' "/proc/$server_pid/status")
echo done >&"${CLIENTS[1]}"
wait "$CLIENTS_PID" 2>/dev/null || true
stop_server "$server_pid"
per_game=$(awk -v a="$rss0" -v b="$rss1" -v n="$mem_games" 'BEGIN { printf "%.1f", (b - a) / n }')
per_socket=$(awk -v a="$rss1" -v b="$rss2" -v n="$mem_sockets" 'BEGIN { printf "%.1f", (b - a) / n }')

# ---- the table ---------------------------------------------------------------
cpu=$(sed -nE 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1)
printf '\nServer (machine: %s cores, %s, %s MiB RAM; loopback; %ss per measure)\n' \
    "$(nproc)" "$cpu" "$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)" "$seconds"
printf '| %-58s | %14s | %8s |\n' "measure" "value" "ratio"
printf '|%s|%s|%s|\n' "------------------------------------------------------------" "----------------" "----------"
row() { printf '| %-58s | %14s | %8s |\n' "$1" "$2" "$3"; }
row "view of a 9x9 game in mid-play, $view_bytes bytes: reads/s" "$view_rate" "$(ratio "$view_rate" "$nginx_rate")"
row "nginx, static file of the same size: reads/s" "$nginx_rate" "1.00x"
row "durable attempts/s over HTTP, 200 games at once" "$attempt_rate" "$(ratio "$attempt_rate" "$loop_rate")"
row "  their latency p50 / p99 (ms), errors" "$attempt_p50 / $attempt_p99" "$attempt_errors"
row "plain SQLite loop, one row per commit: commits/s" "$loop_rate" "1.00x"
row "memory per open idle game (KiB of RSS, $mem_games games)" "$per_game" ""
row "memory per open WebSocket (KiB of RSS, $mem_sockets sockets)" "$per_socket" ""
printf 'goals: view reads >= 0.5x nginx; durable attempts >= 1x the loop. wrk -t1 -c%s, best of %s alternating runs; ' \
    "$view_conns" "$rounds"
printf 'loadgen: 200 keep-alive connections, server --threads 256; %s server threads with %s sockets open\n' \
    "$threads_open" "$mem_sockets"
