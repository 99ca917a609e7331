#!/usr/bin/env bash
# The computer benchmark of issue 16 (part of `make bench`, never a timed
# test): how long a human waits for the computer's answer when 1, 10 and 50
# games against it are played at once, at each level, on this machine.
#
# For each level and number of games, a fresh `phantomgo serve` on a free
# loopback port and a fresh database; bench/computer_clients.mjs creates the
# games, opens each one's WebSocket as the human, and has every human play
# at once (a few moves each). The latency of one sample runs from sending
# the human's move to the socket bringing the view where the human is to
# move again (the computer's whole turn). The memory is the server's peak
# RSS (VmHWM) over its RSS after start, divided by the games: what a game in
# play against the computer costs, its share of the thinking included (one
# turn per worker thinks at a time; the others wait in the queue). At the
# strong level the thinking is most of it: each worker's decision writes
# up to 24 MiB of search tree (src/bot/ismcts.c, POOL_MAX), so the peak is
# about workers x the nodes a decision fills, whatever the number of games
# (at ten games, two workers: about 4.5 MiB a game when every turn thinks
# its whole second, half that with PHANTOMGO_COMPUTER_THREADS=1).
#
# The reference: the same server with PHANTOMGO_COMPUTER_SHARE=off (every
# turn thinks its level's whole budget, as before issue 16), in the same
# run, at the numbers of games in COMPUTER_REFERENCE. The goal: at 10 games
# the strong level's p99 under three times its budget (1 s a move).
#
#   COMPUTER_LEVELS ("easy medium strong")  COMPUTER_GAMES ("1 10 50")
#   COMPUTER_REFERENCE ("10")  COMPUTER_SAMPLES (10): moves per point at
#   least (so 10 moves at 1 game, 2 per game from 10 games on)
set -euo pipefail
cd "$(dirname "$0")/.."

levels=${COMPUTER_LEVELS:-easy medium strong}
counts=${COMPUTER_GAMES:-1 10 50}
reference=${COMPUTER_REFERENCE:-10}
samples=${COMPUTER_SAMPLES:-10}
bin=${PHANTOMGO_BIN:-build/phantomgo}
[ -x "$bin" ] || make --no-print-directory -s all

work=$(mktemp -d /tmp/pg-computer-bench.XXXXXX)
server_pid=
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

rss_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$server_pid/status"; }

# run_point LEVEL GAMES SHARE: one server, one row of the table.
run_point() {
    local level=$1 games=$2 share=$3 moves name=$1-$2-$3
    moves=$(( (samples + games - 1) / games ))
    [ "$moves" -ge 2 ] || moves=2
    PHANTOMGO_COMPUTER_SHARE=$share "$bin" serve --port 0 --listen 127.0.0.1 --db "$work/$name.db" \
        --threads $((games * 2 + 16)) --max-websockets $((games + 16)) --websockets-per-address $((games + 16)) \
        --rate-limit 0 --create-limit 0 >"$work/$name.out" 2>"$work/$name.err" &
    server_pid=$!
    for _ in $(seq 100); do grep -q 'listening on' "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    local url
    url=$(sed -nE 's/^listening on (http:\/\/\S+).*/\1/p' "$work/$name.out")
    [ -n "$url" ] || { echo "computer bench: the server did not start"; cat "$work/$name.err"; exit 1; }
    local rss0 rc=0
    rss0=$(rss_kb VmRSS)
    node bench/computer_clients.mjs "$url" "$level" "$games" "$moves" >"$work/$name.json" 2>"$work/$name.node" || rc=$?
    local peak
    peak=$(rss_kb VmHWM)
    kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    server_pid=
    val() { node -e "const r = JSON.parse(require('fs').readFileSync('$work/$name.json', 'utf8')); console.log(r.$1)"; }
    if [ ! -s "$work/$name.json" ]; then
        echo "computer bench: $name failed: $(tail -n 3 "$work/$name.node") $(tail -n 3 "$work/$name.err")"
        return
    fi
    local label
    label=$([ "$share" = on ] && echo "shared" || echo "whole (reference)")
    printf '| %-6s | %5s | %-17s | %7s | %7s | %7s | %7s | %5s | %9s | %10s | %4s |\n' "$level" "$games" "$label" \
        "$(val samples)" "$(val p50_ms)" "$(val p99_ms)" "$(val max_ms)" "$(val busy_turns)" \
        "$(val mean_think_percent)" "$(( (peak - rss0) / games ))" "$(cut -d' ' -f1 /proc/loadavg)"
    [ "$rc" -eq 0 ] || echo "  ($name: $(val errors) errors, first: $(val first_error); server: $(tail -n 2 "$work/$name.err"))"
}

cpu=$(sed -nE 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1)
printf '\nComputer games at once: time from a human move to the computer'"'"'s answer, 9x9, levels at 1 s a move\n'
printf '(machine: %s cores, %s, %s MiB RAM; load average at start %s; the server has one computer worker per core)\n' \
    "$(nproc)" "$cpu" "$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-6s | %5s | %-17s | %7s | %7s | %7s | %7s | %5s | %9s | %10s | %4s |\n' "level" "games" "budget" \
    "samples" "p50 ms" "p99 ms" "max ms" "busy" "think %" "KiB/game" "load"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' "--------" "-------" "-------------------" "---------" "---------" \
    "---------" "---------" "-------" "-----------" "------------" "------"
for level in $levels; do
    for games in $counts; do
        run_point "$level" "$games" on
        case " $reference " in *" $games "*) run_point "$level" "$games" off ;; esac
    done
done
printf 'busy: computer turns that thought with a share of their budget (the page says the server is busy);\n'
printf 'think %%: the mean share; KiB/game: (server peak RSS - RSS at start) / games; goal: strong p99 at 10 games < 3000 ms\n'
