#!/usr/bin/env bash
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
N=${N:-150}
bin=${BIN:-$PWD/build/phantomgo}
out=${OUT:-${TMPDIR:-/tmp}/i22/ms}
rm -rf "$out"; mkdir -p "$out"; cd "$out"
valgrind --tool=massif --depth=40 --threshold=0.01 --max-threads=200 --massif-out-file="$out/massif.out" \
   "$bin" serve --port 0 --listen 127.0.0.1 --db "$out/db.sqlite" --root "${ROOT:-$PWD}" --rate-limit 0 --create-limit 0 \
   --threads 16 --max-websockets 16 --websockets-per-address 16 >"$out/srv.out" 2>"$out/srv.err" &
pid=$!
for _ in $(seq 600); do grep -q 'listening on' "$out/srv.out" 2>/dev/null && break; sleep 0.5; done
url=$(sed -nE 's/^listening on (http:\/\/\S+).*/\1/p' "$out/srv.out")
C=$here/prof_clients.mjs
node $C "$url" setup-attempts 20 "$out/w.json"; node $C "$url" attempts "$out/w.json" 80 >/dev/null
vgdb --pid=$pid detailed_snapshot "$out/snap0" >/dev/null
node $C "$url" setup-attempts "$N" "$out/g.json"; node $C "$url" attempts "$out/g.json" $((4 * N))
vgdb --pid=$pid detailed_snapshot "$out/snap1" >/dev/null
kill -TERM $pid; wait $pid || true
ls -la $out
