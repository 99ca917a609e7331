#!/usr/bin/env bash
# RSS and malloc in-use per idle game, as bench/server.sh section 3 (same flags),
here=$(cd "$(dirname "$0")" && pwd)
# plus glibc's malloc_stats() (called with gdb) before and after N games.
set -euo pipefail
N=${N:-500}
bin=${BIN:-$PWD/build/phantomgo}
out=${OUT:-${TMPDIR:-/tmp}/i22/mem}
rm -rf "$out"; mkdir -p "$out"
"$bin" serve --port 0 --listen 127.0.0.1 --db "$out/db.sqlite" --root "${ROOT:-$PWD}" --rate-limit 0 --create-limit 0 \
   --threads 16 --max-websockets 516 --websockets-per-address 516 ${EXTRA:-} >"$out/srv.out" 2>"$out/srv.err" &
pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$out/srv.out" 2>/dev/null && break; sleep 0.2; done
url=$(sed -nE 's/^listening on (http:\/\/\S+).*/\1/p' "$out/srv.out")
rss() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status"; }
mstats() { : > "$out/srv.err"; gdb -p "$pid" -batch -ex 'call (void)malloc_stats()' >/dev/null 2>&1; sleep 0.3;
           awk '/^Total \(incl. mmap\)/{t=1} t&&/in use bytes/{print $NF}' "$out/srv.err"; }
C=$here/prof_clients.mjs
node $C "$url" setup-attempts 20 "$out/w.json"; node $C "$url" attempts "$out/w.json" 80 >/dev/null
r0=$(rss); m0=$(mstats)
node $C "$url" setup-attempts "$N" "$out/g.json"; node $C "$url" attempts "$out/g.json" $((4 * N))
sleep 0.5
r1=$(rss); m1=$(mstats)
cp "$out/srv.err" "$out/malloc_stats.after"
kill -TERM $pid; wait $pid || true
awk -v a=$r0 -v b=$r1 -v c=$m0 -v d=$m1 -v n=$N 'BEGIN{printf "games %d  rss/game %.1f KiB  malloc-in-use/game %.1f KiB\n", n, (b-a)/n, (d-c)/1024/n}'
