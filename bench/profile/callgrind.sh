#!/usr/bin/env bash
# callgrind on a real server: N view reads, then N attempts; one dump each.
here=$(cd "$(dirname "$0")" && pwd)
set -euo pipefail
N=${N:-300}
bin=${BIN:-$PWD/build/phantomgo}
out=${OUT:-${TMPDIR:-/tmp}/i22/cg}
rm -rf "$out"; mkdir -p "$out"; cd "$out"
nice -n 10 valgrind --tool=callgrind --callgrind-out-file="$out/cg.%p" --dump-instr=no \
   "$bin" serve --port 0 --listen 127.0.0.1 --db "$out/db.sqlite" --root "${ROOT:-$PWD}" \
   --rate-limit 0 --create-limit 0 --threads 4 --max-websockets 8 --websockets-per-address 8 >"$out/srv.out" 2>"$out/srv.err" &
vpid=$!
for _ in $(seq 600); do grep -q 'listening on' "$out/srv.out" 2>/dev/null && break; sleep 0.5; done
url=$(sed -nE 's/^listening on (http:\/\/\S+).*/\1/p' "$out/srv.out")
echo "url $url pid $vpid"
C=$here/prof_clients.mjs
read -r game token < <(node $C "$url" setup-view)
node $C "$url" views "$game" "$token" 20 >/dev/null   # warm
callgrind_control -z "$vpid" >/dev/null
node $C "$url" views "$game" "$token" "$N"
callgrind_control -d views "$vpid" >/dev/null
node $C "$url" setup-attempts 20 "$out/games.json"
node $C "$url" attempts "$out/games.json" 20 >/dev/null  # warm
callgrind_control -z "$vpid" >/dev/null
node $C "$url" attempts "$out/games.json" "$N"
callgrind_control -d attempts "$vpid" >/dev/null
kill -TERM "$vpid"; wait "$vpid" || true
ls -la "$out"
