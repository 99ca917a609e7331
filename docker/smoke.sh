#!/usr/bin/env bash
# The smoke test run inside the image (see smoke.Dockerfile): as the image's
# own non-root user and environment, start the server, wait until its own
# HEALTHCHECK command passes, create a game over the API, check that the
# database appeared in /data, take online backups (`phantomgo backup`, the
# sqlite3 shell) as docs/SELF-HOSTING.md tells, stop the server with SIGTERM, restore a backup,
# start again on it and read the game back.
#
# The image has no curl on purpose, so HTTP goes through bash's /dev/tcp.
# The build shares the host's network, so the server listens on loopback on
# a port of the kernel's choosing (PHANTOMGO_PORT=0), never on 8080.
# Each check prints "smoke: ok N - ..." or "smoke: not ok N - ..." for
# docker/check.sh to count; any failure fails the build.
set -uo pipefail

checks=0 failures=0
work=$(mktemp -d)
server_pid='' port='' game_id=''

ok()   { checks=$((checks + 1)); echo "smoke: ok $checks - $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "smoke: not ok $checks - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
finish() { echo "smoke: $checks checks, $failures failed"; [ "$failures" -eq 0 ]; exit; }

stop_server_on_exit() { [ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap stop_server_on_exit EXIT

# start_server LOG: starts `phantomgo serve` as the image configures it, but
# on loopback and a free port; sets server_pid and port, or returns 1.
start_server() {
    local log=$1 url='' tries=0
    PHANTOMGO_PORT=0 PHANTOMGO_LISTEN=127.0.0.1 phantomgo serve >"$log" 2>&1 &
    server_pid=$!
    while [ -z "$url" ] && [ $tries -lt 200 ] && kill -0 "$server_pid" 2>/dev/null; do
        sleep 0.05
        tries=$((tries + 1))
        url=$(sed -n 's|^listening on \(http://[^ ]*\).*|\1|p' "$log" | head -n 1)
    done
    port=${url##*:}
    port=${port%%/*}
    [ -n "$url" ]
}

# wait_healthy: the image's HEALTHCHECK command, with the port the server got.
wait_healthy() {
    local tries=0
    until PHANTOMGO_PORT=$port phantomgo healthcheck --timeout 2 2>/dev/null; do
        tries=$((tries + 1))
        [ $tries -lt 200 ] && kill -0 "$server_pid" 2>/dev/null || return 1
        sleep 0.05
    done
}

# http METHOD PATH [JSON]: one HTTP/1.0 exchange; sets status and body.
http() {
    local method=$1 path=$2 data=${3-} answer
    status='' body=''
    exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
    printf '%s %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' \
        "$method" "$path" "$port" "${#data}" "$data" >&3
    answer=$(timeout 10 cat <&3)
    exec 3<&-
    status=$(head -n 1 <<<"$answer" | cut -d ' ' -f 2)
    body=${answer#*$'\r\n\r\n'}
}

expect_status() { [ "$status" = "$1" ] || { echo "   got HTTP ${status:-nothing}: ${body:0:300}"; return 1; }; }

# stop_server: SIGTERM, as `docker stop` sends; true if it exits 0 within 10 s.
stop_server() {
    local tries=0 rc
    kill -TERM "$server_pid" || return 1
    while kill -0 "$server_pid" 2>/dev/null && [ $tries -lt 200 ]; do sleep 0.05; tries=$((tries + 1)); done
    if kill -0 "$server_pid" 2>/dev/null; then echo "   still running 10 s after SIGTERM"; return 1; fi
    wait "$server_pid"; rc=$?
    server_pid=''
    [ "$rc" -eq 0 ] || { echo "   exit status $rc after SIGTERM"; return 1; }
}

show_log() { echo "   server log:"; tail -n 20 "$1" | sed 's/^/   | /'; }

# backup_has_game FILE: an intact database that holds the new game.
backup_has_game() {
    [ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ] &&
    [ "$(sqlite3 "$1" "SELECT count(*) FROM games WHERE id = '$game_id'")" = 1 ]
}
backup_with_phantomgo() { phantomgo backup --to /data/backup.db && backup_has_game /data/backup.db; }
backup_with_dot_backup() { sqlite3 /data/phantomgo.db '.backup /data/dot.db' && backup_has_game /data/dot.db; }
backup_with_vacuum_into() { sqlite3 /data/phantomgo.db "VACUUM INTO '/data/vacuum.db'" && backup_has_game /data/vacuum.db; }

# -- the image as configured
check "runs as a non-root user (uid $(id -u))" test "$(id -u)" != 0
check "PHANTOMGO_DB=$PHANTOMGO_DB lies in the /data volume" test "${PHANTOMGO_DB%/*}" = /data
check "/data is writable by the server, /app is not" test -w /data -a ! -w /app -a ! -w /app/schema.sql

# -- first start on an empty /data
started=$(now_ms)
if start_server "$work/first.log" && wait_healthy; then
    ok "server started and its HEALTHCHECK passed in $(( $(now_ms) - started )) ms"
else
    fail "server started and its HEALTHCHECK passed"; show_log "$work/first.log"; finish
fi
http POST /api/v1/games '{"mode":"hotseat"}'
check "POST /api/v1/games {\"mode\":\"hotseat\"} answers 201" expect_status 201
game_id=$(grep -o '"id" *: *"[^"]*"' <<<"$body" | head -n 1 | sed 's/.*"\([^"]*\)"$/\1/')
check "the answer names the new game (${game_id:-none})" test -n "$game_id"
check "the database appeared in /data, owned by the server's user" test -s /data/phantomgo.db -a -O /data/phantomgo.db
http GET /
check "GET / serves the web application (200)" expect_status 200
check "online backup while serving: phantomgo backup" backup_with_phantomgo
check "online backup while serving: sqlite3 .backup" backup_with_dot_backup
check "online backup while serving: VACUUM INTO" backup_with_vacuum_into

stopping=$(now_ms)
if stop_server; then ok "SIGTERM stops the server with exit status 0 in $(( $(now_ms) - stopping )) ms"
else fail "SIGTERM stops the server with exit status 0"; show_log "$work/first.log"; fi
echo "   /data after the stop: $(cd /data && ls -A | tr '\n' ' ')"

# -- restore as documented: server stopped, backup in place, no stale WAL
rm -f /data/phantomgo.db-wal /data/phantomgo.db-shm /data/vacuum.db /data/dot.db
mv /data/backup.db /data/phantomgo.db
started=$(now_ms)
if start_server "$work/second.log" && wait_healthy; then
    ok "restarted on the restored /data, HEALTHCHECK passed in $(( $(now_ms) - started )) ms"
    http GET "/api/v1/games/$game_id"
    check "the restored game is there: GET /api/v1/games/$game_id answers 200" expect_status 200
    check "and SIGTERM stops it again" stop_server
else
    fail "the server starts again on the restored /data"; show_log "$work/second.log"
fi
finish
